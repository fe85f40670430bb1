import { ShortStageSolver } from '../../engine/short/stage';
import { Step } from '../../engine/step';
import { OutcomeValues, STANDARD_VALUES, equityAt } from '../equity';
import { Evaluator } from '../evaluator';
import { Probabilities, clampInPlace, flipInPlace, probabilitiesAt } from '../probabilities';
import { ReplyPruner, replyPrunerOf } from '../prune';
import { BudgetGuard, MoveFilter, SearchSettings } from '../search-options';
import { SHORT_ROLLS } from './features';
import { shortTerminalInto } from './terminal';
import { TranspositionCache, TranspositionTable } from '../transpositions';

/** Numbers per position (probabilities.ts `OUTPUTS`), module-local for the hot loops. */
const OUTPUTS = 5;
const BOARD = 28;
/** Levels of scratch: every ply uses two (one for the flip after a turn, one for the rolls). */
const LEVELS = 8;

/** One legal turn of a roll with its evaluation, best first. */
export interface RankedShortTurn {
  /** Canonical steps, mover's own numbering (25 = bar, 0 = off). */
  readonly steps: readonly Step[];
  readonly hits: readonly boolean[];
  /** The resulting board seen from the mover. */
  readonly board: Int8Array;
  /** Outcome probabilities **for the mover** after this turn (the opponent to roll). */
  readonly probabilities: Probabilities;
  /** Cubeless equity for the mover. */
  readonly equity: number;
  /** Equity minus the best turn's equity (0 for the best, negative otherwise). */
  readonly equityDiff: number;
  /** The depth this turn was searched at (filtered-out turns keep 0). */
  readonly plies: number;
}

/** Per-depth scratch: a move generator and buffers for the plays of one roll. */
class Level {
  readonly solver = new ShortStageSolver();
  boards = new Int8Array(64 * BOARD);
  probs = new Float64Array(64 * OUTPUTS);
  equities = new Float64Array(64);
  order: number[] = [];
  readonly flipped = new Int8Array(BOARD);
  readonly acc = new Float64Array(OUTPUTS);
  readonly child = new Float64Array(OUTPUTS);

  ensure(n: number): void {
    if (this.equities.length >= n) return;
    let c = this.equities.length;
    while (c < n) c *= 2;
    this.boards = new Int8Array(c * BOARD);
    this.probs = new Float64Array(c * OUTPUTS);
    this.equities = new Float64Array(c);
  }
}

function flipBoardInto(board: Int8Array, base: number, out: Int8Array): void {
  for (let p = 1; p <= 24; p++) out[25 - p] = -board[base + p];
  out[0] = board[base + 27];
  out[27] = board[base];
  out[25] = board[base + 26];
  out[26] = board[base + 25];
}

/**
 * n-ply expectimax for backgammon on top of any short-family evaluator,
 * with gnubg-like move filtering (search-options.ts). A position's n-ply
 * value is the average over the 21 rolls of the best turn's (n−1)-ply value
 * of the result; the best turn is chosen by cubeless equity with `values`.
 * Allocation-free inside the tree; reusable, not re-entrant.
 */
export class ShortSearch {
  private readonly levels: Level[] = [];
  /** Static evaluations made (for benchmarks; transposition-cache hits not counted). */
  evaluations = 0;
  /** The wall-clock budget of the search in progress, if any (`SearchBudget`). */
  readonly guard = new BudgetGuard();
  /** Leaf evaluations of the search in progress (a cache at 2 plies and deeper). */
  readonly transpositions: TranspositionCache;
  /** Orders each roll's replies with the evaluator's pruning network (prune.ts); null: every reply gets the full network. */
  pruner: ReplyPruner | null;

  constructor(
    readonly evaluator: Evaluator,
    readonly values: OutcomeValues = STANDARD_VALUES,
    table?: TranspositionTable,
  ) {
    if (evaluator.family !== 'short') throw new RangeError('ShortSearch needs a short-family evaluator');
    for (let i = 0; i < LEVELS; i++) this.levels.push(new Level());
    this.transpositions = new TranspositionCache(evaluator, BOARD, table);
    this.pruner = replyPrunerOf(evaluator, values);
  }

  /**
   * Probabilities of the side to move in `board` (before rolling) at
   * `plies`, written into `out[offset …]`.
   */
  evaluatePosition(board: Int8Array, plies: number, out: Float64Array, offset = 0, inner: MoveFilter = { keep: 2, window: 0.04 }): void {
    this.transpositions.begin(plies);
    this.position(board, plies, 1, inner, out, offset);
  }

  /** The same, as fresh probabilities. */
  evaluate(board: Int8Array, plies: number, inner?: MoveFilter): Probabilities {
    const out = new Float64Array(OUTPUTS);
    this.evaluatePosition(board, plies, out, 0, inner);
    return probabilitiesAt(out, 0);
  }

