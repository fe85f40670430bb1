import { OUTPUTS, Probabilities, clampInPlace, probabilitiesAt } from './probabilities';

/** The two families of the nardy games: long nardy and its variants; short nardy (backgammon). */
export type Family = 'long' | 'short';

const FAMILY_NAMES: readonly string[] = ['long', 'short'] satisfies readonly Family[];

/** Is `value` the name of a family (a file's or manifest's `family` field)? */
export function isFamily(value: unknown): value is Family {
  return typeof value === 'string' && FAMILY_NAMES.includes(value);
}

/**
 * A static position evaluator (wildbg's `Evaluator` idea): it knows nothing
 * of the cube or of search. It looks at one board **seen from the side to
 * move, before that side rolls** (long family: `Int8Array(26)` of
 * src/engine/long/board.ts, with nothing pending — no cascade, debt or
 * re-roll; short family: `Int8Array(28)` of src/engine/short/board.ts) and
 * returns the outcome probabilities of the side to move (probabilities.ts).
 *
 * `name` + `version` identify the evaluator in cache keys: the version
 * changes whenever its output for some position may change.
 */
export interface Evaluator {
  readonly family: Family;
  readonly name: string;
  readonly version: string;
  /**
   * Hot path: writes the five probabilities of `board` into
   * `out[offset … offset+4]`. Allocates nothing and does not keep `board`.
   */
  evaluateInto(board: Int8Array, out: Float64Array, offset: number): void;
  /** One position → fresh probabilities. */
  evaluate(board: Int8Array): Probabilities;
  /** Many positions → fresh probabilities, in order. */
  evaluateBatch(boards: readonly Int8Array[]): Probabilities[];
}

/** The part of an evaluator that differs between evaluators. */
export interface EvaluatorCore {
  readonly family: Family;
  readonly name: string;
  readonly version: string;
  evaluateInto(board: Int8Array, out: Float64Array, offset: number): void;
}

type EvaluateInto = (board: Int8Array, out: Float64Array, offset: number) => void;

/** What every evaluator of a family looks at before its contact model. */
export interface FamilyLayers<R extends { evaluateInto: EvaluateInto } = { evaluateInto: EvaluateInto }> {
  /** Writes the exact result of a finished game and says so; false for a game still on. */
  readonly terminalInto: (board: Int8Array, out: Float64Array, offset: number) => boolean;
  readonly isRace: (board: Int8Array) => boolean;
  readonly race: R;
}

/**
 * The `evaluateInto` of a family's evaluator: a finished game's exact
 * result, else the race evaluator in a race, else `contactInto` (heuristic
 * or network); the probabilities then put in order (`clampInPlace`).
 */
export function layeredEvaluateInto(family: FamilyLayers, contactInto: EvaluateInto): EvaluateInto {
  const { terminalInto, isRace, race } = family;
  return (board, out, offset) => {
    if (terminalInto(board, out, offset)) return;
    if (isRace(board)) race.evaluateInto(board, out, offset);
    else contactInto(board, out, offset);
    clampInPlace(out, offset);
  };
}

/** Completes an evaluator core with the allocating `evaluate` and `evaluateBatch` forms. */
export function makeEvaluator<T extends EvaluatorCore>(core: T): T & Evaluator {
  const scratch = new Float64Array(OUTPUTS);
  const full = core as T & Evaluator;
  full.evaluate = (board: Int8Array): Probabilities => {
    core.evaluateInto(board, scratch, 0);
    return probabilitiesAt(scratch, 0);
  };
  full.evaluateBatch = (boards: readonly Int8Array[]): Probabilities[] => {
    const flat = new Float64Array(boards.length * OUTPUTS);
    for (let i = 0; i < boards.length; i++) core.evaluateInto(boards[i], flat, i * OUTPUTS);
    const out: Probabilities[] = new Array<Probabilities>(boards.length);
    for (let i = 0; i < boards.length; i++) out[i] = probabilitiesAt(flat, i * OUTPUTS);
    return out;
  };
  return full;
}

/** The same evaluator, calling `counted` at every evaluation (benchmarks and tests count the work of a search). */
export function countingEvaluator(evaluator: Evaluator, counted: () => void): Evaluator {
  return makeEvaluator({
    family: evaluator.family,
    name: evaluator.name,
    version: evaluator.version,
    evaluateInto(board, out, offset) {
      counted();
      evaluator.evaluateInto(board, out, offset);
    },
  });
}
