import { RulesError, rulesError } from '../engine/errors';
import { Result, err, ok } from '../engine/result';
import { FAMILY_BOARDS } from './boards';
import { OutcomeValues, equityAt } from './equity';
import { Evaluator, Family } from './evaluator';
import { NeuralEvaluator } from './neural/evaluator';
import { NeuralNetwork, SparseInput } from './neural/network';
import { PruningNetwork } from './neural/pruning';
import { WasmForward } from './neural/kernel';
import { encodeShortRawFlipped, shortRawFlippedSlots } from './neural/raw-encoding';
import { clampInPlace, flipInPlace } from './probabilities';
import { isShortRace } from './race/short';

/**
 * Reply pruning (after gnubg's pruning networks). At every chance node of
 * a search of 1 ply or more, the side to move's best play of each of the
 * 21 rolls is chosen at 0 ply; without pruning the full network scores
 * every play (21 rolls × about 20 plays per node). With pruning a tiny
 * network distilled from the full one (neural/pruning.ts) scores them
 * all, and only the best `keep` of its order within `window` of its best
 * go to the full network, which chooses among them with its own numbers.
 * So the chosen play and its value are the full network's whenever the
 * full network's favourite is among the kept plays (docs/benchmarks.md
 * "Search speed" measures how often, and what the misses cost).
 *
 * Race and game-over results are scored by the full evaluator itself
 * (exact tables, cheap), so they are ordered exactly.
 */
export interface PruningFilter {
  /** At most this many plays of a roll go to the full network (≥ 1). */
  readonly keep: number;
  /** Only plays within this equity of the pruning network's best (cubeless, per unit stake). */
  readonly window: number;
}

/** The default filter, from the measurements of docs/benchmarks.md ("Search speed", reply pruning). */
export const PRUNING_FILTER: PruningFilter = Object.freeze({ keep: 5, window: 0.2 });

/**
 * Where pruning pays, by family: backgammon, where a roll has about 30
 * plays and the full network is large. Not long nardy: about 12 plays a
 * roll and a network a third the size, so ordering them costs about what
 * it saves (docs/benchmarks.md).
 */
export const PRUNING_DEFAULTS: Readonly<Record<Family, PruningFilter | null>> = Object.freeze({ short: PRUNING_FILTER, long: null });

/** No pruning in either family: every reply scored by the full network (docs/evaluation.md). */
export const FULL_WIDTH: Readonly<Record<Family, PruningFilter | null>> = Object.freeze({ short: null, long: null });

/** A neural evaluator with the pruning network a search should order its replies with. */
export interface PrunedEvaluator extends NeuralEvaluator {
  readonly pruning: { readonly network: PruningNetwork; readonly filter: PruningFilter };
}

/**
 * The evaluator with a pruning network attached: searches on it prune
 * their replies (`ReplyPruner`). Its static evaluations are the same; its
 * `version` says how it searches — `…+prune-<pruning net hash>-<keep>-<window>` —
 * so cached answers of a pruned search are never mistaken for full-width
 * ones. The network must have been distilled from this evaluator's weights.
 */
export function withPruning(
  evaluator: NeuralEvaluator,
  network: PruningNetwork,
  filter: PruningFilter = PRUNING_FILTER,
): Result<PrunedEvaluator, RulesError> {
  const bad = (message: string) => err(rulesError('INVALID_REQUEST', `pruning network: ${message}`, { field: 'pruningNetwork' }));
  if (network.family !== evaluator.family) return bad(`a ${network.family} network for a ${evaluator.family} evaluator`);
  if (evaluator.version.split('+')[0] !== network.parent)
    return bad(`distilled from ${network.parent}, not from this evaluator's weights (${evaluator.version})`);
  if (!Number.isInteger(filter.keep) || filter.keep < 1 || !(filter.window >= 0)) return bad('keep must be a positive integer and window ≥ 0');
  return ok({
    ...evaluator,
    version: `${evaluator.version}+prune-${network.version}-${filter.keep}-${filter.window}`,
    pruning: { network, filter },
  });
}

