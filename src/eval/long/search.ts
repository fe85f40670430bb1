import { Dice, unitsOfRoll } from '../../engine/dice';
import { RulesError } from '../../engine/errors';
import { LongRules } from '../../engine/long/rules';
import { HeadAllowance, LongStageSolver, MovementRules, movementOf } from '../../engine/long/stage';
import { LongState, LongTurn, NextInfo, legalLongTurns } from '../../engine/long/turn';
import { Result, ok } from '../../engine/result';
import { Side, otherSide } from '../../engine/side';
import { Step } from '../../engine/step';
import { OutcomeValues, equityAt, longOutcomeValues } from '../equity';
import { Evaluator } from '../evaluator';
import { Probabilities, clampInPlace, flipInPlace, probabilitiesAt } from '../probabilities';
import { ReplyPruner, replyPrunerOf } from '../prune';
import { BudgetGuard, MoveFilter, SearchSettings } from '../search-options';
import { SHORT_ROLLS } from '../short/features';
import { TranspositionCache, TranspositionTable } from '../transpositions';

/** Numbers per position (probabilities.ts `OUTPUTS`), module-local for the hot loops. */
const OUTPUTS = 5;
const BOARD = 26;
const LEVELS = 8;

/** The 21 rolls with their die-units (COM-7) and probabilities. */
const ROLLS: readonly { dice: Dice; units: readonly number[]; weight: number }[] = SHORT_ROLLS.map(([a, b]) => ({
  dice: [a, b] as Dice,
  units: unitsOfRoll([a, b]),
  weight: a === b ? 1 / 36 : 2 / 36,
}));

/** One legal play of the current stage with its evaluation, best first. */
export interface RankedLongTurn {
  readonly steps: readonly Step[];
  readonly unitsUsed: number;
  /** The board after the play, seen from the player who played. */
  readonly board: Int8Array;
  /** The state after the play (possibly the same player to continue, TM-1). */
  readonly state: LongState;
  readonly next: NextInfo;
  /** Outcome probabilities **for the player who played**. */
  readonly probabilities: Probabilities;
  /** Cubeless equity for the player who played, with the rules' outcome values. */
  readonly equity: number;
  readonly equityDiff: number;
  /** Depth the play was searched at (0 for plays the root filter left out). */
  readonly plies: number;
}

/** Per-depth scratch of the fast path. */
class Level {
  readonly solver = new LongStageSolver();
  boards = new Int8Array(64 * BOARD);
  probs = new Float64Array(64 * OUTPUTS);
  equities = new Float64Array(64);
  order: number[] = [];
  readonly flipped = new Int8Array(BOARD);
  readonly acc = new Float64Array(OUTPUTS);

  ensure(n: number): void {
    if (this.equities.length >= n) return;
    let c = this.equities.length;
    while (c < n) c *= 2;
    this.boards = new Int8Array(c * BOARD);
    this.probs = new Float64Array(c * OUTPUTS);
    this.equities = new Float64Array(c);
  }
}

function flipLongInto(board: Int8Array, base: number, out: Int8Array): void {
  for (let p = 1; p <= 24; p++) out[p <= 12 ? p + 12 : p - 12] = -board[base + p];
  out[0] = board[base + 25];
  out[25] = board[base];
}

/**
 * n-ply expectimax for the long family on top of a long evaluator,
 * respecting the turn model of SPEC §3.9:
 *
 * - A **ply** is one roll of the dice and the play of the stage it starts
 *   (a turn's roll or a re-roll, TM-5): its value is the average over the
 *   21 rolls of the best play's value one ply less deep.
 * - Stages whose units are known — the rest of a cascade (TM-2) and a debt
 *   the opponent must pay before rolling (TM-4) — are decisions without
 *   chance. They do not use up a ply: each is resolved greedily, taking the
 *   play whose board the static evaluator likes best as if the turn ended
 *   there, and the value is that of the state it leads to. At the root,
 *   every play of such a stage is ranked by its full value.
 * - Classic-like rules (one stage per turn: `doubles = standard`) take an
 *   allocation-free path straight on the stage solver; the other presets,
 *   and a player's first turn (LN-HEAD-2), go through `legalLongTurns`.
 *
 * The evaluation ignores the last-roll option (LN-SCORE-6).
 */
