import { Dice, unitsOfRoll } from '../dice';
import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { PerSide, Side, otherSide } from '../side';
import { Step } from '../step';
import { BOARD_LENGTH, CHECKERS, HEAD, LongBoard, MOVER_OFF, OPPONENT_OFF, flipBoard, moverOutsideHome } from './board';
import { LongPosition } from './position';
import { LongRules } from './rules';
import { HeadAllowance, LongStageSolver, MovementRules, movementOf } from './stage';
import { PendingStage, StageOrigin } from './stages';

/**
 * Everything a long-family query needs besides the rules: the position, the
 * stages still owed in this turn (TM-1, TM-7), and — only for
 * `cascadeFromTurn` (§3.10) — how many rolls each player has played.
 */
export interface LongState {
  readonly position: LongPosition;
  readonly pending: readonly PendingStage[];
  readonly rollsPlayed?: Readonly<PerSide<number>>;
}

/** The stage being played now, with its units and head allowance resolved. */
export interface ActiveStage {
  readonly actor: Side;
  readonly origin: StageOrigin;
  readonly units: readonly number[];
  readonly headAllowance: HeadAllowance;
  /** Whether LN-HEAD-2 raised the allowance for this stage. */
  readonly firstTurnException: boolean;
  /** CG-4: this is the extra stage after which the cascade ends. */
  readonly last: boolean;
  /** The rest of the queue after this stage. */
  readonly rest: readonly PendingStage[];
}

/** What follows a play (TM-2…TM-5), from the point of view of a client. */
export type NextKind = 'turn' | 'cascade' | 'reroll' | 'debt' | 'roll' | 'gameOver';

export interface NextInfo {
  /** turn: the opponent rolls; cascade: the same player plays `units`; reroll: he rolls again;
   * debt: `actor` must play the listed stages before rolling; roll: a debt is paid and its
   * payer now rolls his own turn; gameOver: `winner` has borne off all 15 (no winner: a
   * draw after a last roll, LN-SCORE-6). */
  readonly kind: NextKind;
  readonly actor: Side | null;
  readonly units?: readonly number[];
  readonly stages?: readonly (readonly number[])[];
  readonly winner?: Side;
}

export interface LongTurn {
  readonly steps: readonly Step[];
  readonly unitsUsed: number;
  /** The resulting board seen from the player who played (see board.ts). */
  readonly board: LongBoard;
  readonly state: LongState;
  readonly next: NextInfo;
}

export interface LongTurns {
  readonly stage: ActiveStage;
  readonly unitsUsed: number;
  readonly turns: readonly LongTurn[];
}

function isDoubleUnits(units: readonly number[]): boolean {
  return units.length === 4 && units[0] === units[1];
}

/** Effective head limit of the preset for a normal stage (LN-HEAD-1, KH-2, FV-2). */
function presetHead(rules: LongRules): HeadAllowance {
  return rules.headLimitPerTurn === 1 ? 1 : rules.headLimitPerTurn;
}

/**
 * LN-HEAD-2: the head allowance of a rolled double on the player's first
 * turn. `conditional` raises it to 2 only when no play taking a single
 * checker off the head uses all four units.
 */
function firstTurnAllowance(
  rules: LongRules,
  board: LongBoard,
  units: readonly number[],
  movement: MovementRules,
  solver: LongStageSolver,
): number {
  const value = units[0];
  switch (rules.firstTurnHeadException) {
    case 'none':
      return 1;
    case 'anyDouble':
      return 2;
    case 'fixedDoubles':
      return value === 6 || value === 4 || value === 3 ? 2 : 1;
    case 'conditional':
      solver.solve(board, units, 1, movement);
      return solver.maxUnits < 4 ? 2 : 1;
  }
}

