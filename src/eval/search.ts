import { DISTINCT_ROLLS, DistinctRoll } from '../engine/dice';
import { OutcomeValues, equityAt } from './equity';
import { Evaluator } from './evaluator';
import { clampInPlace, flipInPlace } from './probabilities';
import { BudgetGuard, MoveFilter, POSITION_INNER_FILTER, SearchSettings } from './search-options';
import { ReplyPruner, replyPrunerOf } from './prune';
import { TranspositionCache, TranspositionTable } from './transpositions';

/** Numbers per position (probabilities.ts `OUTPUTS`), module-local for the hot loops. */
export const OUTPUTS = 5;
/** Levels of scratch made up front; deeper searches add more on demand. */
const LEVELS = 8;

/** A move generator of one family, reused for every roll at one depth. */
export interface PlayGenerator {
  /** Solves `roll` in `board` (seen from the side to move); returns the number of distinct plays. */
  solve(board: Int8Array, roll: DistinctRoll): number;
  /** Writes the board after play `k`, seen from the player who played, into `out[at …]`. */
  playBoardInto(k: number, out: Int8Array, at: number): void;
  /**
   * The boards of the plays of the last `solve` where the generator holds
   * them, in order (play k at k · board length), or null: then they are
   * copied out with `playBoardInto`. Valid until the next `solve`.
   */
  playBoards?(): Int8Array | null;
}

/** What the search needs of a family's boards. */
export interface SearchBoards {
  readonly boardLength: number;
  /** A move generator for one depth of the search. */
  generator(): PlayGenerator;
  /** Writes the board `boards[base …]` seen from the other side into `out`. */
  flipInto(boards: Int8Array, base: number, out: Int8Array): void;
  /**
   * The exact value of a game the mover has just won (`board` seen from
   * him, all his checkers off), or null to evaluate that board like any
   * other through the evaluator.
   */
  readonly terminalInto: ((board: Int8Array, out: Float64Array, offset: number) => void) | null;
}

/**
 * A position the fast chance node cannot take, valued by the family's
 * general path instead (long nardy: the opponent's first turn, LN-HEAD-2):
 * `board` is seen from its side to move, the value is written for him.
 */
export type ChanceEscape = (board: Int8Array, plies: number, depth: number, out: Float64Array, offset: number) => void;

/** Per-depth scratch: a move generator and buffers for the plays of one roll. */
class Level {
  /** The boards of the plays of the roll solved last: the generator's own, or a copy in `copies`. */
  boards: Int8Array;
  private copies: Int8Array;
  probs = new Float64Array(64 * OUTPUTS);
  equities = new Float64Array(64);
  readonly order: number[] = [];
  readonly flipped: Int8Array;
  readonly acc = new Float64Array(OUTPUTS);
  readonly generator: PlayGenerator;

  constructor(private readonly boardLength: number, generator: PlayGenerator) {
    this.copies = new Int8Array(64 * boardLength);
    this.boards = this.copies;
    this.flipped = new Int8Array(boardLength);
    this.generator = generator;
  }

  ensure(n: number): void {
    if (this.equities.length >= n) return;
    let c = this.equities.length;
    while (c < n) c *= 2;
    this.copies = new Int8Array(c * this.boardLength);
    this.probs = new Float64Array(c * OUTPUTS);
    this.equities = new Float64Array(c);
  }

  /** Solves `roll` in `board`; every play's board is then in `boards` (where the generator holds them, or copied). */
  playAll(board: Int8Array, roll: DistinctRoll): number {
    const n = this.generator.solve(board, roll);
    this.ensure(n);
    const held = this.generator.playBoards?.() ?? null;
    if (held !== null) {
      this.boards = held;
      return n;
    }
    const length = this.boardLength;
    for (let k = 0; k < n; k++) this.generator.playBoardInto(k, this.copies, k * length);
    this.boards = this.copies;
    return n;
  }
}

/** `candidates` with `kept` added when a filter left it out (none when `kept` is −1). */
function withKept(candidates: number[], kept: number): number[] {
  if (kept >= 0 && !candidates.includes(kept)) candidates.push(kept);
  return candidates;
}

/**
 * n-ply expectimax over the boards of one family, on top of any evaluator
 * of that family, with gnubg-like move filtering (search-options.ts). A
 * position's n-ply value is the average over the 21 rolls of the best
 * play's (n−1)-ply value of the result; the best play is chosen by
 * cubeless equity with `values`. Allocation-free inside the tree;
 * reusable, not re-entrant. The families' searches (short/search.ts,
 * long/search.ts) add their roots and, for long nardy, the turn model.
 */
