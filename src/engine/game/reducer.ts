import { isDieValue } from '../dice';
import { RulesError, rulesError } from '../errors';
import { AnyBound, Bound, FamilyTurn, FamilyTurns, rebind, withFamily } from '../family';
import { Result, err, ok } from '../result';
import { CubeConfig, CubeContext, INITIAL_CUBE, applyCubeAction, applyRollOffTie, legalCubeActions, stakeOf } from '../scoring/cube';
import { CubeError } from '../scoring/cube-errors';
import { MatchState, nextMatchState } from '../scoring/match';
import { GameScore } from '../scoring/score';
import { SIDES, Side, otherSide } from '../side';
import { variantByName } from '../variants';
import {
  AllowedActions,
  Applied,
  ExpectedAction,
  Expects,
  GameAction,
  GameError,
  GameEvent,
  GameFlowErrorCode,
  GameRoundState,
  GameState,
} from './types';

/**
 * The game flow as one pure function: roll-off, rolls, plays stage by stage
 * (cascades, re-rolls, debts and the forced empty plays), the cube,
 * resignation, the last roll, the end of a game scored by the scoring core,
 * and match progress with Crawford. No I/O and no randomness: dice come in
 * with the action. Family rules are reached through the family binding.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The state being changed by one call, with the family position in its typed form. */
interface Table<R, S> {
  readonly bound: Bound<R, S>;
  readonly variant: string;
  readonly rules: unknown;
  readonly cubeConfig: CubeConfig;
  match: MatchState | null;
  status: GameState['status'];
  expects: Expects | null;
  game: Mutable<GameRoundState>;
  position: S;
  /** The JSON position the reducer made for `position`, while the position is the one it was read from. */
  readonly source?: { readonly json: unknown; readonly position: S };
  readonly events: GameEvent[];
}

/** What a JSON position made by the reducer reads as, under the family and rules that made it. */
interface Reading {
  readonly family: unknown;
  readonly rules: unknown;
  readonly position: unknown;
}

/**
 * The family position of every JSON position the reducer made, so that a
 * state it answered is not read again when it comes back with the next
 * action (self-play applies thousands a second). A family's JSON holds its
 * whole position (`fromJson(toJson(p))` is `p`), and the reducer freezes
 * the JSON it makes, so a reading kept here cannot go stale. JSON from
 * elsewhere is read every time.
 */
const readings = new WeakMap<object, Reading>();

/** Freezes a family's fresh JSON (plain objects and arrays, no cycles). */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  Object.freeze(value);
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
}

/** The JSON of a family position, frozen and remembered with its reading. */
function madeJson<R, S>(bound: Bound<R, S>, position: S): unknown {
  const json = bound.family.toJson(position);
  deepFreeze(json);
  if (typeof json === 'object' && json !== null) readings.set(json, { family: bound.family, rules: bound.rules, position });
  return json;
}

/** The reading of a JSON position the reducer made under this family and rules, if it is one. */
function knownReading<R, S>(bound: Bound<R, S>, json: unknown): S | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const known = readings.get(json);
  return known && known.family === bound.family && known.rules === bound.rules ? (known.position as S) : undefined;
}

/** The family position of a state's JSON position. */
function readPosition<R, S>(bound: Bound<R, S>, json: unknown): S {
  return knownReading(bound, json) ?? bound.family.fromJson(bound.rules, json);
}

/** A refusal inside the flow: unwound to a `GameError` value by `applyAction`. */
class Refusal {
  constructor(readonly error: GameError) {}
}

function refuse(code: GameFlowErrorCode, message: string, details: Partial<GameError> = {}): never {
  throw new Refusal({ by: 'game', code, message, ...details });
}

function refuseCube(error: CubeError): never {
  throw new Refusal({ by: 'cube', ...error });
}

function refuseRules(error: RulesError): never {
  throw new Refusal({ by: 'rules', ...error });
}

/** The family binding of a state's variant and rules (checked when the state was made). */
export function bindGameState(state: Pick<GameState, 'variant' | 'rules'>): AnyBound {
  const variant = variantByName(state.variant);
  if (!variant.ok) throw new Error(`a game state names an unknown variant: ${String(state.variant)}`);
  return rebind(variant.value, state.rules);
}

function tableOf<R, S>(bound: Bound<R, S>, state: GameState): Table<R, S> {
  const json = state.game.position;
  const known = knownReading(bound, json);
  return {
    bound,
    variant: state.variant,
    rules: state.rules,
    cubeConfig: state.cubeConfig,
    match: state.match,
    status: state.status,
    expects: state.expects,
    game: { ...state.game },
    position: known ?? bound.family.fromJson(bound.rules, json),
    ...(known !== undefined ? { source: { json, position: known } } : {}),
    events: [],
  };
}