/** Is the effective doubles rule of a rolled double a cascade (CR-1, §3.10 `cascadeFromTurn`)? */
function rollCascades(rules: LongRules, state: LongState, actor: Side): boolean {
  if (rules.doubles !== 'cascade') return false;
  if (rules.cascadeFromTurn <= 1) return true;
  const played = state.rollsPlayed?.[actor];
  // Without a roll count, a player on his first turn has played no roll;
  // otherwise assume the cascade is already in force.
  if (played === undefined) return !state.position.firstTurn[actor];
  return played + 1 >= rules.cascadeFromTurn;
}

/**
 * Resolves the stage to play now: the first pending stage, or a roll of
 * `dice` when nothing is pending or a re-roll is due. `solver` is the
 * caller's scratch (a solver is not re-entrant; see stage.ts).
 */
export function activeStage(
  rules: LongRules,
  state: LongState,
  dice: Dice | undefined,
  solver: LongStageSolver = new LongStageSolver(),
): Result<ActiveStage, RulesError> {
  const { position, pending } = state;
  const actor = position.turn;
  const first = pending[0];
  const movement = movementOf(rules);
  if (first && first.units) {
    if (dice !== undefined) {
      return err(
        rulesError(
          'STAGE_MISMATCH',
          `${actor} must first play the pending ${first.origin} stage ${first.units.join('-')}; no dice are rolled for it`,
          { field: 'dice', rule: 'TM-7' },
        ),
      );
    }
    let head: HeadAllowance;
    if (first.origin === 'debt') {
      // TM-4: one head checker per debt stage, or the preset's own rule.
      // Fevga's runner rule (FV-2) is a condition on the board, not a count,
      // so it stays in force in every stage.
      head =
        rules.headLimitPerTurn === 'fevgaRunner' || rules.debtHeadAllowance === 'presetRule' ? presetHead(rules) : 1;
    } else {
      head = presetHead(rules); // CR-3, CG-6: a fresh allowance per cascade stage
    }
    return ok({
      actor,
      origin: first.origin,
      units: first.units,
      headAllowance: head,
      firstTurnException: false,
      last: first.last === true,
      rest: pending.slice(1),
    });
  }
  if (dice === undefined) {
    return err(rulesError('INVALID_DICE', 'dice are required: the side to move must roll', { field: 'dice' }));
  }
  const origin: StageOrigin = first ? 'reroll' : 'roll';
  const units = unitsOfRoll(dice);
  let head = presetHead(rules);
  let exception = false;
  // LN-HEAD-2/3: only the player's own first roll of the game (not a re-roll, TM-6).
  if (origin === 'roll' && head === 1 && isDoubleUnits(units) && position.firstTurn[actor]) {
    head = firstTurnAllowance(rules, position.board, units, movement, solver);
    exception = head > 1;
  }
  return ok({ actor, origin, units, headAllowance: head, firstTurnException: exception, last: false, rest: pending.slice(1) });
}

interface Outcome {
  readonly pending: PendingStage[];
  readonly turn: Side;
  readonly next: NextInfo;
}

function repeat(value: number, n: number): number[] {
  return new Array<number>(n).fill(value);
}

/**
 * TM-2…TM-6: what follows a stage played with `used` units from `before`
 * to `after` (both seen from the actor).
 */
