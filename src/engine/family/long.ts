import { Dice } from '../dice';
import { RulesError, rulesError } from '../errors';
import { newLongGame, needsDice, winnerOf } from '../long/game';
import { LONG_OPTIONS, longOptionValues, parseLongOverrides } from '../long/options';
import { seatCheckers, withTurn } from '../long/position';
import { makeLongPositionId, parseLongPositionId } from '../long/position-id';
import { LongRules } from '../long/rules';
import { LongStageSolver } from '../long/stage';
import { checkStateAgainstRules, makeLongStateJson, parseLongState } from '../long/state';
import { ActiveStage, LongState, LongTurn, LongTurns, NextInfo, legalLongTurns } from '../long/turn';
import { LongTurnsQuery, LongValidation, validateLongNotation, validateLongPlay } from '../long/validate';
import { Segment, makeNotation, parseNotation } from '../notation';
import { Result, err, ok } from '../result';
import { CubeConfig, longCubeConfig } from '../scoring/cube';
import { CubeError } from '../scoring/cube-errors';
import { lastRollRoller, scoreLastRoll, scoreLongGame, scoreLongResignation } from '../scoring/long';
import { LoserCheckers, loserCheckers } from '../scoring/loser';
import { ResignLevel } from '../scoring/score';
import { Side, otherSide } from '../side';
import { BAR } from '../step';
import { FamilyTurn, FamilyTurns, FamilyValidation, GameFamily, NextJson, ParsedState, Play, QueryOptions, StageJson, StateInput, TurnJson } from './types';

/** Views of the long family (README "Contract"). */
export function longStageView(stage: ActiveStage): StageJson {
  return {
    actor: stage.actor,
    origin: stage.origin,
    units: stage.units.slice(),
    headAllowance: stage.headAllowance,
    firstTurnException: stage.firstTurnException,
  };
}

export function longNextView(next: NextInfo): NextJson {
  const view: NextJson = { kind: next.kind, actor: next.actor };
  if (next.units) view.units = next.units.slice();
  if (next.stages) view.stages = next.stages.map((s) => s.slice());
  if (next.winner) view.winner = next.winner;
  return view;
}

export function longTurnView(turn: LongTurn): TurnJson {
  return {
    steps: turn.steps.map((s) => ({ from: s.from, to: s.to })),
    notation: makeNotation(turn.steps),
    position: makeLongStateJson(turn.state),
    positionId: makeLongPositionId(turn.state),
    next: longNextView(turn.next),
  };
}

function familyTurn(turn: LongTurn): FamilyTurn<LongState> {
  return {
    view: longTurnView(turn),
    state: turn.state,
    next: longNextView(turn.next),
    winner: turn.next.kind === 'gameOver' ? (turn.next.winner ?? null) : null,
    stepCount: turn.steps.length,
  };
}

function validationOf(v: LongValidation): FamilyValidation<LongState> {
  const stage = longStageView(v.stage);
  if (v.legal && v.complete) return { legal: true, complete: true, stage, turn: familyTurn(v.turn) };
  if (v.legal) return { legal: true, complete: false, stage, remainingDice: v.remainingUnits.slice() };
  return { legal: false, stage, error: v.error };
}

/** The loser's checkers in the neutral form the scoring core takes. */
function loserOf(state: LongState, loser: Side): LoserCheckers {
  const seat = seatCheckers(state.position, loser);
  const points: Record<number, number> = {};
  for (let p = 1; p <= 24; p++) if (seat.points[p] > 0) points[p] = seat.points[p];
  return loserCheckers(points, { off: seat.off });
}

/** Parses `position` or `positionId` of a request into a state that fits the rules. */
export function parseLongRequestState(rules: LongRules, body: StateInput): Result<ParsedState<LongState>, RulesError> {
  if (body.position !== undefined && body.positionId !== undefined) {
    return err(rulesError('INVALID_REQUEST', 'give either position or positionId, not both', { field: 'positionId' }));
  }
  if (body.matchId !== undefined) {
    return err(rulesError('INVALID_REQUEST', 'matchId (a gnubg Match ID) is for short nardy only', { field: 'matchId' }));
  }
  let state: Result<LongState, RulesError>;
  if (body.position !== undefined) state = parseLongState(body.position, rules);
  else if (body.positionId !== undefined) {
    const parsed = parseLongPositionId(body.positionId);
    state = parsed.ok ? checkStateAgainstRules(rules, parsed.value, 'positionId') : parsed;
  } else return err(rulesError('INVALID_REQUEST', 'a position or a positionId is required', { field: 'position' }));
  return state.ok ? ok({ state: state.value }) : state;
}

/** LN-MOVE-2: nothing is ever hit, so no step comes from a bar. */
function longNotationFault(segments: readonly Segment[]): RulesError | null {
  if (!segments.some((segment) => segment.from === BAR)) return null;
  return rulesError('INVALID_NOTATION', 'long nardy has no bar: checkers are never hit (LN-MOVE-2); write points 1..24 and off', { field: 'notation' });
}

/**
 * Scratch of the family's queries (a solver is not re-entrant, see
 * stage.ts; family calls run to the end before the next one).
 */
const solver = new LongStageSolver();

/** The last stage whose legal plays were generated: a copy of its query, and the answer. */
let lastStage: {
  readonly rules: LongRules;
  readonly key: string;
  readonly answer: Result<LongTurns, RulesError>;
} | null = null;