function stateOf<R, S>(t: Table<R, S>): GameState {
  // An unchanged position keeps the JSON the reducer made for it.
  const position = t.source && t.source.position === t.position ? t.source.json : madeJson(t.bound, t.position);
  return {
    variant: t.variant,
    rules: t.rules,
    cubeConfig: t.cubeConfig,
    match: t.match,
    status: t.status,
    expects: t.expects,
    game: { ...t.game, position },
  };
}

function event(t: Table<unknown, unknown>, type: GameEvent['type'], seat: Side | null, extra: Partial<GameEvent> = {}): void {
  t.events.push({ game: t.game.number, type, seat, ...extra });
}

function expectNow(t: Table<unknown, unknown>, seat: Side, action: ExpectedAction): void {
  t.expects = { seat, action };
}

/** A game not yet begun: the first mover is still to be found. */
function openGame(number: number, cubeConfig: CubeConfig, position: unknown): GameRoundState {
  return {
    number,
    firstMover: null,
    position,
    dice: null,
    lastRoll: false,
    opening: true,
    cube: cubeConfig.enabled ? { ...INITIAL_CUBE } : null,
    result: null,
  };
}

/** The options of a new game or match; `rules` are effective rules the family has checked (`bind`). */
export interface NewGameOptions {
  readonly cubeConfig: CubeConfig;
  readonly match: MatchState | null;
}

/**
 * A new game (or match): the roll-off is expected unless the rules name the
 * first mover (LN-START-1…3, SH-START-1/2).
 */
export function newGameState(bound: AnyBound, options: NewGameOptions): Applied {
  return withFamily(bound, <R, S>(b: Bound<R, S>) => {
    const { family, rules } = b;
    const initial = family.initial(rules, 'white');
    const t: Table<R, S> = {
      bound: b,
      variant: b.variant.name,
      rules,
      cubeConfig: options.cubeConfig,
      match: options.match,
      status: 'playing',
      expects: null,
      game: openGame(1, options.cubeConfig, family.toJson(initial)),
      position: initial,
      events: [],
    };
    beginGame(t, null);
    return appliedOf(t);
  });
}

/** The first move of the open game: by the rules, or a roll-off is awaited. */
function beginGame<R, S>(t: Table<R, S>, previousWinner: Side | null): void {
  const { family, rules } = t.bound;
  if (previousWinner && family.nextGameStarter(rules) === 'previousWinner') {
    startPlay(t, previousWinner, null); // LN-START-3
  } else if (family.openingRoll(rules) === 'fixedFirstSeat') {
    startPlay(t, 'white', null);
  } else {
    expectNow(t, 'white', 'roll-off');
  }
}

function startPlay<R, S>(t: Table<R, S>, firstMover: Side, dice: [number, number] | null): void {
  t.game.firstMover = firstMover;
  t.game.dice = dice;
  t.position = t.bound.family.initial(t.bound.rules, firstMover);
  settle(t);
}

/** Roll-off: one die each, equal values roll again (LN-START-1, SH-START-1). */
function rollOff<R, S>(t: Table<R, S>, dice: readonly [number, number]): void {
  const [white, black] = dice;
  event(t, 'roll-off', null, { dice: [white, black] });
  if (white === black) {
    // CUBE-5: equal roll-off dice may double the stake (money play, option on).
    if (t.game.cube) t.game.cube = applyRollOffTie(t.cubeConfig, t.game.cube, t.match);
    return;
  }
  const firstMover: Side = white > black ? 'white' : 'black';
  startPlay(t, firstMover, t.bound.family.openingRoll(t.bound.rules) === 'useRollOffDice' ? [white, black] : null);
}

function stake<R, S>(t: Table<R, S>) {
  return stakeOf(t.cubeConfig, t.game.cube ?? INITIAL_CUBE, t.match);
}

/** Ends the game with its score and moves the match on (CUBE-6, LN-MATCH-1). */
function finishGame<R, S>(t: Table<R, S>, result: GameScore): void {
  t.game.result = result;
  t.game.dice = null;
  event(t, 'game-over', result.winner, { result, positionId: t.bound.family.positionId(t.position) });
  if (t.match) {
    const next = result.winner ? nextMatchState(t.match, { winner: result.winner, points: result.points }) : null;
    if (next && !next.ok) refuseCube(next.error);
    if (next) t.match = next.value;
    if (t.match.winner) {
      t.status = 'finished';
      t.expects = null;
    } else {
      // Either seat may start the next game; the previous winner is named (he starts under LN-START-3).
      expectNow(t, result.winner ?? 'white', 'next-game');
    }
  } else {
    t.status = 'finished';
    t.expects = null;
  }
}

