import { flipBoard as flipLongBoard } from '../../src/engine/long/board';
import { CLASSIC } from '../../src/engine/long/rules';
import { flipBoard as flipShortBoard } from '../../src/engine/short/board';
import { ShortStageSolver } from '../../src/engine/short/stage';
import { STANDARD_VALUES, equityAt, longOutcomeValues } from '../../src/eval/equity';
import { LongSearch } from '../../src/eval/long/search';
import { NeuralEvaluator } from '../../src/eval/neural/evaluator';
import { sigmoid, sparseInput } from '../../src/eval/neural/network';
import { PruningNetwork, loadPruningNetwork } from '../../src/eval/neural/pruning';
import {
  createLongRawEncoding,
  createShortRawEncoding,
  encodeShortRawFlipped,
  shortRawFlippedSlots,
} from '../../src/eval/neural/raw-encoding';
import { clampInPlace, flipInPlace } from '../../src/eval/probabilities';
import { FULL_WIDTH, PRUNING_FILTER, PruningFilter, ReplyPruner, isPruned, withPruning } from '../../src/eval/prune';
import { searchSettings } from '../../src/eval/search-options';
import { SHORT_ROLLS } from '../../src/eval/short/features';
import { ShortSearch } from '../../src/eval/short/search';
import { SHORT_STANDARD } from '../../src/engine/short/rules';
import { neuralEvaluators } from '../../src/service/analysis/data';
import { readLongNet, readNetFiles, readShortNet } from '../../src/service/analysis/nets';
import { longPositions, shortPositions } from './neural/support';

/*
 * Reply pruning (src/eval/prune.ts): the committed pruning networks belong
 * to the committed full networks; the pruner keeps the best few plays of
 * its own order; a search with pruning chooses each reply by the full
 * network among the kept plays, and with nothing pruned answers exactly as
 * a full-width search.
 */

