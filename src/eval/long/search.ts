import { DISTINCT_ROLLS, Dice, DistinctRoll } from '../../engine/dice';
import { RulesError } from '../../engine/errors';
import { LongRules } from '../../engine/long/rules';
import { HeadAllowance, LongStageSolver, MovementRules, movementOf } from '../../engine/long/stage';
import { LongState, LongTurn, LongTurns, NextInfo, legalLongTurns } from '../../engine/long/turn';
import { Result, ok } from '../../engine/result';
import { Side, otherSide } from '../../engine/side';
import { Step } from '../../engine/step';
import { OutcomeValues, equityAt, longOutcomeValues } from '../equity';
import { Evaluator } from '../evaluator';
import { Probabilities, clampInPlace, flipInPlace, probabilitiesAt } from '../probabilities';
import { BoardSearch, ChanceEscape, OUTPUTS, PlayGenerator, SearchBoards } from '../search';
import { MoveFilter, POSITION_INNER_FILTER, SearchSettings } from '../search-options';
import { TranspositionTable } from '../transpositions';

const BOARD = 26;

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

/** The long-family stage solver as the search's `PlayGenerator`, for one-stage-per-turn rules. */
class LongPlays implements PlayGenerator {
  private readonly solver = new LongStageSolver();

  constructor(
    private readonly head: HeadAllowance,
    private readonly movement: MovementRules,
  ) {}

  solve(board: Int8Array, roll: DistinctRoll): number {
    return this.solver.solve(board, roll.units, this.head, this.movement);
  }

  playBoardInto(k: number, out: Int8Array, at: number): void {
    this.solver.playBoardInto(k, out, at);
  }
}

function flipLongInto(board: Int8Array, base: number, out: Int8Array): void {
  for (let p = 1; p <= 24; p++) out[p <= 12 ? p + 12 : p - 12] = -board[base + p];
  out[0] = board[base + 25];
  out[25] = board[base];
}