/** The family's scoring of a decided game, or the refusal of the cube core. */
function scored(score: Result<GameScore, CubeError>): GameScore {
  if (!score.ok) refuseCube(score.error);
  return score.value;
}

/** What the game comes to without anyone acting: a won game, a forced empty play, or a decision of a seat. */
type Decision<S> =
  | { readonly kind: 'won'; readonly winner: Side }
  | { readonly kind: 'no-play'; readonly side: Side; readonly turn: FamilyTurn<S> }
  | { readonly kind: 'expects'; readonly expects: Expects };

/** The next decision of a game in progress (its first mover known, no result yet). */
function decisionOf<R, S>(t: Table<R, S>): Decision<S> {
  const { family, rules } = t.bound;
  const game = t.game;
  const winner = family.winner(t.position);
  if (winner && !game.lastRoll) return { kind: 'won', winner };
  if (game.cube?.offered) return { kind: 'expects', expects: { seat: otherSide(game.cube.offered.by), action: 'respond' } };
  const side = family.sideToAct(t.position);
  if (family.needsDice(t.position) && game.dice === null) return { kind: 'expects', expects: { seat: side, action: 'roll' } };
  const empty = family.emptyPlay(rules, t.position, game.dice ?? undefined, { lastRoll: game.lastRoll });
  if (!empty.ok) refuseRules(empty.error);
  if (empty.value) return { kind: 'no-play', side, turn: empty.value };
  return { kind: 'expects', expects: { seat: side, action: 'play' } };
}

/**
 * Brings the game to the next decision: ends it when a side has won, plays
 * the forced empty play when nothing can be played (ALG-8, MAX-5), and sets
 * what is expected of whom.
 */
function settle<R, S>(t: Table<R, S>): void {
  const { family, rules } = t.bound;
  const game = t.game;
  for (let guard = 0; guard < 64; guard++) {
    if (game.result) return;
    const decision = decisionOf(t);
    switch (decision.kind) {
      case 'won': {
        const roller = game.firstMover ? family.lastRollRoller(rules, game.firstMover, decision.winner) : null;
        if (roller) {
          // LN-SCORE-6: the second mover gets one last roll.
          game.lastRoll = true;
          t.position = family.withSideToAct(t.position, roller);
          expectNow(t, roller, 'roll');
          return;
        }
        finishGame(t, scored(family.score(rules, t.position, decision.winner, stake(t))));
        return;
      }
      case 'no-play':
        event(t, 'no-play', decision.side, {
          ...(game.dice ? { dice: [game.dice[0], game.dice[1]] } : {}),
          positionId: family.positionId(decision.turn.state),
        });
        afterPlay(t, decision.turn.state);
        continue;
      case 'expects':
        t.expects = decision.expects;
        return;
    }
  }
  throw new Error('the game flow did not settle');
}

function afterPlay<R, S>(t: Table<R, S>, position: S): void {
  const game = t.game;
  t.position = position;
  game.dice = null;
  game.opening = false;
  if (game.lastRoll && game.firstMover) {
    finishGame(t, scored(t.bound.family.scoreLastRoll(t.bound.rules, position, game.firstMover, stake(t))));
  }
}

/** The cube situation of the side on turn, as `applyCubeAction` judges it. */
function cubeContext<R, S>(t: Table<R, S>, onRoll: Side): CubeContext {
  return { onRoll, rolled: t.game.dice !== null, openingMove: t.game.opening, match: t.match };
}

/**
 * What each seat may do now, so that clients enable buttons without probing:
 * exactly the actions `applyAction` accepts from that seat (a listed action
 * succeeds with a valid body; an unlisted one is refused).
 *
 * - the roll-off: either seat sends the dice;
 * - a game in progress: the seat expected to roll rolls and, when CUBE-2 and
 *   CUBE-6 allow, doubles (never during the LN-SCORE-6 last roll, which is
 *   not a turn of its own); the seat expected to play plays; the doubled
 *   side answers with take / drop and, where CUBE-5 is in force, beaver or
 *   raccoon; both seats may resign;
 * - between the games of a match: either seat may start the next game;
 * - a finished game or match: nothing.
 */
