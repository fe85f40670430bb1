import { Dice } from '../dice';
import { RulesError, rulesError } from '../errors';
import { parseNotation } from '../notation';
import { Result, err, ok } from '../result';
import { CubeConfig, shortCubeConfig } from '../scoring/cube';
import { CubeError, cubeError } from '../scoring/cube-errors';
import { loserCheckers } from '../scoring/loser';
import { ResignLevel } from '../scoring/score';
import { scoreShortGame, scoreShortResignation } from '../scoring/short';
import { makeGnubgNotation } from '../short/gnubg-notation';
import { GnubgMatchState, makeGnubgId, makeGnubgPositionId, parseGnubgPositionId, parseMatchId } from '../short/gnubg-id';
import { SHORT_OPTIONS, parseShortOverrides, shortOptionValues } from '../short/options';
import {
  ShortPosition,
  initialShortPosition,
  makeShortPositionJson,
  parseShortPosition,
  shortSeat,
  shortWinner,
  withShortTurn,
} from '../short/position';
import { ShortRules } from '../short/rules';
import { parseXgid } from '../short/xgid';
import { ShortStageSolver } from '../short/stage';
import { ShortTurn, checkShortQuery, legalShortTurns } from '../short/turn';
import { ShortValidation, ShortValidator, validateShortNotation, validateShortPlay } from '../short/validate';
import { Side, otherSide } from '../side';
import { FamilyTurn, FamilyValidation, GameFamily, NextJson, ParsedState, Play, StageJson, StateInput, TurnJson } from './types';

/**
 * Short nardy (backgammon) for the service layer. Positions are exchanged as
 * JSON (with `bar`) or as gnubg Position IDs; a gnubg Match ID may come with
 * the position ID to say who is on roll and what the dice are.
 */
function stageView(position: ShortPosition, dice: Dice): StageJson {
  const units = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [Math.max(...dice), Math.min(...dice)];
  return { actor: position.turn, origin: 'roll', units };
}

function nextView(turn: ShortTurn, mover: Side): NextJson {
  if (turn.gameOver) return { kind: 'gameOver', actor: null, winner: turn.winner ?? mover };
  return { kind: 'turn', actor: otherSide(mover) };
}

export function shortTurnView(turn: ShortTurn, mover: Side): TurnJson {
  return {
    steps: turn.steps.map((s) => ({ from: s.from, to: s.to })),
    notation: makeGnubgNotation(turn.steps, turn.hits),
    position: makeShortPositionJson(turn.position),
    // The gnubg Position ID of the result, as gnubg shows it: the opponent on roll.
    positionId: makeGnubgPositionId(turn.gameOver ? withShortTurn(turn.position, otherSide(mover)) : turn.position),
    next: nextView(turn, mover),
  };
}

function familyTurn(turn: ShortTurn, mover: Side): FamilyTurn<ShortPosition> {
  const view = shortTurnView(turn, mover);
  return { view, state: turn.position, next: view.next, winner: turn.gameOver ? (turn.winner ?? mover) : null, stepCount: turn.steps.length };
}

function validationOf(v: ShortValidation, position: ShortPosition, dice: Dice): FamilyValidation<ShortPosition> {
  const stage = stageView(position, dice);
  if (v.legal && v.complete) return { legal: true, complete: true, stage, turn: familyTurn(v.turn, position.turn) };
  if (v.legal) return { legal: true, complete: false, stage, remainingDice: v.remainingUnits.slice() };
  return { legal: false, stage, error: v.error };
}

/**
 * Scratch of the family's queries: the plays of the last roll asked about,
 * kept so that the game flow's check for an empty play after a roll and
 * the validation of the play that follows solve that roll once. Family
 * calls run to the end before the next one, so one of each is enough.
 */
const validator = new ShortValidator();
const solver = new ShortStageSolver();

function requireDice(dice: Dice | undefined): Result<Dice, RulesError> {
  return dice ? ok(dice) : err(rulesError('INVALID_DICE', 'dice are required (or a matchId that carries them)', { field: 'dice' }));
}