/** Whether an evaluator carries a pruning network (`withPruning`). */
export function isPruned(evaluator: Evaluator): evaluator is PrunedEvaluator {
  return 'pruning' in evaluator && (evaluator as PrunedEvaluator).pruning !== undefined;
}

/**
 * The pruning step of one search (not re-entrant, like the searches): see
 * `select`. `scored` and `kept` count the plays it saw and passed on.
 */
export class ReplyPruner {
  /** The plays to evaluate fully, after `select`: indices, best first by the pruning network. */
  kept = new Int32Array(64);
  /** Plays scored by the pruning network (or, for races, by the evaluator) / passed on (benchmarks). */
  scored = 0;
  passed = 0;
  /** The pruning network's score (the mover's cubeless equity) of each play, after `select` has scored them. */
  scores = new Float64Array(64);
  private readonly network: PruningNetwork;
  private readonly filter: PruningFilter;
  /** The pruning network's input: the kernel's own memory where it has one (no copy per play). */
  private readonly input: SparseInput;
  /** The encoding of the board at `boards[base …]` seen from the other side, straight from it (raw-encoding.ts), if the encoding has one. */
  private readonly direct: ((boards: Int8Array, base: number, out: SparseInput) => void) | null;
  private readonly own: Int8Array;
  private readonly flipped: Int8Array;
  private readonly probs = new Float64Array(5);
  private readonly flip: (board: Int8Array, out: Int8Array) => Int8Array;
  /**
   * The pruning network's kernel for whole boards (backgammon's raw
   * encoding as board slots): every play of a roll in one call, the same
   * numbers as encoding and evaluating them one by one; null where the
   * runtime has no WebAssembly SIMD.
   */
  private readonly boardKernel: WasmForward | null;

  /** `boardKernel` false: each play encoded and evaluated on its own, as where WebAssembly SIMD is missing (tests, benchmarks). */
  constructor(
    readonly evaluator: PrunedEvaluator,
    readonly values: OutcomeValues,
    boardKernel = true,
  ) {
    this.network = evaluator.pruning.network;
    this.filter = evaluator.pruning.filter;
    this.input = this.network.network.inputBuffer();
    this.direct = this.network.encoding.name === 'short-raw-1' ? encodeShortRawFlipped : null;
    const board = FAMILY_BOARDS[evaluator.family];
    this.own = new Int8Array(board.length);
    this.flipped = new Int8Array(board.length);
    this.flip = board.flipInto;
    this.boardKernel = boardKernel && this.direct !== null ? sharedBoardKernel(this.network.network) : null;
  }

  /**
   * Of the `n` plays whose results are `boards[k·stride …]` (each seen
   * from the mover, the opponent to roll next), the ones the full network
   * should score: writes their indices into `kept` (best first by the
   * pruning network), sets `equities[k] = −∞` for the others, and returns
   * how many were kept. With no more plays than `keep` all are kept
   * (identity order) and nothing is scored.
   */
  select(boards: Int8Array, stride: number, n: number, equities: Float64Array): number {
    if (this.kept.length < n) {
      this.kept = new Int32Array(2 * n);
      this.scores = new Float64Array(2 * n);
    }
    const kept = this.kept;
    if (n <= this.filter.keep) {
      for (let k = 0; k < n; k++) kept[k] = k;
      this.passed += n;
      return n;
    }
    const board = this.boardKernel;
    let plays: Float64Array | null = null;
    // The board kernel is WebAssembly: not while the network is switched to the JavaScript loops (benchmarks).
    if (board !== null && n <= board.capacity && this.network.network.kernel === 'wasm') {
      board.forwardBoards(boards, n);
      board.scoreBoards(n, this.values);
      plays = board.plays;
    }
    this.score(boards, stride, n, equities, plays);
    this.scored += n;
    return this.keepBest(n);
  }