function allowedOf<R, S>(t: Table<R, S>): AllowedActions {
  const game = t.game;
  const allowed: AllowedActions = { white: [], black: [] };
  const expects = t.expects;
  if (t.status === 'finished' || !expects || game.result) {
    if (expects?.action === 'next-game') for (const side of SIDES) allowed[side].push('next-game');
    return allowed;
  }
  const seat = expects.seat;
  switch (expects.action) {
    case 'roll-off':
      for (const side of SIDES) allowed[side].push('roll-off');
      return allowed;
    case 'roll':
      allowed[seat].push('roll');
      if (game.cube && !game.lastRoll && legalCubeActions(t.cubeConfig, game.cube, cubeContext(t, seat), seat).includes('double')) {
        allowed[seat].push('double');
      }
      break;
    case 'play':
      allowed[seat].push('play');
      break;
    case 'respond':
      if (game.cube) {
        const answers = legalCubeActions(t.cubeConfig, game.cube, cubeContext(t, t.bound.family.sideToAct(t.position)), seat);
        allowed[seat].push(...answers.filter((a) => a !== 'double'));
      }
      break;
    case 'next-game':
      for (const side of SIDES) allowed[side].push('next-game');
      return allowed;
  }
  for (const side of SIDES) allowed[side].push('resign');
  return allowed;
}

/** What each seat may do in `state` (the `allowed` of `applyAction`'s answer). */
export function allowedActions(state: GameState): AllowedActions {
  return withFamily(bindGameState(state), (b) => allowedOf(tableOf(b, state)));
}

/** Actions either seat may send when they are expected. */
const EITHER_SEAT: readonly ExpectedAction[] = ['roll-off', 'next-game'];

/**
 * Is `action` what the game waits for, from this seat? The wrong seat is
 * told it is not its turn before anything else; the right seat sending
 * something else is told what is expected.
 */
function expect(t: Table<unknown, unknown>, seat: Side, action: ExpectedAction): void {
  const expects = t.expects;
  if (t.status === 'finished' || !expects) refuse('GAME_FINISHED', 'the game is over');
  if (expects.seat !== seat && !EITHER_SEAT.includes(expects.action)) {
    refuse('NOT_YOUR_TURN', `it is ${expects.seat}'s turn to ${expects.action}`, { expects });
  }
  if (expects.action !== action) {
    refuse('ACTION_NOT_EXPECTED', `the game expects ${expects.action} from ${expects.seat}, not ${action}`, { expects });
  }
}

function checkDice(dice: unknown): [number, number] {
  if (!Array.isArray(dice) || dice.length !== 2 || !isDieValue(dice[0]) || !isDieValue(dice[1])) {
    refuseRules(rulesError('INVALID_DICE', 'dice must be two integers in 1..6', { field: 'dice' }));
  }
  return [dice[0] as number, dice[1] as number];
}

function act<R, S>(t: Table<R, S>, seat: Side, action: GameAction): void {
  const { family, rules } = t.bound;
  const game = t.game;
  switch (action.type) {
    case 'roll-off': {
      expect(t, seat, 'roll-off');
      const dice = checkDice(action.dice);
      rollOff(t, dice);
      return;
    }
    case 'roll': {
      expect(t, seat, 'roll');
      const dice = checkDice(action.dice);
      game.dice = dice;
      event(t, 'roll', seat, { dice });
      settle(t);
      return;
    }
    case 'play': {
      expect(t, seat, 'play');
      const dice = game.dice ?? undefined;
      const v = family.validate(rules, t.position, dice, action.play, { lastRoll: game.lastRoll });
      if (!v.ok) refuseRules(v.error);
      if (!v.value.legal) {
        const e = v.value.error;
        refuse('ILLEGAL_PLAY', e.message, {
          violation: { code: e.code, message: e.message, ...(e.stepIndex !== undefined ? { stepIndex: e.stepIndex } : {}), ...(e.rule ? { rule: e.rule } : {}) },
        });
      }
      if (!v.value.complete) {
        refuse('INCOMPLETE_PLAY', `the play is legal so far but must go on: ${v.value.remainingDice.join(', ')} still to play`, {
          remainingDice: v.value.remainingDice,
        });
      }
      const turn = v.value.turn;
      event(t, 'play', seat, {
        ...(dice ? { dice: [dice[0], dice[1]] as [number, number] } : {}),
        steps: turn.view.steps,
        notation: turn.view.notation,
        positionId: turn.view.positionId,
      });
      afterPlay(t, turn.state);
      settle(t);
      return;
    }
    case 'double':
    case 'take':
    case 'drop':
    case 'beaver':
    case 'raccoon': {
      if (t.status === 'finished' || game.result) refuse('GAME_FINISHED', 'the game is over');
      if (!game.cube) refuseCube({ code: 'CUBE_DISABLED', message: 'this game is played without the doubling cube', rule: 'LN-SCORE-5' });
      if (action.type === 'double') {
        expect(t, seat, 'roll');
        if (game.lastRoll) refuseCube({ code: 'NOT_BEFORE_ROLL', message: 'no double on the last roll: the game is decided but for that roll', rule: 'LN-SCORE-6' });
      } else expect(t, seat, 'respond');
      const outcome = applyCubeAction(t.cubeConfig, game.cube, cubeContext(t, action.type === 'double' ? seat : family.sideToAct(t.position)), {
        type: action.type,
        by: seat,
      });
      if (!outcome.ok) refuseCube(outcome.error);
      game.cube = outcome.value.state;
      event(t, action.type, seat, { cubeValue: game.cube.value });
      if (outcome.value.gameOver) {
        finishGame(t, outcome.value.gameOver);
        return;
      }
      settle(t);
      return;
    }
    case 'resign': {
      if (t.status === 'finished' || game.result || !t.expects || t.expects.action === 'next-game') {
        refuse('GAME_FINISHED', 'no game is in progress');
      }
      const score = scored(family.resign(rules, t.position, seat, action.level, stake(t)));
      event(t, 'resign', seat);
      finishGame(t, score);
      return;
    }
    case 'next-game': {
      expect(t, seat, 'next-game');
      const previousWinner = game.result?.winner ?? null;
      event(t, 'next-game', seat);
      const initial = family.initial(rules, 'white');
      t.game = openGame(game.number + 1, t.cubeConfig, family.toJson(initial));
      t.position = initial;
      beginGame(t, previousWinner);
      return;
    }
  }
}