export class BoardSearch {
  private readonly levels: Level[] = [];
  /** Static evaluations made (for benchmarks; transposition-cache hits not counted). */
  evaluations = 0;
  /** The wall-clock budget of the search in progress, if any (`SearchBudget`). */
  readonly guard = new BudgetGuard();
  /** Leaf evaluations of the search in progress (a cache at 2 plies and deeper). */
  readonly transpositions: TranspositionCache;
  /** Orders each roll's replies with the evaluator's pruning network (prune.ts); null: every reply gets the full network. */
  pruner: ReplyPruner | null;
  /** The filter of the plays searched below the root, for the search in progress (set by `begin`). */
  protected inner: MoveFilter = POSITION_INNER_FILTER;

  constructor(
    private readonly boards: SearchBoards,
    readonly evaluator: Evaluator,
    readonly values: OutcomeValues,
    table?: TranspositionTable,
  ) {
    for (let i = 0; i < LEVELS; i++) this.levelAt(i);
    this.transpositions = new TranspositionCache(evaluator, boards.boardLength, table);
    this.pruner = replyPrunerOf(evaluator, values);
  }

  /**
   * The scratch of a search depth. Depth grows by one per ply (and, in long
   * nardy, per stage with known units), so more levels are made on demand
   * (once, then kept).
   */
  protected levelAt(depth: number): Level {
    while (this.levels.length <= depth) this.levels.push(new Level(this.boards.boardLength, this.boards.generator()));
    return this.levels[depth];
  }

  /** Starts a search of `plies` whose plays below the root pass `inner`. */
  protected begin(plies: number, inner: MoveFilter): void {
    this.transpositions.begin(plies);
    this.inner = inner;
  }

  /** A static evaluation, through the transposition cache when the search uses one. */
  protected leaf(board: Int8Array, out: Float64Array, offset: number): void {
    this.evaluations += this.transpositions.evaluateInto(board, out, offset);
  }

  /**
   * Ranks `n` root candidates by equity for the mover: first all at 0 ply
   * (`valueAt(k, 0, …)`), then those that pass the root filter at
   * `settings.plies`. Returns their probabilities, equities, the plies each
   * was searched at, and the order: searched ones first when a deeper
   * search was asked for (their values are comparable), then by equity.
   * Candidate `kept` (≥ 0) passes every filter, as gnubg's analysis keeps the
   * play that was made, so that it is valued at the full depth beside the best.
   */
  protected rankCandidates(
    n: number,
    settings: SearchSettings,
    valueAt: (k: number, plies: number, out: Float64Array, offset: number) => void,
    kept = -1,
  ): { probs: Float64Array; equities: Float64Array; plies: Int8Array; order: number[] } {
    this.begin(settings.plies, settings.innerFilter);
    const probs = new Float64Array(n * OUTPUTS);
    const equities = new Float64Array(n);
    const plies = new Int8Array(n);
    for (let k = 0; k < n; k++) {
      valueAt(k, 0, probs, k * OUTPUTS);
      equities[k] = equityAt(probs, k * OUTPUTS, this.values);
    }
    if (settings.plies > 0 && n > 1) {
      let candidates = withKept(this.filtered(equities, n, settings.rootFilter, []), kept);
      const step = settings.plies > 1 ? settings.stepFilter : null;
      if (step !== null && candidates.length > 1) {
        // The cascade: every candidate at 1 ply, then the best of those at the full depth.
        for (const k of candidates) {
          valueAt(k, 1, probs, k * OUTPUTS);
          equities[k] = equityAt(probs, k * OUTPUTS, this.values);
          plies[k] = 1;
        }
        candidates = withKept(this.passing(equities, candidates, step), kept);
      }
      for (const k of candidates) {
        valueAt(k, settings.plies, probs, k * OUTPUTS);
        equities[k] = equityAt(probs, k * OUTPUTS, this.values);
        plies[k] = settings.plies;
      }
    }
    const order = Array.from({ length: n }, (_, k) => k);
    order.sort((a, b) => plies[b] - plies[a] || equities[b] - equities[a]);
    return { probs, equities, plies, order };
  }

  /** Indices of the candidates that pass a filter, best first (at least one), in `order`. */
  protected filtered(equities: Float64Array, n: number, filter: MoveFilter, order: number[]): number[] {
    order.length = 0;
    for (let k = 0; k < n; k++) order.push(k);
    return this.passing(equities, order, filter);
  }