/** Everything of a stage query that its legal plays depend on besides the rules (a copy: the caller may change its own). */
function stageKey(state: LongState, dice: Dice | undefined, options: QueryOptions): string {
  const { position, pending, rollsPlayed } = state;
  return [
    position.turn,
    position.board.join(','),
    position.firstTurn.white,
    position.firstTurn.black,
    JSON.stringify(pending),
    rollsPlayed ? `${rollsPlayed.white}/${rollsPlayed.black}` : '-',
    dice ? `${dice[0]}-${dice[1]}` : '-',
    options.lastRoll === true,
  ].join('|');
}

/**
 * The legal plays of a stage (`legalLongTurns`), kept for the next query of
 * the same stage: the game flow asks for them after a roll (is there a
 * play?) and again to validate the play that follows. Plays and states are
 * values, so the answer is shared.
 */
const stageTurns: LongTurnsQuery = (rules, state, dice, options = {}) => {
  const key = stageKey(state, dice, options);
  if (lastStage && lastStage.rules === rules && lastStage.key === key) return lastStage.answer;
  const answer = legalLongTurns(rules, state, dice, options, solver);
  lastStage = { rules, key, answer };
  return answer;
};

export const longFamily: GameFamily<LongRules, LongState> = {
  family: 'long',
  options: LONG_OPTIONS,
  optionValues: (rules) => longOptionValues(rules),
  endRule: 'LN-END-1',
  notationFault: longNotationFault,
  board(state) {
    const seat = (side: Side) => ({ ...seatCheckers(state.position, side), bar: 0 });
    const { position } = state;
    return {
      turn: position.turn,
      seats: { white: seat('white'), black: seat('black') },
      pending: state.pending.map((s) => ({ origin: s.origin, ...(s.units ? { units: s.units.slice() } : {}), ...(s.last ? { last: true } : {}) })),
      firstTurn: { white: position.firstTurn.white, black: position.firstTurn.black },
    };
  },
  parseRules: (base, overrides) => parseLongOverrides(base, overrides),
  parseState: parseLongRequestState,
  initial: (rules, firstMover) => newLongGame(rules, firstMover),
  toJson: (state) => makeLongStateJson(state),
  fromJson: (rules, json) => {
    const parsed = parseLongState(json, rules);
    if (!parsed.ok) throw new Error(`stored long state is invalid: ${parsed.error.message}`);
    return parsed.value;
  },
  positionView: (state) => makeLongStateJson(state),
  positionId: (state) => makeLongPositionId(state),
  sideToAct: (state) => state.position.turn,
  needsDice: (state) => needsDice(state),
  legal(rules, state, dice, options = {}) {
    const r = legalLongTurns(rules, state, dice, options, solver);
    if (!r.ok) return r;
    const out: FamilyTurns<LongState> = {
      stage: longStageView(r.value.stage),
      unitsUsed: r.value.unitsUsed,
      turns: r.value.turns.map(familyTurn),
    };
    return ok(out);
  },
  emptyPlay(rules, state, dice, options = {}) {
    const r = stageTurns(rules, state, dice, options, solver);
    if (!r.ok) return r;
    const turns = r.value.turns;
    return ok(turns.length === 1 && turns[0].steps.length === 0 ? familyTurn(turns[0]) : null);
  },
  validate(rules, state, dice, play: Play, options = {}) {
    if ('steps' in play) {
      const r = validateLongPlay(rules, state, dice, play.steps, options, solver, stageTurns);
      return r.ok ? ok(validationOf(r.value)) : r;
    }
    const segments = parseNotation(play.notation);
    if (!segments.ok) return segments;
    // The notation is what the client sent: its faults are the notation's, not those of steps it never wrote.
    const fault = longNotationFault(segments.value);
    if (fault) return err(fault);
    const first = state.pending[0];
    const units = first?.units
      ? first.units.slice()
      : dice
        ? dice[0] === dice[1]
          ? [dice[0], dice[0], dice[0], dice[0]]
          : [dice[0], dice[1]]
        : [];
    if (units.length === 0) return err(rulesError('INVALID_DICE', 'dice are required: the side to move must roll', { field: 'dice' }));
    const r = validateLongNotation(rules, state, dice, segments.value, units, options, solver, stageTurns);
    return r.ok ? ok(validationOf(r.value)) : r;
  },
  winner: (state) => winnerOf(state),
  score(rules, state, winner, stake) {
    return scoreLongGame(rules, winner, loserOf(state, otherSide(winner)), stake);
  },
  resign(rules, state, resigner, level: ResignLevel, stake) {
    const off = seatCheckers(state.position, resigner).off;
    return scoreLongResignation(rules, resigner, { level, off }, stake);
  },
  cubeConfig(rules, requested): Result<CubeConfig, CubeError> {
    // LN-SCORE-5: off unless asked for; CUBE-7: never in Fevga / Giul. Match
    // play switches the money-only options off where the cube is used.
    return ok(longCubeConfig({ ...rules, cube: requested ?? rules.cube }));
  },
  withCube: (rules, cube) => ({ ...rules, cube }),
  openingRoll: (rules) => rules.openingRoll,
  nextGameStarter: (rules) => rules.nextGameStarter,
  lastRollRoller(rules, firstMover, finisher) {
    const r = lastRollRoller(rules, firstMover, finisher);
    return r.ok ? r.value : null;
  },
  scoreLastRoll(rules, state, firstMover, stake) {
    return scoreLastRoll(rules, firstMover, loserOf(state, otherSide(firstMover)), stake);
  },
  withSideToAct(state, side) {
    return { ...state, position: withTurn(state.position, side), pending: [] };
  },
};