function appliedOf<R, S>(t: Table<R, S>): Applied {
  return { state: stateOf(t), events: t.events, expects: t.expects, allowed: allowedOf(t) };
}

/**
 * Applies one action of `seat` to a game state: the new state, the events
 * it adds to the history, and what each seat may do next — or the refusal,
 * with the rule it breaks. `state` is not changed.
 */
export function applyAction(state: GameState, seat: Side, action: GameAction): Result<Applied, GameError> {
  return withFamily(bindGameState(state), (b) => {
    const t = tableOf(b, state);
    try {
      act(t, seat, action);
    } catch (e) {
      if (e instanceof Refusal) return err(e.error);
      throw e;
    }
    return ok(appliedOf(t));
  });
}

/**
 * The family position of `state` (`S` of its family binding). A position
 * the reducer made is not read again: the answer is shared, a value never
 * to be changed.
 */
export function gamePosition(state: GameState): unknown {
  return withFamily(bindGameState(state), (b) => readPosition(b, state.game.position));
}

/**
 * The stage and legal turns of the play `state` expects, as `POST /v1/moves`
 * lists them; null when no play is expected.
 */
export function expectedPlay(state: GameState): Result<FamilyTurns<unknown> | null, RulesError> {
  if (state.expects?.action !== 'play' || state.status === 'finished') return ok(null);
  return withFamily(bindGameState(state), (b) => {
    const t = tableOf(b, state);
    const legal = b.family.legal(b.rules, t.position, state.game.dice ?? undefined, { lastRoll: state.game.lastRoll });
    return legal.ok ? ok(legal.value as FamilyTurns<unknown>) : legal;
  });
}

/**
 * What a state the reducer made waits for, derived from everything else in
 * it (`parseGameState` compares it with the state's own `expects`): the
 * roll-off before the first mover is known, the next game of a match after
 * a result, else the decision of the game in progress. A game won without a
 * result or a roll with no legal play left unplayed is no such state.
 */
export function settledExpects(state: GameState): Result<Expects | null, GameError> {
  return withFamily(bindGameState(state), (b) => {
    const t = tableOf(b, state);
    const game = t.game;
    if (game.result) {
      return ok(t.match && !t.match.winner ? { seat: game.result.winner ?? 'white', action: 'next-game' } : null);
    }
    if (!game.firstMover) return ok({ seat: 'white', action: 'roll-off' });
    try {
      const decision = decisionOf(t);
      if (decision.kind === 'expects') return ok(decision.expects);
      const message =
        decision.kind === 'won'
          ? `${decision.winner} has borne off every checker, so the game has a result`
          : 'a roll with no legal play is forfeited at once (MAX-5), so nothing is expected of that seat';
      return err({ by: 'rules', code: 'INVALID_REQUEST', message, field: decision.kind === 'won' ? 'state.game.result' : 'state.game.dice' });
    } catch (e) {
      if (e instanceof Refusal) return err(e.error);
      throw e;
    }
  });
}