export class LongSearch {
  private readonly levels: Level[] = [];
  private readonly movement: MovementRules;
  private readonly head: HeadAllowance;
  private readonly fast: boolean;
  /** Static evaluations made (for benchmarks; transposition-cache hits not counted). */
  evaluations = 0;
  /** The wall-clock budget of the search in progress, if any (`SearchBudget`). */
  readonly guard = new BudgetGuard();
  /** Leaf evaluations of the search in progress (a cache at 2 plies and deeper). */
  readonly transpositions: TranspositionCache;
  /** Orders each roll's replies with the evaluator's pruning network (prune.ts; the one-stage path); null: every reply gets the full network. */
  pruner: ReplyPruner | null;

  constructor(
    readonly rules: Readonly<LongRules>,
    readonly evaluator: Evaluator,
    readonly values: OutcomeValues = longOutcomeValues(rules),
    table?: TranspositionTable,
  ) {
    if (evaluator.family !== 'long') throw new RangeError('LongSearch needs a long-family evaluator');
    for (let i = 0; i < LEVELS; i++) this.levels.push(new Level());
    this.movement = movementOf(rules);
    this.head = rules.headLimitPerTurn === 1 ? 1 : rules.headLimitPerTurn;
    this.fast = rules.doubles === 'standard';
    this.transpositions = new TranspositionCache(evaluator, BOARD, table);
    this.pruner = replyPrunerOf(evaluator, values);
  }

  /** A static evaluation, through the transposition cache when the search uses one. */
  private leaf(board: Int8Array, out: Float64Array, offset: number): void {
    this.evaluations += this.transpositions.evaluateInto(board, out, offset);
  }

  /** Probabilities of the side to move of `state` at `plies` (see the class comment). */
  evaluateState(state: LongState, plies: number, inner: MoveFilter = { keep: 2, window: 0.04 }): Probabilities {
    const out = new Float64Array(OUTPUTS);
    this.transpositions.begin(plies);
    this.stateValue(state, plies, 0, inner, out, 0);
    return probabilitiesAt(out, 0);
  }