function outcomeOf(
  rules: LongRules,
  state: LongState,
  stage: ActiveStage,
  before: LongBoard,
  after: LongBoard,
  used: number,
): Outcome {
  const actor = stage.actor;
  const opponent = otherSide(actor);
  if (after[MOVER_OFF] === CHECKERS) {
    return { pending: [], turn: actor, next: { kind: 'gameOver', actor: null, winner: actor } };
  }
  const passTurn: Outcome = { pending: [], turn: opponent, next: { kind: 'turn', actor: opponent } };
  const units = stage.units;

  if (stage.origin === 'debt') {
    // TM-4: the debtor pays stage by stage; an incomplete stage ends the debt
    // under `stopAtFirstIncompleteStage`. A debt never bounces back.
    let rest = stage.rest;
    if (used < units.length && rules.debtContinuation === 'stopAtFirstIncompleteStage') rest = [];
    if (rest.length > 0) {
      const nextStage = rest[0];
      return {
        pending: rest.slice(),
        turn: actor,
        next: { kind: 'debt', actor, stages: rest.map((s) => s.units ?? []), units: nextStage.units },
      };
    }
    return { pending: [], turn: actor, next: { kind: 'roll', actor } };
  }

  if (!isDoubleUnits(units)) return passTurn;
  const value = units[0];
  const cascade = stage.origin === 'cascade' || (stage.origin === 'roll' && rollCascades(rules, state, actor));
  const debtFor = (stages: number[][], started: boolean): Outcome => {
    // TM-3: the unplayed units go to the opponent, or vanish.
    const give =
      rules.unplayedDoubles === 'toOpponent' || (rules.unplayedDoubles === 'toOpponentIfStarted' && started);
    if (!give || stages.length === 0) return passTurn;
    const pending: PendingStage[] = stages.map((u) => ({ actor: opponent, origin: 'debt', units: u }));
    return { pending, turn: opponent, next: { kind: 'debt', actor: opponent, stages, units: stages[0] } };
  };

  if (!cascade) {
    if (rules.doubles !== 'rerollIfFull') return passTurn;
    // GS-1 / TM-5: a fully played double earns a re-roll; GS-2: otherwise the rest is debt.
    if (used === 4) {
      return { pending: [{ actor, origin: 'reroll' }], turn: actor, next: { kind: 'reroll', actor } };
    }
    return debtFor([repeat(value, 4 - used)], stage.origin !== 'roll' || used > 0);
  }

  // Cascade (CR-1, CG-1, FG-1) and its stop when all checkers are home (CR-5, CG-4, FG-3).
  const allHomeAfter = moverOutsideHome(after) === 0;
  let stop = false;
  let extraNext = false;
  switch (rules.cascadeStopWhenAllHome) {
    case 'immediately':
      stop = allHomeAfter;
      break;
    case 'afterOneMoreStage':
      if (stage.last) stop = true;
      else if (allHomeAfter) {
        // CG-4: the last checker entered home on the fourth unit of this
        // stage: one more stage, played as bear-off, then the cascade ends.
        // Under the home-move ban every step after the entering one bears
        // off, so the entering unit is 4 − (checkers borne off this stage).
        const enteredOnFourth =
          moverOutsideHome(before) > 0 && used === 4 && after[MOVER_OFF] === before[MOVER_OFF];
        if (enteredOnFourth && value < 6) extraNext = true;
        else stop = true;
      }
      break;
    case 'never':
      break;
  }
  if (used === 4) {
    if (value === 6 || stop) return passTurn;
    const next: PendingStage = extraNext
      ? { actor, origin: 'cascade', units: repeat(value + 1, 4), last: true }
      : { actor, origin: 'cascade', units: repeat(value + 1, 4) };
    return { pending: [next], turn: actor, next: { kind: 'cascade', actor, units: next.units } };
  }
  // TM-3 / TM-3a: the rest of this stage plus the stages not yet started,
  // except those the stop rule removes.
  const stages: number[][] = [repeat(value, 4 - used)];
  if (!stop && !stage.last) for (let v = value + 1; v <= 6; v++) stages.push(repeat(v, 4));
  return debtFor(stages, stage.origin !== 'roll' || used > 0);
}

/** LN-SCORE-6: after the last roll the game is over; a draw when the roller bore off all 15 too. */
function lastRollOutcome(actor: Side, after: LongBoard): Outcome {
  const finished = after[MOVER_OFF] === CHECKERS;
  const next: NextInfo = finished ? { kind: 'gameOver', actor: null } : { kind: 'gameOver', actor: null, winner: otherSide(actor) };
  return { pending: [], turn: actor, next };
}

