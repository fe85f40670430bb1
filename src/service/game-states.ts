import { parseDice } from '../engine/dice';
import { withFamily } from '../engine/family';
import {
  AllowedActions,
  Applied,
  Expects,
  GameAction,
  GameEvent,
  GameState,
  allowedActions,
  applyAction,
  bindGameState,
  createGameState,
  expectedPlay,
  parseGameState,
} from '../engine/game';
import { Side } from '../engine/side';
import { ApplyGameStateRequest, CreateGameRequest } from '../contract/requests';
import { ServiceError, fail } from './errors';
import { checkKeys } from './request';
import { ScoreView, scoreView } from './sessions/views';
import { parseAction } from './sessions/service';
import { StageView, TurnView } from './views';

/*
 * Stateless game states (POST /v1/game-states, /v1/game-states/apply): a
 * game server keeps the state, sends it back with one action, and gets the
 * new state from the game reducer. Nothing is kept here.
 */

/** A game state as a game server sees it: the state to keep, what happens next, and the board. */
export interface GameStateView {
  state: GameState;
  expects: Expects | null;
  allowed: AllowedActions;
  /** What this action made happen, in order (none for a new game). */
  events: GameEvent[];
  /** The position in the form POST /v1/moves takes (with `turn` and, long family, `firstTurn`). */
  position: object;
  positionId: string;
  dice: number[] | null;
  cube: { value: number; owner: string; offeredBy?: string } | null;
  match: { length: number; crawford: boolean; score: { white: number; black: number }; crawfordGame: boolean; winner?: string } | null;
  /** The stage to play and its legal turns, whenever a play is expected (as POST /v1/moves lists them). */
  stage?: StageView;
  turns?: TurnView[];
  /** The end of the game: winner, kind, points, and the match score after it. */
  result?: ScoreView & { matchScore?: { white: number; black: number } };
}

function viewOf(applied: Applied): GameStateView {
  const { state } = applied;
  const game = state.game;
  const { position, positionId } = withFamily(bindGameState(state), (b) => {
    const typed = b.family.fromJson(b.rules, game.position);
    return { position: b.family.positionView(typed), positionId: b.family.positionId(typed) };
  });
  const match = state.match;
  const view: GameStateView = {
    state,
    expects: applied.expects,
    allowed: applied.allowed,
    events: applied.events,
    position,
    positionId,
    dice: game.dice ? [game.dice[0], game.dice[1]] : null,
    cube: game.cube ? { value: game.cube.value, owner: game.cube.owner, ...(game.cube.offered ? { offeredBy: game.cube.offered.by } : {}) } : null,
    match: match
      ? {
          length: match.length,
          crawford: match.crawford,
          score: { ...match.score },
          crawfordGame: match.nextGameIsCrawford,
          ...(match.winner ? { winner: match.winner } : {}),
        }
      : null,
  };
  const play = expectedPlay(state);
  if (!play.ok) throw ServiceError.from(play.error);
  if (play.value) {
    view.stage = play.value.stage;
    view.turns = play.value.turns.map((t) => t.view);
  }
  if (game.result) view.result = { ...scoreView(game.result), ...(match ? { matchScore: { ...match.score } } : {}) };
  return view;
}

/** `POST /v1/game-states`: a new game (or match) from the options POST /v1/games takes. */
export function newGameStateView(body: CreateGameRequest): GameStateView {
  const { variant, rules, cube, match } = body;
  const created = createGameState({ variant, rules, ...(cube !== undefined ? { cube } : {}), ...(match !== undefined ? { match } : {}) });
  if (!created.ok) throw ServiceError.fromGame(created.error);
  return viewOf(created.value);
}

/** The action of a request as the reducer takes it: the dice with a roll, the play or resignation in `body`. */
function actionOf(input: ApplyGameStateRequest): GameAction {
  const { action, dice, body } = input;
  if (action === 'roll' || action === 'roll-off') {
    if (dice === undefined) fail('INVALID_REQUEST', `${action} takes the dice rolled: dice [d1, d2]`, { field: 'dice' });
    if (body !== undefined) checkKeys(body, [], 'body');
    const parsed = parseDice(dice);
    if (!parsed.ok) throw ServiceError.from(parsed.error);
    return { type: action, dice: [parsed.value[0], parsed.value[1]] };
  }
  if (dice !== undefined) fail('INVALID_REQUEST', `dice go with roll and roll-off, not ${action}`, { field: 'dice' });
  try {
    // Not a roll (handled above), so the session's parse gives the reducer's action.
    return parseAction(action, body) as GameAction;
  } catch (e) {
    // The body's fields sit under `body` in this request.
    if (e instanceof ServiceError && typeof e.body.field === 'string') throw new ServiceError({ ...e.body, field: `body.${e.body.field}`.replace(/\.$/, '') });
    throw e;
  }
}

/**
 * `POST /v1/game-states/apply`: one action of `seat` on a state the server
 * sent earlier. The state is checked first (400 naming its field), then the
 * action (403 NOT_YOUR_TURN for the other seat, 409 for another action, 422
 * with the rule it breaks).
 */
export function applyGameStateView(input: ApplyGameStateRequest): GameStateView {
  const state = parseGameState(input.state);
  if (!state.ok) throw ServiceError.fromGame(state.error);
  const action = actionOf(input);
  const applied = applyAction(state.value, input.seat as Side, action);
  if (!applied.ok) {
    // As in sessions, a refusal says what this seat may do instead.
    const refusal = ServiceError.fromGame(applied.error);
    throw new ServiceError({ ...refusal.body, allowed: allowedActions(state.value)[input.seat as Side] }, refusal.status);
  }
  return viewOf(applied.value);
}
