import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Query, Resolver } from 'type-graphql';
import { cubeAction, scoreGame } from '../service/score';
import { MatchFields, Score } from './games';
import { described, inputType, objectType, optional, perSideType } from './build';
import { PositionInput, VariantInput, request } from './inputs';

/* Scoring and the cube over GraphQL: the same service functions as POST /v1/score and /v1/cube. */

export const ScoreInput = inputType(
  'ScoreInput',
  {
    cube: optional(GraphQLJSONObject, '{value, owner, turned?}'),
    match: optional(GraphQLJSONObject, '{length, score: {white, black}, crawfordPlayed?}'),
    resign: optional(String),
    resignedBy: optional(String),
    droppedBy: optional(String),
    firstMover: optional(String),
  },
  { description: 'As POST /v1/score.', extends: PositionInput },
);
export type ScoreInput = InstanceType<typeof ScoreInput>;

export const MatchAfter = objectType('MatchAfter', { winner: optional(String), nextGameIsCrawford: Boolean, crawfordPlayed: Boolean }, { extends: MatchFields });

export const ScoreResult = objectType('ScoreResult', { match: optional(MatchAfter) }, { description: 'The value of a finished game, and the match after it.', extends: Score });
export type ScoreResult = InstanceType<typeof ScoreResult>;

export const CubeInput = inputType(
  'CubeInput',
  {
    config: optional(GraphQLJSONObject, '{beaver?, raccoon?, jacoby?, automaticDoubles?, cap?}'),
    cube: optional(GraphQLJSONObject, '{value, owner, offered?, turned?}'),
    match: optional(GraphQLJSONObject),
    context: described(GraphQLJSONObject, '{onRoll, rolled?, openingMove?}'),
    action: described(GraphQLJSONObject, '{type: double|take|drop|beaver|raccoon, by}'),
  },
  { description: 'As POST /v1/cube.', extends: VariantInput },
);
export type CubeInput = InstanceType<typeof CubeInput>;

export const LegalCubeActions = perSideType('LegalCubeActions', [String]);

export const CubeResult = objectType(
  'CubeResult',
  {
    cube: described(GraphQLJSONObject, '{value, owner, offered?, turned, automaticDoubles}'),
    legalActions: LegalCubeActions,
    gameOver: optional(Score),
  },
  'The cube after one action.',
);
export type CubeResult = InstanceType<typeof CubeResult>;

@Resolver()
export class ScoringResolver {
  @Query(() => ScoreResult, { description: 'As POST /v1/score.' })
  score(@Arg('input', () => ScoreInput) input: ScoreInput): ScoreResult {
    return scoreGame(request('ScoreRequest', input));
  }

  @Query(() => CubeResult, { description: 'As POST /v1/cube.' })
  cubeAction(@Arg('input', () => CubeInput) input: CubeInput): CubeResult {
    return cubeAction(request('CubeRequest', input));
  }
}