function pruningNet(name: string): PruningNetwork {
  const { bytes, manifest } = readNetFiles(`${name}-prune`);
  const loaded = loadPruningNetwork(bytes, manifest);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

function attach(evaluator: NeuralEvaluator, network: PruningNetwork, filter?: PruningFilter) {
  const r = withPruning(evaluator, network, filter);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const short = readShortNet();
const long = readLongNet(CLASSIC);
const shortPruning = pruningNet('backgammon');
const longPruning = pruningNet('long');

describe('pruning networks', () => {
  it('are distilled from the committed full networks, and refused beside others', () => {
    expect(shortPruning.parent).toBe(short.version.split('+')[0]);
    expect(longPruning.parent).toBe(long.version.split('+')[0]);
    expect(withPruning(short, longPruning).ok).toBe(false);
    expect(withPruning(long, shortPruning).ok).toBe(false);
    const { bytes, manifest } = readNetFiles('backgammon-prune');
    const orphan = { ...(manifest as object), training: { parent: 'deadbeef-1' } };
    const loaded = loadPruningNetwork(bytes, orphan);
    expect(loaded.ok).toBe(true);
    if (loaded.ok) expect(withPruning(short, loaded.value).ok).toBe(false);
    expect(loadPruningNetwork(bytes.slice(0, bytes.length - 1), manifest).ok).toBe(false);
  });

  it('attach to an evaluator without changing its numbers, and say so in its version', () => {
    const pruned = attach(short, shortPruning);
    expect(isPruned(pruned)).toBe(true);
    expect(isPruned(short)).toBe(false);
    expect(pruned.version).toBe(`${short.version}+prune-${shortPruning.version}-${PRUNING_FILTER.keep}-${PRUNING_FILTER.window}`);
    for (const board of shortPositions(5, 20)) expect(pruned.evaluate(board)).toEqual(short.evaluate(board));
    expect(withPruning(short, shortPruning, { keep: 0, window: 0.1 }).ok).toBe(false);
  });

  it('raw encodings: the flipped board is the same vector with the two blocks swapped', () => {
    const cases = [
      { encoding: createShortRawEncoding(), boards: shortPositions(9, 30), flip: flipShortBoard },
      { encoding: createLongRawEncoding(), boards: longPositions('long', 9, 30).map((s) => s.position.board), flip: flipLongBoard },
    ];
    for (const { encoding, boards, flip } of cases) {
      const a = sparseInput(encoding.inputs);
      const b = sparseInput(encoding.inputs);
      for (const board of boards) {
        encoding.encode(board, a);
        encoding.encode(flip(board), b);
        const dense = (s: typeof a): number[] => {
          const d = new Array<number>(encoding.inputs).fill(0);
          for (let k = 0; k < s.count; k++) {
            if (k > 0) expect(s.index[k]).toBeGreaterThan(s.index[k - 1]);
            d[s.index[k]] = s.value[k];
          }
          return d;
        };
        const x = dense(a);
        const y = dense(b);
        const side = encoding.sideInputs;
        expect([...y.slice(side), ...y.slice(0, side)]).toEqual(x);
      }
    }
  });

  it('short-raw-1 of the flipped board, written straight from the unflipped one, is the same input', () => {
    const encoding = createShortRawEncoding();
    const a = sparseInput(encoding.inputs);
    const b = sparseInput(encoding.inputs);
    // Game positions and the results of their plays: checkers on the bar, borne off, stacked beyond three.
    const boards = shortPositions(11, 40).flatMap((board) => {
      const { boards: plays, n } = playsOf(board, 6, 5);
      return [board, ...Array.from({ length: n }, (_, k) => plays.slice(k * 28, (k + 1) * 28))];
    });
    const withBar = Int8Array.from(boards[0]);
    withBar[25] = 3;
    withBar[26] = 1;
    withBar[0] = 2;
    withBar[27] = 4;
    let flat = new Int8Array(0);
    for (const board of [...boards, withBar]) {
      const next = new Int8Array(flat.length + 28);
      next.set(flat);
      next.set(board, flat.length);
      flat = next;
    }
    for (let k = 0; k * 28 < flat.length; k++) {
      encoding.encode(flipShortBoard(flat.subarray(k * 28, (k + 1) * 28)), a);
      encodeShortRawFlipped(flat, k * 28, b);
      expect(Array.from(b.index.subarray(0, b.count))).toEqual(Array.from(a.index.subarray(0, a.count)));
      expect(Array.from(b.value.subarray(0, b.count))).toEqual(Array.from(a.value.subarray(0, a.count)));
    }
  });
});

/** The results of every play of a roll (seen from the mover), flat. */
function playsOf(board: Int8Array, a: number, b: number): { boards: Int8Array; n: number } {
  const solver = new ShortStageSolver();
  const n = solver.solve(board, a, b);
  const boards = new Int8Array(n * 28);
  for (let k = 0; k < n; k++) solver.playBoardInto(k, boards.subarray(k * 28, (k + 1) * 28));
  return { boards, n };
}

/** The full network's probabilities and equity for the mover of play k's result. */
function fullValue(boards: Int8Array, k: number): { probs: Float64Array; equity: number } {
  const probs = new Float64Array(5);
  short.evaluateInto(flipShortBoard(boards.subarray(k * 28, (k + 1) * 28)), probs, 0);
  flipInPlace(probs, 0);
  return { probs, equity: equityAt(probs, 0, STANDARD_VALUES) };
}

describe('ReplyPruner', () => {
  it('keeps the best plays of the pruning network, at most `keep`, within `window` of its best', () => {
    const filter = { keep: 4, window: 0.15 };
    const pruner = new ReplyPruner(attach(short, shortPruning, filter), STANDARD_VALUES);
    const input = sparseInput(shortPruning.encoding.inputs);
    const out = new Float64Array(5);
    let pruned = 0;
    for (const board of shortPositions(21, 15)) {
      for (const [a, b] of SHORT_ROLLS.slice(0, 6)) {
        const { boards, n } = playsOf(board, a, b);
        const equities = new Float64Array(n).fill(7);
        const m = pruner.select(boards, 28, n, equities);
        const kept = Array.from(pruner.kept.subarray(0, m));
        if (n <= filter.keep) {
          expect(kept).toEqual(Array.from({ length: n }, (_, k) => k));
          continue;
        }
        pruned++;
        // The pruning network's own equity of each play, by hand.
        const score = (k: number): number => {
          const flipped = flipShortBoard(boards.subarray(k * 28, (k + 1) * 28));
          if (short.isRace(flipped)) short.evaluateInto(flipped, out, 0);
          else {
            shortPruning.encoding.encode(flipped, input);
            shortPruning.network.forward(input, out, 0);
          }
          flipInPlace(out, 0);
          return equityAt(out, 0, STANDARD_VALUES);
        };
        const scores = Array.from({ length: n }, (_, k) => score(k));
        const top = Math.max(...scores);
        expect(m).toBeGreaterThanOrEqual(1);
        expect(m).toBeLessThanOrEqual(filter.keep);
        expect(scores[kept[0]]).toBeCloseTo(top, 12);
        for (let i = 1; i < m; i++) {
          expect(scores[kept[i]]).toBeLessThanOrEqual(scores[kept[i - 1]] + 1e-12);
          expect(scores[kept[i]]).toBeGreaterThanOrEqual(top - filter.window - 1e-12);
        }
        // Every play left out scores below the last kept one, or outside the window.
        const last = scores[kept[m - 1]];
        for (let k = 0; k < n; k++) {
          if (kept.includes(k)) continue;
          expect(scores[k] <= last + 1e-12 || scores[k] < top - filter.window).toBe(true);
          expect(equities[k]).toBe(-Infinity);
        }
      }
    }
    expect(pruned).toBeGreaterThan(20);
  });
});

/** Equities agree to within a few ulps: the board kernel's sigmoids use its own `exp` (WasmForward.scoreBoards). */
function expectScoresClose(fast: ArrayLike<number>, slow: ArrayLike<number>): void {
  expect(fast.length).toBe(slow.length);
  for (let k = 0; k < fast.length; k++) if (Math.abs(fast[k] - slow[k]) > 2e-15) expect(fast[k]).toBe(slow[k]);
}

describe('ReplyPruner with the board kernel', () => {
  it('scores every play within a few ulps of encoding and evaluating them one by one, and keeps the same plays', () => {
    const evaluator = attach(short, shortPruning, { keep: 3, window: 0.3 });
    const fast = new ReplyPruner(evaluator, STANDARD_VALUES);
    const slow = new ReplyPruner(evaluator, STANDARD_VALUES, false);
    let scored = 0;
    for (const board of shortPositions(44, 60)) {
      for (const [a, b] of SHORT_ROLLS) {
        const { boards, n } = playsOf(board, a, b);
        const e1 = new Float64Array(n);
        const e2 = new Float64Array(n);
        const m = fast.select(boards, 28, n, e1);
        expect(slow.select(boards, 28, n, e2)).toBe(m);
        expect(Array.from(fast.kept.subarray(0, m))).toEqual(Array.from(slow.kept.subarray(0, m)));
        if (n > 3) {
          expectScoresClose(fast.scores.subarray(0, n), slow.scores.subarray(0, n));
          scored += n;
        }
        expect(Array.from(e1)).toEqual(Array.from(e2));
      }
    }
    expect(fast.scored).toBe(scored);
    expect(scored).toBeGreaterThan(10000);
  });

  it("scores pre-sigmoid outputs as the TypeScript does, across the sigmoid's range and its saturation at ±40", () => {
    const kernel = shortPruning.network.boardKernel(shortRawFlippedSlots(), 64);
    if (kernel === null) {
      console.log('skipped: this runtime has no WebAssembly SIMD, so there is no board kernel to compare');
      return;
    }
    const zs = [-1e9, -50, -40.000001, -40, -39.99, -17.3, -5, -1, -1e-9, 0, 1e-12, 0.3, 2.5, 7, 23.9, 39.999, 40, 40.0001, 700];
    const probs = new Float64Array(5);
    let checked = 0;
    for (const values of [STANDARD_VALUES, { single: 1, mars: 2, koks: 0 }]) {
      for (let round = 0; round < 20; round++) {
        const n = 64;
        for (let k = 0; k < n * 5; k++) kernel.plays[Math.floor(k / 5) * 6 + (k % 5)] = zs[(k * 7 + round * 3 + k * k) % zs.length];
        kernel.scoreBoards(n, values);
        for (let k = 0; k < n; k++) {
          for (let i = 0; i < 5; i++) probs[i] = sigmoid(kernel.plays[k * 6 + i]);
          clampInPlace(probs, 0);
          flipInPlace(probs, 0);
          const expected = equityAt(probs, 0, values);
          const got = kernel.plays[k * 6 + 5];
          if (Math.abs(got - expected) > 2e-15) expect(got).toBe(expected);
          checked++;
        }
      }
    }
    expect(checked).toBe(2 * 20 * 64);
  });
});

describe('searches with reply pruning', () => {
  it('backgammon 1 ply: each roll is played by the full network’s best among the kept plays', () => {
    const evaluator = attach(short, shortPruning);
    const search = new ShortSearch(evaluator);
    const pruner = new ReplyPruner(evaluator, STANDARD_VALUES);
    for (const board of shortPositions(33, 6)) {
      const expected = new Float64Array(5);
      for (const [a, b] of SHORT_ROLLS) {
        const { boards, n } = playsOf(board, a, b);
        let chosen = 0;
        if (n > 1) {
          const m = pruner.select(boards, 28, n, new Float64Array(n));
          chosen = pruner.kept[0];
          for (let i = 1; i < m; i++) if (fullValue(boards, pruner.kept[i]).equity > fullValue(boards, chosen).equity) chosen = pruner.kept[i];
        }
        const weight = a === b ? 1 / 36 : 2 / 36;
        const v = boards[chosen * 28] === 15 ? null : fullValue(boards, chosen).probs;
        if (v === null) throw new Error('no game ends in these opening-phase positions');
        for (let i = 0; i < 5; i++) expected[i] += weight * v[i];
      }
      const got = search.evaluate(board, 1);
      expect(got.win).toBeCloseTo(expected[0], 10);
      expect(got.winMars).toBeCloseTo(expected[1], 10);
      expect(got.loseMars).toBeCloseTo(expected[3], 10);
    }
  });

  it('with every play kept, or switched off, answers exactly as the full-width search (both families)', () => {
    const everything = { keep: 1000, window: 1000 };
    const wide = new ShortSearch(short);
    const all = new ShortSearch(attach(short, shortPruning, everything));
    const off = new ShortSearch(attach(short, shortPruning));
    off.pruner = null;
    for (const board of shortPositions(41, 4)) {
      const expected = wide.rankTurns(board, [5, 3], searchSettings(1));
      expect(all.rankTurns(board, [5, 3], searchSettings(1))).toEqual(expected);
      expect(off.rankTurns(board, [5, 3], searchSettings(1))).toEqual(expected);
    }
    const longWide = new LongSearch(CLASSIC, long);
    const longAll = new LongSearch(CLASSIC, attach(long, longPruning, everything), longOutcomeValues(CLASSIC));
    for (const state of longPositions('long', 43, 4)) {
      const a = longWide.rankTurns(state, [6, 2], searchSettings(1));
      const b = longAll.rankTurns(state, [6, 2], searchSettings(1));
      expect(b).toEqual(a);
    }
  });

  it('pruning scores fewer plays with the full network', () => {
    const wide = new ShortSearch(short);
    const pruned = new ShortSearch(attach(short, shortPruning));
    for (const board of shortPositions(51, 3)) {
      wide.evaluate(board, 1);
      pruned.evaluate(board, 1);
    }
    expect(pruned.evaluations * 3).toBeLessThan(wide.evaluations);
    expect(pruned.pruner?.scored).toBeGreaterThan(0);
  });
});

describe('the service’s evaluators', () => {
  it('prune backgammon by default (PRUNING_DEFAULTS), not long nardy, and search full width with FULL_WIDTH', () => {
    const served = neuralEvaluators();
    expect(isPruned(served.short(SHORT_STANDARD))).toBe(true);
    expect(served.short(SHORT_STANDARD).version).toBe(`${short.version}+prune-${shortPruning.version}-${PRUNING_FILTER.keep}-${PRUNING_FILTER.window}`);
    expect(isPruned(served.long(CLASSIC, 'long'))).toBe(false);
    const wide = neuralEvaluators(undefined, undefined, FULL_WIDTH);
    expect(isPruned(wide.short(SHORT_STANDARD))).toBe(false);
    expect(wide.short(SHORT_STANDARD).version).toBe(short.version);
  });
});
