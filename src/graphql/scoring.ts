import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Field, InputType, ObjectType, Query, Resolver } from 'type-graphql';
import { cubeAction, scoreGame } from '../service/score';
import { MatchFields, Score } from './games';
import { perSideType } from './shapes';
import { PositionInput, VariantInput, request } from './inputs';

/* Scoring and the cube over GraphQL: the same service functions as POST /v1/score and /v1/cube. */

@InputType({ description: 'As POST /v1/score.' })
export class ScoreInput extends PositionInput {
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{value, owner, turned?}' })
  cube?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{length, score: {white, black}, crawfordPlayed?}' })
  match?: Record<string, unknown>;
  @Field(() => String, { nullable: true })
  resign?: string;
  @Field(() => String, { nullable: true })
  resignedBy?: string;
  @Field(() => String, { nullable: true })
  droppedBy?: string;
  @Field(() => String, { nullable: true })
  firstMover?: string;
}

@ObjectType()
export class MatchAfter extends MatchFields {
  @Field(() => String, { nullable: true })
  winner?: string;
  @Field(() => Boolean)
  nextGameIsCrawford!: boolean;
  @Field(() => Boolean)
  crawfordPlayed!: boolean;
}

@ObjectType({ description: 'The value of a finished game, and the match after it.' })
export class ScoreResult extends Score {
  @Field(() => MatchAfter, { nullable: true })
  match?: MatchAfter;
}

@InputType({ description: 'As POST /v1/cube.' })
export class CubeInput extends VariantInput {
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{beaver?, raccoon?, jacoby?, automaticDoubles?, cap?}' })
  config?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{value, owner, offered?, turned?}' })
  cube?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true })
  match?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { description: '{onRoll, rolled?, openingMove?}' })
  context!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { description: '{type: double|take|drop|beaver|raccoon, by}' })
  action!: Record<string, unknown>;
}

export const LegalCubeActions = perSideType<string[]>('LegalCubeActions', () => [String]);
export type LegalCubeActions = InstanceType<typeof LegalCubeActions>;

@ObjectType({ description: 'The cube after one action.' })
export class CubeResult {
  @Field(() => GraphQLJSONObject, { description: '{value, owner, offered?, turned, automaticDoubles}' })
  cube!: object;
  @Field(() => LegalCubeActions)
  legalActions!: LegalCubeActions;
  @Field(() => Score, { nullable: true })
  gameOver?: Score;
}

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