/** Applies the outcome: flips the board to the next actor and updates the first-turn flags (LN-HEAD-3, TM-6). */
function stateAfter(state: LongState, stage: ActiveStage, after: LongBoard, outcome: Outcome): LongState {
  const actor = stage.actor;
  const firstTurn = { ...state.position.firstTurn };
  let rollsPlayed = state.rollsPlayed;
  if (stage.origin === 'roll') {
    firstTurn[actor] = false;
    if (rollsPlayed) rollsPlayed = { ...rollsPlayed, [actor]: rollsPlayed[actor] + 1 };
  }
  const board = outcome.turn === actor ? after : flipBoard(after);
  const position: LongPosition = { turn: outcome.turn, board, firstTurn };
  return rollsPlayed ? { position, pending: outcome.pending, rollsPlayed } : { position, pending: outcome.pending };
}

function stepsFrom(buffer: Int8Array, n: number): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < n; i++) steps.push({ from: buffer[i * 2], to: buffer[i * 2 + 1] });
  return steps;
}

/** Options of a query. */
export interface LongQueryOptions {
  /**
   * LN-SCORE-6 `drawIfCompletes`: the opponent has just borne off his 15th
   * checker as first mover and the side to move plays one last roll; the
   * game ends after it whatever happens.
   */
  readonly lastRoll?: boolean;
}

/** Checks that the state can take a query: the game is not over. */
export function checkPlayable(state: LongState, options: LongQueryOptions = {}): Result<true, RulesError> {
  const b = state.position.board;
  if (b[MOVER_OFF] === CHECKERS || (b[OPPONENT_OFF] === CHECKERS && !options.lastRoll)) {
    return err(rulesError('GAME_OVER', 'the game is over: a side has borne off all 15 checkers', { field: 'position', rule: 'LN-END-1' }));
  }
  return ok(true);
}

/**
 * Every legal play of the current stage, one per distinct resulting
 * position (ALG-7), each with its canonical steps, the state after it and
 * what comes next. When nothing can be played there is exactly one entry
 * with no steps (MAX-5). `solver` is the caller's scratch: loops that
 * query many positions pass one they own instead of allocating one a call.
 */
export function legalLongTurns(
  rules: LongRules,
  state: LongState,
  dice?: Dice,
  options: LongQueryOptions = {},
  solver: LongStageSolver = new LongStageSolver(),
): Result<LongTurns, RulesError> {
  const playable = checkPlayable(state, options);
  if (!playable.ok) return playable;
  const staged = activeStage(rules, state, dice, solver);
  if (!staged.ok) return staged;
  const stage = staged.value;
  const before = state.position.board;
  const count = solver.solve(before, stage.units, stage.headAllowance, movementOf(rules));
  const unitsUsed = solver.maxUnits;
  const stepBuffer = new Int8Array(8);
  const plays: { steps: Step[]; board: LongBoard; used: number }[] = [];
  for (let k = 0; k < count; k++) {
    const n = solver.playSteps(k, stepBuffer);
    const board = solver.playBoardInto(k, new Int8Array(BOARD_LENGTH));
    plays.push({ steps: stepsFrom(stepBuffer, n), board, used: n });
  }
  const turns = plays.map((p) => {
    const outcome = options.lastRoll ? lastRollOutcome(stage.actor, p.board) : outcomeOf(rules, state, stage, before, p.board, p.used);
    return {
      steps: p.steps,
      unitsUsed: p.used,
      board: p.board,
      state: stateAfter(state, stage, p.board, outcome),
      next: outcome.next,
    };
  });
  return ok({ stage, unitsUsed, turns });
}

/** The state after a known-legal play of the current stage (used by validation and sessions). */
export function stateAfterPlay(
  rules: LongRules,
  state: LongState,
  stage: ActiveStage,
  after: LongBoard,
  used: number,
): { state: LongState; next: NextInfo } {
  const outcome = outcomeOf(rules, state, stage, state.position.board, after, used);
  return { state: stateAfter(state, stage, after, outcome), next: outcome.next };
}

export { HEAD };