/** `position` (JSON) or `positionId` (gnubg) + optional `matchId` (gnubg). */
export function parseShortRequestState(_rules: ShortRules, body: StateInput): Result<ParsedState<ShortPosition>, RulesError> {
  if (body.position !== undefined && body.positionId !== undefined) {
    return err(rulesError('INVALID_REQUEST', 'give either position or positionId, not both', { field: 'positionId' }));
  }
  let turn: Side = 'white';
  let dice: Dice | undefined;
  let match: GnubgMatchState | undefined;
  if (body.matchId !== undefined) {
    if (body.positionId === undefined) {
      return err(rulesError('INVALID_REQUEST', 'matchId goes with a gnubg positionId', { field: 'matchId' }));
    }
    const parsed = parseMatchId(body.matchId);
    if (!parsed.ok) return parsed;
    match = parsed.value;
    turn = match.turn;
    if (match.dice) dice = match.dice;
  }
  if (body.position !== undefined) {
    const p = parseShortPosition(body.position);
    return p.ok ? ok({ state: p.value }) : p;
  }
  if (body.positionId !== undefined) {
    const p = parseGnubgPositionId(body.positionId, turn);
    return p.ok ? ok({ state: p.value, ...(dice ? { dice } : {}), ...(match ? { match } : {}) }) : p;
  }
  return err(rulesError('INVALID_REQUEST', 'a position or a positionId is required', { field: 'position' }));
}

export const shortFamily: GameFamily<ShortRules, ShortPosition> = {
  family: 'short',
  options: SHORT_OPTIONS,
  optionValues: (rules) => shortOptionValues(rules),
  endRule: 'SH-SCORE-1',
  notationFault: () => null,
  board: (position) => ({
    turn: position.turn,
    seats: { white: shortSeat(position, 'white'), black: shortSeat(position, 'black') },
    pending: [],
  }),
  readXgid(text) {
    const x = parseXgid(text);
    if (!x.ok) return x;
    const { position, dice, cubeValue, cubeOwner, matchLength, score, crawford } = x.value;
    return ok({ state: position, ...(dice ? { dice } : {}), match: { cubeValue, cubeOwner, matchLength, score, crawford } });
  },
  gnubgId: (position, match) => makeGnubgId({ position, match }),
  parseRules: (base, overrides) => parseShortOverrides(base, overrides),
  parseState: parseShortRequestState,
  initial: (_rules, firstMover) => initialShortPosition(firstMover),
  toJson: (state) => makeShortPositionJson(state),
  fromJson: (_rules, json) => {
    const parsed = parseShortPosition(json);
    if (!parsed.ok) throw new Error(`stored short position is invalid: ${parsed.error.message}`);
    return parsed.value;
  },
  positionView: (state) => makeShortPositionJson(state),
  positionId: (state) => makeGnubgPositionId(state),
  sideToAct: (state) => state.turn,
  needsDice: () => true,
  legal(rules, state, dice) {
    const d = requireDice(dice);
    if (!d.ok) return d;
    const r = legalShortTurns(rules, state, d.value, solver);
    if (!r.ok) return r;
    return ok({
      stage: stageView(state, d.value),
      unitsUsed: r.value.unitsUsed,
      turns: r.value.turns.map((t) => familyTurn(t, state.turn)),
    });
  },
  emptyPlay(rules, state, dice) {
    const d = requireDice(dice);
    if (!d.ok) return d;
    const query = checkShortQuery(rules, state, d.value);
    if (!query.ok) return query;
    validator.load(state, d.value);
    const turn = validator.emptyPlay();
    return ok(turn && familyTurn(turn, state.turn));
  },
  validate(rules, state, dice, play: Play) {
    const d = requireDice(dice);
    if (!d.ok) return d;
    if ('steps' in play) {
      const r = validateShortPlay(rules, state, d.value, play.steps, validator);
      return r.ok ? ok(validationOf(r.value, state, d.value)) : r;
    }
    const segments = parseNotation(play.notation);
    if (!segments.ok) return segments;
    const r = validateShortNotation(rules, state, d.value, segments.value, validator);
    return r.ok ? ok(validationOf(r.value, state, d.value)) : r;
  },
  winner: (state) => shortWinner(state),
  score(rules, state, winner, stake) {
    const seat = shortSeat(state, otherSide(winner));
    const points: Record<number, number> = {};
    for (let p = 1; p <= 24; p++) if (seat.points[p] > 0) points[p] = seat.points[p];
    return scoreShortGame(rules.scoring, winner, loserCheckers(points, { off: seat.off, bar: seat.bar }), stake);
  },
  resign(rules, _state, resigner, level: ResignLevel, stake) {
    return scoreShortResignation(rules.scoring, resigner, { level }, stake);
  },
  cubeConfig(rules, requested): Result<CubeConfig, CubeError> {
    return ok(shortCubeConfig({ ...rules, cube: requested ?? rules.cube }));
  },
  withCube: (rules, cube) => ({ ...rules, cube }),
  openingRoll: (rules) => rules.openingRoll,
  nextGameStarter: (rules) => rules.nextGameStarter,
  lastRollRoller: () => null,
  scoreLastRoll: () =>
    err(cubeError('LAST_ROLL_UNDEFINED', 'short nardy has no last roll', { field: 'rules', rule: 'LN-SCORE-6' })),
  withSideToAct: (state, side) => withShortTurn(state, side),
};