  /** Sorts `order` (indices into `equities`) best first and cuts it to those that pass `filter` (at least one). */
  private passing(equities: Float64Array, order: number[], filter: MoveFilter): number[] {
    order.sort((a, b) => equities[b] - equities[a]);
    const best = equities[order[0]];
    let keep = 0;
    while (keep < order.length && keep < filter.keep && equities[order[keep]] >= best - filter.window) keep++;
    order.length = Math.max(1, keep);
    return order;
  }

  /**
   * Chance node: the value for the side to move of `board` (seen from him)
   * at `plies` ≥ 1 — the average over the 21 rolls of his best play. The
   * plays of each roll are ranked at 0 ply; at 2 plies and more, those that
   * pass the inner filter are searched one ply less deep. `escape` values
   * the positions after his plays where the fast path does not apply.
   */
  protected chanceValue(board: Int8Array, escape: ChanceEscape | null, plies: number, depth: number, out: Float64Array, offset: number): void {
    const level = this.levelAt(depth);
    const acc = level.acc;
    acc.fill(0);
    const childDepth = depth + 1;
    for (const roll of DISTINCT_ROLLS) {
      const n = level.playAll(board, roll);
      let best = 0;
      if (n === 1) {
        this.afterPlay(level.boards, 0, escape, plies - 1, childDepth, level.probs, 0);
      } else {
        // The replies worth the full network: all of them, or the pruning network's best few (prune.ts).
        const pruner = this.pruner;
        if (pruner) best = this.bestPlay(level, pruner.select(level.boards, this.boards.boardLength, n, level.equities), pruner.kept, escape, 0, childDepth);
        else best = this.bestPlay(level, n, null, escape, 0, childDepth);
        // Filter, then search the candidates one ply less deep.
        if (plies > 1) {
          const chosen = this.filtered(level.equities, n, this.inner, level.order).slice();
          best = this.bestPlay(level, chosen.length, chosen, escape, plies - 1, childDepth);
        }
      }
      const o = best * OUTPUTS;
      for (let i = 0; i < OUTPUTS; i++) acc[i] += roll.weight * level.probs[o + i];
    }
    for (let i = 0; i < OUTPUTS; i++) out[offset + i] = acc[i];
    clampInPlace(out, offset); // rounding of the weighted sum
  }

  /**
   * Values `count` plays of one roll at `plies` (the first `count`, or
   * `chosen[0 … count)`) into the level's probabilities and equities;
   * returns the best one.
   */
  private bestPlay(level: Level, count: number, chosen: ArrayLike<number> | null, escape: ChanceEscape | null, plies: number, depth: number): number {
    const length = this.boards.boardLength;
    let best = 0;
    let bestEquity = -Infinity;
    for (let i = 0; i < count; i++) {
      const k = chosen === null ? i : chosen[i];
      this.afterPlay(level.boards, k * length, escape, plies, depth, level.probs, k * OUTPUTS);
      const e = equityAt(level.probs, k * OUTPUTS, this.values);
      level.equities[k] = e;
      if (e > bestEquity) {
        bestEquity = e;
        best = k;
      }
    }
    return best;
  }

  /**
   * Value for the mover of the board after his play (`boards[base …]`,
   * seen from him, the opponent to roll) at `plies`.
   */
  protected afterPlay(boards: Int8Array, base: number, escape: ChanceEscape | null, plies: number, depth: number, out: Float64Array, offset: number): void {
    this.guard.tick();
    const terminal = this.boards.terminalInto;
    if (terminal !== null && boards[base] === 15) {
      // The mover has borne off his last checker: the game is over.
      terminal(boards.subarray(base, base + this.boards.boardLength), out, offset);
      return;
    }
    const level = this.levelAt(depth);
    const flipped = level.flipped;
    this.boards.flipInto(boards, base, flipped);
    if (plies === 0 || boards[base] === 15) this.leaf(flipped, out, offset);
    else if (escape !== null) escape(flipped, plies, depth, out, offset);
    else this.chanceValue(flipped, null, plies, depth, out, offset);
    flipInPlace(out, offset);
  }

  /** Value of `board` (seen from its side to move, before his roll) at `plies`. */
  protected positionValue(board: Int8Array, plies: number, depth: number, out: Float64Array, offset: number): void {
    this.guard.tick();
    if (plies === 0) this.leaf(board, out, offset);
    else this.chanceValue(board, null, plies, depth, out, offset);
  }
}