/** Long-family boards (board.ts: 26 slots, no bar); a finished game is valued by the evaluator. */
function longBoards(rules: Readonly<LongRules>): SearchBoards {
  const head: HeadAllowance = rules.headLimitPerTurn === 1 ? 1 : rules.headLimitPerTurn;
  const movement = movementOf(rules);
  return { boardLength: BOARD, generator: () => new LongPlays(head, movement), flipInto: flipLongInto, terminalInto: null };
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
export class LongSearch extends BoardSearch {
  private readonly fast: boolean;
  /** The solver of the general path (`legalLongTurns`): every call is done with it before the next. */
  private readonly solver = new LongStageSolver();
  /** LN-HEAD-2: the opponent's first turn goes through the turn model. */
  private readonly firstTurn: ChanceEscape = (board, plies, depth, out, offset) => {
    const state: LongState = {
      position: { turn: 'black', board: board.slice(), firstTurn: { white: false, black: true } },
      pending: [],
    };
    this.rollsValue(state, plies, depth, out, offset);
  };

  constructor(
    readonly rules: Readonly<LongRules>,
    evaluator: Evaluator,
    values: OutcomeValues = longOutcomeValues(rules),
    table?: TranspositionTable,
  ) {
    if (evaluator.family !== 'long') throw new RangeError('LongSearch needs a long-family evaluator');
    super(longBoards(rules), evaluator, values, table);
    this.fast = rules.doubles === 'standard';
  }

  private legal(state: LongState, dice: Dice | undefined): Result<LongTurns, RulesError> {
    return legalLongTurns(this.rules, state, dice, {}, this.solver);
  }

  /** Probabilities of the side to move of `state` at `plies` (see the class comment). */
  evaluateState(state: LongState, plies: number, inner: MoveFilter = POSITION_INNER_FILTER): Probabilities {
    const out = new Float64Array(OUTPUTS);
    this.begin(plies, inner);
    this.stateValue(state, plies, 0, out, 0);
    return probabilitiesAt(out, 0);
  }

  /**
   * Every legal play of the current stage of `state` (with `dice` when the
   * stage is a roll), ranked by equity for the player to move at
   * `settings.plies`, with the root filter; the play `keep` accepts (if any)
   * is searched at `settings.plies` whatever the filters say.
   */
  rankTurns(
    state: LongState,
    dice: Dice | undefined,
    settings: SearchSettings,
    keep?: (steps: readonly Step[]) => boolean,
  ): Result<RankedLongTurn[], RulesError> {
    const answer = this.legal(state, dice);
    if (!answer.ok) return answer;
    const turns = answer.value.turns;
    const mover = state.position.turn;
    const { probs, equities, plies, order } = this.rankCandidates(
      turns.length,
      settings,
      (k, p, out, offset) => this.childValue(turns[k], mover, p, 1, out, offset),
      keep ? turns.findIndex((t) => keep(t.steps)) : -1,
    );
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

  /** Value of a turn's resulting state for `mover`, at `plies`. */
  private childValue(turn: LongTurn, mover: Side, plies: number, depth: number, out: Float64Array, offset: number): void {
    this.stateValue(turn.state, plies, depth, out, offset);
    if (turn.state.position.turn !== mover) flipInPlace(out, offset);
  }

  /** Value of a state for its side to move. */
  private stateValue(state: LongState, plies: number, depth: number, out: Float64Array, offset: number): void {
    this.guard.tick();
    const board = state.position.board;
    if (board[0] === 15 || board[25] === 15) {
      this.evaluations++;
      this.evaluator.evaluateInto(board, out, offset); // terminal results come from the evaluator
      return;
    }
    const first = state.pending[0];
    if (first && first.units) {
      this.resolvePending(state, plies, depth, out, offset);
      return;
    }
    if (plies === 0) {
      this.leaf(board, out, offset);
      return;
    }
    const mover = state.position.turn;
    const opponent = otherSide(mover);
    if (this.fast && state.pending.length === 0 && !state.position.firstTurn[mover]) {
      const escape = state.position.firstTurn[opponent] ? this.firstTurn : null;
      this.chanceValue(board, escape, plies, depth, out, offset);
      return;
    }
    this.rollsValue(state, plies, depth, out, offset);
  }

  /** Generic chance node: the average over the 21 rolls of the best play (via `legalLongTurns`). */
  private rollsValue(state: LongState, plies: number, depth: number, out: Float64Array, offset: number): void {
    const mover = state.position.turn;
    const acc = new Float64Array(OUTPUTS);
    for (const roll of DISTINCT_ROLLS) {
      this.guard.tick();
      const answer = this.legal(state, roll.dice);
      if (!answer.ok) throw new Error(`search: ${answer.error.code} ${answer.error.message}`);
      const turns = answer.value.turns;
      const child = this.bestChild(turns, mover, plies - 1, depth + 1);
      for (let i = 0; i < OUTPUTS; i++) acc[i] += roll.weight * child[i];
    }
    for (let i = 0; i < OUTPUTS; i++) out[offset + i] = acc[i];
    clampInPlace(out, offset); // rounding of the weighted sum
  }

  /** The probabilities (for `mover`) of his best play among `turns` at `plies`, with the inner filter. */
  private bestChild(turns: readonly LongTurn[], mover: Side, plies: number, depth: number): Float64Array {
    const n = turns.length;
    const probs = new Float64Array(n * OUTPUTS);
    const eq = new Float64Array(n);
    let best = 0;
    for (let k = 0; k < n; k++) {
      this.childValue(turns[k], mover, n === 1 ? plies : 0, depth, probs, k * OUTPUTS);
      eq[k] = equityAt(probs, k * OUTPUTS, this.values);
      if (eq[k] > eq[best]) best = k;
    }
    if (plies > 0 && n > 1) {
      let bestDeep = -Infinity;
      for (const k of this.filtered(eq, n, this.inner, [])) {
        this.childValue(turns[k], mover, plies, depth, probs, k * OUTPUTS);
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
  private resolvePending(state: LongState, plies: number, depth: number, out: Float64Array, offset: number): void {
    const answer = this.legal(state, undefined);
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
    this.childValue(turns[best], mover, plies, depth + 1, out, offset);
  }
}