  /**
   * The pruning network's score of each of the `n` plays into `scores`:
   * from `plays` (the board kernel's outputs, six a play, the sixth its
   * score) when given, else each play encoded and evaluated on its own —
   * the same numbers but for the sigmoids' `exp`, which is the kernel's
   * own there (within an ulp or two; `WasmForward.scoreBoards`). Races are
   * scored by the evaluator.
   */
  private score(boards: Int8Array, stride: number, n: number, equities: Float64Array, plays: Float64Array | null): void {
    const scores = this.scores;
    const kept = this.kept;
    const own = this.own;
    const flipped = this.flipped;
    const probs = this.probs;
    const network = this.network.network;
    const evaluator = this.evaluator;
    const input = this.input;
    const direct = this.direct;
    const values = this.values;
    for (let k = 0; k < n; k++) {
      const base = k * stride;
      // With a direct encoding (backgammon), the race test reads the unflipped board where it lies: contact is
      // the same seen from either side (no checker of one side past the other side's rearmost), and only races
      // need the board copied and flipped.
      let race: boolean;
      if (direct !== null) race = isShortRace(boards, base);
      else {
        for (let i = 0; i < stride; i++) own[i] = boards[base + i];
        race = evaluator.isRace(this.flip(own, flipped));
      }
      if (!race && plays !== null) scores[k] = plays[k * 6 + 5];
      else {
        if (race) {
          if (direct !== null) for (let i = 0; i < stride; i++) own[i] = boards[base + i];
          evaluator.evaluateInto(direct !== null ? this.flip(own, flipped) : flipped, probs, 0);
        } else {
          // Into the kernel's own input (no copy per play).
          if (direct !== null) direct(boards, base, input);
          else this.network.encoding.encode(flipped, input);
          network.forward(input, probs, 0);
          clampInPlace(probs, 0);
        }
        flipInPlace(probs, 0);
        scores[k] = equityAt(probs, 0, values);
      }
      kept[k] = k;
      equities[k] = -Infinity;
    }
  }

  /** Moves the best `keep` plays within `window` of the best to the front of `kept` (by score); returns how many. */
  private keepBest(n: number): number {
    const scores = this.scores;
    const kept = this.kept;
    // Partial selection sort: `keep` is a handful, n a few dozen.
    const keep = this.filter.keep;
    let count = 0;
    let top = -Infinity;
    for (; count < keep; count++) {
      let at = count;
      for (let i = count + 1; i < n; i++) if (scores[kept[i]] > scores[kept[at]]) at = i;
      const k = kept[at];
      if (count === 0) top = scores[k];
      else if (scores[k] < top - this.filter.window) break;
      kept[at] = kept[count];
      kept[count] = k;
    }
    this.passed += count;
    return count;
  }
}

/** Plays of one roll the pruner's board kernel takes in one call (a roll of backgammon has at most a few hundred). */
const BOARD_KERNEL_PLAYS = 1024;

/**
 * One board kernel per pruning network and thread, shared by every search
 * on it: a call leaves nothing behind that the next one reads (`select`
 * reads the outputs before it returns), so searches may share it.
 */
const boardKernels = new WeakMap<NeuralNetwork, WasmForward | null>();

function sharedBoardKernel(network: NeuralNetwork): WasmForward | null {
  let kernel = boardKernels.get(network);
  if (kernel === undefined) {
    kernel = network.boardKernel(shortRawFlippedSlots(), BOARD_KERNEL_PLAYS);
    boardKernels.set(network, kernel);
  }
  return kernel;
}

/** The reply pruner of a search on `evaluator` with `values`, or null when the evaluator carries no pruning network. */
export function replyPrunerOf(evaluator: Evaluator, values: OutcomeValues): ReplyPruner | null {
  return isPruned(evaluator) ? new ReplyPruner(evaluator, values) : null;
}
