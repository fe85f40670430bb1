import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Int, Query, Resolver } from 'type-graphql';
import { applyGameStateView, newGameStateView } from '../service/game-states';
import { described, inputType, objectType, optional, perSideType } from './build';
import { CreateGameInput, EVENT_FIELDS, MatchScore, MatchView, Score } from './games';
import { request } from './inputs';
import { SideEnum } from './enums';
import { Position } from './position';
import { Stage, Turn } from './types';

/* Stateless game states over GraphQL: the same service functions as POST /v1/game-states and /v1/game-states/apply. */

export const ApplyGameStateInput = inputType(
  'ApplyGameStateInput',
  {
    state: described(GraphQLJSONObject, 'The state an earlier answer gave, unchanged.'),
    seat: SideEnum,
    action: described(String, 'roll-off, roll, play, double, take, drop, beaver, raccoon, resign or next-game'),
    dice: optional([Int], "roll: the dice rolled; roll-off: White's die, then Black's."),
    body: optional(GraphQLJSONObject, 'play: {steps} or {notation}; resign: {as}.'),
  },
  'As POST /v1/game-states/apply.',
);
export type ApplyGameStateInput = InstanceType<typeof ApplyGameStateInput>;

export const GameStateExpects = objectType('GameStateExpects', { seat: SideEnum, action: described(String, 'roll-off, roll, play, respond or next-game') });

export const GameStateAllowed = perSideType('GameStateAllowed', [String], 'What each seat may do now: roll-off, roll, play, double, take, drop, beaver, raccoon, resign, next-game.');

export const GameStateEvent = objectType('GameStateEvent', EVENT_FIELDS, 'What an action made happen, as the history of a session shows it without its numbers and times.');

export const GameStateCube = objectType('GameStateCube', { value: Int, owner: String, offeredBy: optional(String) });

export const GameStateResult = objectType('GameStateResult', { matchScore: optional(MatchScore) }, { description: 'The end of the game, and the match score after it in a match.', extends: Score });

export const GameStateAnswer = objectType(
  'GameStateAnswer',
  {
    state: described(GraphQLJSONObject, 'The state to keep and send back with the next action.'),
    expects: optional(GameStateExpects),
    allowed: GameStateAllowed,
    events: [GameStateEvent],
    position: described(Position, 'The position of the state.'),
    positionId: String,
    dice: optional([Int]),
    cube: optional(GameStateCube),
    match: optional(MatchView),
    stage: optional(Stage),
    turns: optional([Turn], 'Whenever a play is expected: every legal play of the stage.'),
    result: optional(GameStateResult),
  },
  'A game state kept by the caller, as POST /v1/game-states answers it.',
);
export type GameStateAnswer = InstanceType<typeof GameStateAnswer>;

@Resolver()
export class GameStatesResolver {
  @Query(() => GameStateAnswer, { description: 'As POST /v1/game-states: a new game state; nothing is kept on the server.' })
  newGameState(@Arg('input', () => CreateGameInput) input: CreateGameInput): GameStateAnswer {
    return newGameStateView(request('CreateGameRequest', input));
  }

  @Query(() => GameStateAnswer, { description: 'As POST /v1/game-states/apply: one action of a seat on a state the caller keeps.' })
  applyGameState(@Arg('input', () => ApplyGameStateInput) input: ApplyGameStateInput): GameStateAnswer {
    return applyGameStateView(request('ApplyGameStateRequest', input));
  }
}