  /**
   * Every legal turn of `dice` in `board` (seen from the side to move),
   * ranked by equity at `settings.plies` with the root filter; the others
   * keep their 0-ply values and rank below the searched ones when worse.
   */
  rankTurns(board: Int8Array, dice: readonly [number, number], settings: SearchSettings): RankedShortTurn[] {
    this.transpositions.begin(settings.plies);
    const level = this.levels[0];
    const n = level.solver.solve(board, dice[0], dice[1]);
    level.ensure(n);
    const plies = new Int8Array(n);
    for (let k = 0; k < n; k++) {
      level.solver.playBoardInto(k, level.boards.subarray(k * BOARD, (k + 1) * BOARD));
      this.afterTurn(level.boards, k * BOARD, 1, 0, settings.innerFilter, level.probs, k * OUTPUTS);
      level.equities[k] = equityAt(level.probs, k * OUTPUTS, this.values);
    }
    if (settings.plies > 0 && n > 1) {
      const chosen = this.filtered(level, n, settings.rootFilter);
      for (const k of chosen) {
        this.afterTurn(level.boards, k * BOARD, 1, settings.plies, settings.innerFilter, level.probs, k * OUTPUTS);
        level.equities[k] = equityAt(level.probs, k * OUTPUTS, this.values);
        plies[k] = settings.plies;
      }
    }
    const order = Array.from({ length: n }, (_, k) => k);
    // Searched turns first when deeper search was asked for (their values are comparable), then by equity.
    order.sort((a, b) => plies[b] - plies[a] || level.equities[b] - level.equities[a]);
    const best = level.equities[order[0]];
    return order.map((k) => {
      const count = level.solver.playStepCount(k);
      const steps: Step[] = [];
      const hits: boolean[] = [];
      for (let s = 0; s < count; s++) {
        steps.push({ from: level.solver.playFrom(k, s), to: level.solver.playTo(k, s) });
        hits.push(level.solver.playHit(k, s));
      }
      return {
        steps,
        hits,
        board: level.boards.slice(k * BOARD, (k + 1) * BOARD),
        probabilities: probabilitiesAt(level.probs, k * OUTPUTS),
        equity: level.equities[k],
        equityDiff: level.equities[k] - best,
        plies: plies[k],
      };
    });
  }

  /** A static evaluation, through the transposition cache when the search uses one. */
  private leaf(board: Int8Array, out: Float64Array, offset: number): void {
    this.evaluations += this.transpositions.evaluateInto(board, out, offset);
  }

  /** Indices of the candidates that pass a filter, best first. */
  private filtered(level: Level, n: number, filter: MoveFilter): number[] {
    const order = level.order;
    order.length = 0;
    for (let k = 0; k < n; k++) order.push(k);
    const eq = level.equities;
    order.sort((a, b) => eq[b] - eq[a]);
    const best = eq[order[0]];
    let keep = 0;
    while (keep < order.length && keep < filter.keep && eq[order[keep]] >= best - filter.window) keep++;
    order.length = Math.max(1, keep);
    return order;
  }

  /**
   * Value for the mover of the board after his turn (`boards[base …]`,
   * seen from the mover, the opponent to roll) at `plies`.
   */
  private afterTurn(
    boards: Int8Array,
    base: number,
    depth: number,
    plies: number,
    inner: MoveFilter,
    out: Float64Array,
    offset: number,
  ): void {
    if (boards[base] === 15) {
      // The mover has borne off his last checker: the game is over.
      shortTerminalInto(boards.subarray(base, base + BOARD), out, offset);
      return;
    }
    const level = this.levels[depth];
    flipBoardInto(boards, base, level.flipped);
    this.position(level.flipped, plies, depth + 1, inner, out, offset);
    flipInPlace(out, offset);
  }

  /** Value for the side to move of `board` at `plies`; deeper nodes use level `next`. */
  private position(
    board: Int8Array,
    plies: number,
    next: number,
    inner: MoveFilter,
    out: Float64Array,
    offset: number,
  ): void {
    this.guard.tick();
    if (plies === 0) {
      this.leaf(board, out, offset);
      return;
    }
    const level = this.levels[next];
    const acc = level.acc;
    acc.fill(0);
    for (let r = 0; r < SHORT_ROLLS.length; r++) {
      const [a, b] = SHORT_ROLLS[r];
      const weight = a === b ? 1 / 36 : 2 / 36;
      const n = level.solver.solve(board, a, b);
      level.ensure(n);
      let best = 0;
      if (n > 1) {
        let bestEquity = -Infinity;
        for (let k = 0; k < n; k++) level.solver.playBoardInto(k, level.boards.subarray(k * BOARD, (k + 1) * BOARD));
        // The replies worth the full network: all of them, or the pruning network's best few.
        const pruner = this.pruner;
        const m = pruner ? pruner.select(level.boards, BOARD, n, level.equities) : n;
        for (let i = 0; i < m; i++) {
          const k = pruner ? pruner.kept[i] : i;
          this.afterTurn(level.boards, k * BOARD, next + 1, 0, inner, level.probs, k * OUTPUTS);
          const e = equityAt(level.probs, k * OUTPUTS, this.values);
          level.equities[k] = e;
          if (e > bestEquity) {
            bestEquity = e;
            best = k;
          }
        }
        if (plies > 1) {
          // Filter, then search the candidates one ply less deep.
          const chosen = this.filtered(level, n, inner).slice();
          bestEquity = -Infinity;
          for (const k of chosen) {
            this.afterTurn(level.boards, k * BOARD, next + 1, plies - 1, inner, level.probs, k * OUTPUTS);
            const e = equityAt(level.probs, k * OUTPUTS, this.values);
            if (e > bestEquity) {
              bestEquity = e;
              best = k;
            }
          }
        }
      } else {
        level.solver.playBoardInto(0, level.boards.subarray(0, BOARD));
        this.afterTurn(level.boards, 0, next + 1, plies - 1, inner, level.probs, 0);
      }
      const o = best * OUTPUTS;
      for (let i = 0; i < OUTPUTS; i++) acc[i] += weight * level.probs[o + i];
    }
    for (let i = 0; i < OUTPUTS; i++) out[offset + i] = acc[i];
    clampInPlace(out, offset); // rounding of the weighted sum
  }
}