  /**
   * Every legal play of the current stage of `state` (with `dice` when the
   * stage is a roll), ranked by equity for the player to move at
   * `settings.plies`, with the root filter.
   */
  rankTurns(state: LongState, dice: Dice | undefined, settings: SearchSettings): Result<RankedLongTurn[], RulesError> {
    const answer = legalLongTurns(this.rules, state, dice);
    if (!answer.ok) return answer;
    this.transpositions.begin(settings.plies);
    const turns = answer.value.turns;
    const mover = state.position.turn;
    const n = turns.length;
    const probs = new Float64Array(n * OUTPUTS);
    const equities = new Float64Array(n);
    const plies = new Int8Array(n);
    for (let k = 0; k < n; k++) {
      this.childValue(turns[k], mover, 0, 1, settings.innerFilter, probs, k * OUTPUTS);
      equities[k] = equityAt(probs, k * OUTPUTS, this.values);
    }
    if (settings.plies > 0 && n > 1) {
      const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => equities[b] - equities[a]);
      const best = equities[order[0]];
      const filter = settings.rootFilter;
      for (let i = 0; i < order.length && i < filter.keep; i++) {
        const k = order[i];
        if (i > 0 && equities[k] < best - filter.window) break;
        this.childValue(turns[k], mover, settings.plies, 1, settings.innerFilter, probs, k * OUTPUTS);
        equities[k] = equityAt(probs, k * OUTPUTS, this.values);
        plies[k] = settings.plies;
      }
    }
    const order = Array.from({ length: n }, (_, k) => k);
    order.sort((a, b) => plies[b] - plies[a] || equities[b] - equities[a]);
    const bestEquity = equities[order[0]];
    return ok(
      order.map((k) => ({
        steps: turns[k].steps,
        unitsUsed: turns[k].unitsUsed,
        board: turns[k].board,
        state: turns[k].state,
        next: turns[k].next,
        probabilities: probabilitiesAt(probs, k * OUTPUTS),
        equity: equities[k],
        equityDiff: equities[k] - bestEquity,
        plies: plies[k],
      })),
    );
  }

  /**
   * The scratch of a search depth. Depth grows by one per ply and per
   * stage with known units; a chain of cascade stages (CR-1: up to five,
   * 1-1 to 6-6) or debts can go past the preallocated levels, so more are
   * made on demand (once, then kept).
   */
  private levelAt(depth: number): Level {
    while (this.levels.length <= depth) this.levels.push(new Level());
    return this.levels[depth];
  }

  /** Value of a turn's resulting state for `mover`, at `plies`. */
  private childValue(turn: LongTurn, mover: Side, plies: number, depth: number, inner: MoveFilter, out: Float64Array, offset: number): void {
    this.stateValue(turn.state, plies, depth, inner, out, offset);
    if (turn.state.position.turn !== mover) flipInPlace(out, offset);
  }

  /** Value of a state for its side to move. */
  private stateValue(state: LongState, plies: number, depth: number, inner: MoveFilter, out: Float64Array, offset: number): void {
    this.guard.tick();
    const board = state.position.board;
    if (board[0] === 15 || board[25] === 15) {
      this.evaluations++;
      this.evaluator.evaluateInto(board, out, offset); // terminal results come from the evaluator
      return;
    }
    const first = state.pending[0];
    if (first && first.units) {
      this.resolvePending(state, plies, depth, inner, out, offset);
      return;
    }
    if (plies === 0) {
      this.leaf(board, out, offset);
      return;
    }
    const mover = state.position.turn;
    const opponent = otherSide(mover);
    if (this.fast && state.pending.length === 0 && !state.position.firstTurn[mover]) {
      this.boardValue(board, state.position.firstTurn[opponent], plies, depth, inner, out, offset);
      return;
    }
    this.rollsValue(state, plies, depth, inner, out, offset);
  }

  /** Generic chance node: the average over the 21 rolls of the best play (via `legalLongTurns`). */
  private rollsValue(state: LongState, plies: number, depth: number, inner: MoveFilter, out: Float64Array, offset: number): void {
    const mover = state.position.turn;
    const acc = new Float64Array(OUTPUTS);
    for (const roll of ROLLS) {
      this.guard.tick();
      const answer = legalLongTurns(this.rules, state, roll.dice);
      if (!answer.ok) throw new Error(`search: ${answer.error.code} ${answer.error.message}`);
      const turns = answer.value.turns;
      const child = this.bestChild(turns, mover, plies - 1, depth + 1, inner);
      for (let i = 0; i < OUTPUTS; i++) acc[i] += roll.weight * child[i];
    }
    for (let i = 0; i < OUTPUTS; i++) out[offset + i] = acc[i];
    clampInPlace(out, offset); // rounding of the weighted sum
  }

  /** The probabilities (for `mover`) of his best play among `turns` at `plies`, with the inner filter. */
  private bestChild(turns: readonly LongTurn[], mover: Side, plies: number, depth: number, inner: MoveFilter): Float64Array {
    const n = turns.length;
    const probs = new Float64Array(n * OUTPUTS);
    const eq = new Float64Array(n);
    let best = 0;
    for (let k = 0; k < n; k++) {
      this.childValue(turns[k], mover, n === 1 ? plies : 0, depth, inner, probs, k * OUTPUTS);
      eq[k] = equityAt(probs, k * OUTPUTS, this.values);
      if (eq[k] > eq[best]) best = k;
    }
    if (plies > 0 && n > 1) {
      const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => eq[b] - eq[a]);
      const top = eq[order[0]];
      let bestDeep = -Infinity;
      for (let i = 0; i < order.length && i < inner.keep; i++) {
        const k = order[i];
        if (i > 0 && eq[k] < top - inner.window) break;
        this.childValue(turns[k], mover, plies, depth, inner, probs, k * OUTPUTS);
        const e = equityAt(probs, k * OUTPUTS, this.values);
        if (e > bestDeep) {
          bestDeep = e;
          best = k;
        }
      }
    }
    return probs.subarray(best * OUTPUTS, (best + 1) * OUTPUTS);
  }

  /**
   * A stage with known units (cascade TM-2, debt TM-4): resolved greedily —
   * the play whose board is best for the player as if his turn ended there —
   * then the value of the state it leads to, at the same plies.
   */
  private resolvePending(state: LongState, plies: number, depth: number, inner: MoveFilter, out: Float64Array, offset: number): void {
    const answer = legalLongTurns(this.rules, state, undefined);
    if (!answer.ok) throw new Error(`search: ${answer.error.code} ${answer.error.message}`);
    const turns = answer.value.turns;
    const mover = state.position.turn;
    let best = 0;
    if (turns.length > 1) {
      const level = this.levelAt(depth);
      const tmp = level.acc;
      let bestEquity = -Infinity;
      for (let k = 0; k < turns.length; k++) {
        this.guard.tick();
        const b = turns[k].board;
        if (b[0] === 15) {
          best = k;
          break;
        }
        flipLongInto(b, 0, level.flipped);
        this.leaf(level.flipped, tmp, 0);
        flipInPlace(tmp, 0);
        const e = equityAt(tmp, 0, this.values);
        if (e > bestEquity) {
          bestEquity = e;
          best = k;
        }
      }
    }
    this.childValue(turns[best], mover, plies, depth + 1, inner, out, offset);
  }

  /**
   * Fast chance node for one-stage-per-turn rules: `board` seen from the
   * side to move, who is past his first turn; `opponentFirst` = the
   * opponent's first-turn flag (LN-HEAD-2 applies to him on his next turn).
   */
  private boardValue(
    board: Int8Array,
    opponentFirst: boolean,
    plies: number,
    depth: number,
    inner: MoveFilter,
    out: Float64Array,
    offset: number,
  ): void {
    const level = this.levelAt(depth);
    const acc = level.acc;
    acc.fill(0);
    const childDepth = depth + 1;
    for (const roll of ROLLS) {
      const n = level.solver.solve(board, roll.units, this.head, this.movement);
      level.ensure(n);
      for (let k = 0; k < n; k++) level.solver.playBoardInto(k, level.boards.subarray(k * BOARD, (k + 1) * BOARD));
      let best = 0;
      if (n === 1) {
        this.afterPlay(level.boards, 0, opponentFirst, plies - 1, childDepth, inner, level.probs, 0);
      } else {
        let bestEquity = -Infinity;
        // The replies worth the full network: all of them, or the pruning network's best few.
        const pruner = this.pruner;
        const m = pruner ? pruner.select(level.boards, BOARD, n, level.equities) : n;
        for (let i = 0; i < m; i++) {
          const k = pruner ? pruner.kept[i] : i;
          this.afterPlay(level.boards, k * BOARD, opponentFirst, 0, childDepth, inner, level.probs, k * OUTPUTS);
          const e = equityAt(level.probs, k * OUTPUTS, this.values);
          level.equities[k] = e;
          if (e > bestEquity) {
            bestEquity = e;
            best = k;
          }
        }
        if (plies > 1) {
          const order = level.order;
          order.length = 0;
          for (let k = 0; k < n; k++) order.push(k);
          const eq = level.equities;
          order.sort((a, b) => eq[b] - eq[a]);
          const top = eq[order[0]];
          let count = 0;
          while (count < order.length && count < inner.keep && (count === 0 || eq[order[count]] >= top - inner.window)) count++;
          const chosen = order.slice(0, count);
          bestEquity = -Infinity;
          for (const k of chosen) {
            this.afterPlay(level.boards, k * BOARD, opponentFirst, plies - 1, childDepth, inner, level.probs, k * OUTPUTS);
            const e = equityAt(level.probs, k * OUTPUTS, this.values);
            if (e > bestEquity) {
              bestEquity = e;
              best = k;
            }
          }
        }
      }
      const o = best * OUTPUTS;
      for (let i = 0; i < OUTPUTS; i++) acc[i] += roll.weight * level.probs[o + i];
    }
    for (let i = 0; i < OUTPUTS; i++) out[offset + i] = acc[i];
    clampInPlace(out, offset); // rounding of the weighted sum
  }

  /** Value for the mover of the board after his play (`boards[base …]`, seen from him). */
  private afterPlay(
    boards: Int8Array,
    base: number,
    opponentFirst: boolean,
    plies: number,
    depth: number,
    inner: MoveFilter,
    out: Float64Array,
    offset: number,
  ): void {
    this.guard.tick();
    const level = this.levelAt(depth);
    flipLongInto(boards, base, level.flipped);
    const flipped = level.flipped;
    if (plies === 0 || flipped[25] === 15) {
      this.leaf(flipped, out, offset);
    } else if (opponentFirst) {
      // LN-HEAD-2: the opponent's first turn goes through the turn model.
      const state: LongState = {
        position: { turn: 'black', board: flipped.slice(), firstTurn: { white: false, black: true } },
        pending: [],
      };
      this.rollsValue(state, plies, depth, inner, out, offset);
    } else {
      this.boardValue(flipped, false, plies, depth, inner, out, offset);
    }
    flipInPlace(out, offset);
  }
}
