import { Evaluator, Family, makeEvaluator } from './evaluator';
import { pipCounts } from './pips';
import { Probabilities, writeProbabilities } from './probabilities';

/** Options of `createFakeEvaluator`. */
export interface FakeEvaluatorOptions {
  readonly family: Family;
  /**
   * Fixed probabilities, or a function of the board. Default: a
   * deterministic pip-count formula, win = ½ + (opponent pips − mover pips)/(2 × larger pips),
   * winMars = win²/4, loseMars = (1 − win)²/4, no koks.
   */
  readonly probabilities?: Probabilities | ((board: Int8Array) => Probabilities);
  readonly name?: string;
  readonly version?: string;
}

/** A fake evaluator that also counts its calls. */
export interface FakeEvaluator extends Evaluator {
  /** Number of boards evaluated so far. */
  calls: number;
}

/**
 * A deterministic evaluator for tests (wildbg's `EvaluatorFake`): no data
 * files, no search, predictable numbers. The API tests use it to make
 * responses exact.
 */
export function createFakeEvaluator(options: FakeEvaluatorOptions): FakeEvaluator {
  const family = options.family;
  const source = options.probabilities;
  const formula = (board: Int8Array): Probabilities => {
    const { mover: mine, opponent: his } = pipCounts(family, board);
    const scale = Math.max(mine, his, 1);
    const win = Math.min(1, Math.max(0, 0.5 + (his - mine) / (2 * scale)));
    return { win, winMars: (win * win) / 4, winKoks: 0, loseMars: ((1 - win) * (1 - win)) / 4, loseKoks: 0 };
  };
  const core = {
    family,
    name: options.name ?? 'fake',
    version: options.version ?? '1',
    calls: 0,
    evaluateInto(board: Int8Array, out: Float64Array, offset: number): void {
      core.calls++;
      const p = source === undefined ? formula(board) : typeof source === 'function' ? source(board) : source;
      writeProbabilities(p, out, offset);
    },
  };
  return makeEvaluator(core);
}
