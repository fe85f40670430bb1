import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, Float, InputType, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { valueOf } from '../service/cache';
import { ANALYSIS_LIMITS } from '../service/analysis/service';
import { GraphqlContext } from './context';
import { MovesInput, PositionInput, request } from './inputs';
import { Extendable, Pips, Probabilities, withRolloutEstimate } from './shapes';
import { ErrorFields, Stage, StagePlays, Turn } from './types';

/* Position analysis over GraphQL: the same service functions as POST /v1/evaluate, /v1/evaluate/batch, /v1/moves/best and /v1/rollout. */

@InputType({ description: 'As POST /v1/evaluate.' })
export class EvaluateInput extends PositionInput {
  @Field(() => Boolean, { nullable: true, description: 'true: an answer shallower than asked (budget ran out) is the error ANALYSIS_TIMEOUT instead.' })
  strict?: boolean;
  @Field(() => Int, { nullable: true, description: 'Search depth 0..2 (default 0).' })
  plies?: number;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Money cube {value, owner: center|white|black, turned?}: asks for the cube decision.' })
  cube?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Match {length, score: {white, black}, …}: cube decision by match equities.' })
  match?: Record<string, unknown>;
}

@InputType({ description: 'As POST /v1/evaluate/batch.' })
export class EvaluateBatchInput {
  @Field(() => [EvaluateInput], { description: `1..${ANALYSIS_LIMITS.maxBatch} positions (at most ${ANALYSIS_LIMITS.maxBatchTwoPly} at 2 plies).` })
  positions!: EvaluateInput[];
}

@InputType({ description: 'As POST /v1/moves/best.' })
export class BestMovesInput extends MovesInput {
  @Field(() => Boolean, { nullable: true, description: 'true: an answer shallower than asked (budget ran out) is the error ANALYSIS_TIMEOUT instead.' })
  strict?: boolean;
  @Field(() => Int, { nullable: true })
  plies?: number;
  @Field(() => Int, { nullable: true, description: 'Return the best `limit` plays (default: all).' })
  limit?: number;
}

@InputType({ description: 'As POST /v1/rollout.' })
export class RolloutInput extends MovesInput {
  @Field(() => Boolean, { nullable: true, description: 'true: an answer shallower than asked (budget ran out) is the error ANALYSIS_TIMEOUT instead.' })
  strict?: boolean;
  @Field(() => Int, { nullable: true })
  trials?: number;
  @Field(() => Int, { nullable: true })
  timeBudgetMs?: number;
  @Field(() => Int, { nullable: true })
  seed?: number;
  @Field(() => Int, { nullable: true })
  truncateAfter?: number;
  @Field(() => Boolean, { nullable: true })
  settleRaces?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Luck adjustment (variance reduction, about 21× the work per trial).' })
  luckAdjust?: boolean;
}

@ObjectType()
export class EvaluatorInfo {
  @Field(() => String)
  name!: string;
  @Field(() => String)
  version!: string;
  @Field(() => Int, { description: 'The plies searched: fewer than requestedPlies when the search budget ran out.' })
  plies!: number;
  @Field(() => Int)
  requestedPlies!: number;
}

@ObjectType()
export class Equity {
  @Field(() => Float)
  cubeless!: number;
  @Field(() => Float, { nullable: true })
  cubeful?: number;
}

/** The equities of the three cube actions of the side to move (docs/evaluation.md), after the fields of `Base`. */
function withCubeActions<B extends Extendable>(Base: B, name: string) {
  @ObjectType(name)
  abstract class CubeActionEquities extends Base {
    @Field(() => Float)
    noDouble!: number;
    @Field(() => Float)
    doubleTake!: number;
    @Field(() => Float)
    doublePass!: number;
  }
  return CubeActionEquities;
}

@ObjectType()
abstract class Cubeless {
  @Field(() => Float)
  cubeless!: number;
}

@ObjectType()
export class MatchWinningChances extends withCubeActions(Cubeless, 'MatchWinningChancesOfActions') {}

@ObjectType()
abstract class CubeVerdict {
  @Field(() => String, { description: 'noDouble, doubleTake, doublePass, tooGood or notAvailable' })
  action!: string;
  @Field(() => String, { description: 'take, pass or beaver' })
  response!: string;
  @Field(() => Float)
  equity!: number;
}

@ObjectType({ description: 'The cube decision of the side to move (docs/evaluation.md).' })
export class CubeDecision extends withCubeActions(CubeVerdict, 'CubeDecisionOfActions') {
  @Field(() => Float)
  cubeless!: number;
  @Field(() => Float)
  efficiency!: number;
  @Field(() => MatchWinningChances, { nullable: true })
  matchWinningChances?: MatchWinningChances;
}

/** The position an analysis answers for: its variant, ID and the side to move. */
@ObjectType()
abstract class PositionAnswer {
  @Field(() => String)
  variant!: string;
  @Field(() => String)
  positionId!: string;
  @Field(() => String)
  sideToMove!: string;
}

@ObjectType({ description: 'A position evaluated before the side to move rolls.' })
export class Evaluation extends PositionAnswer {
  @Field(() => Probabilities)
  probabilities!: Probabilities;
  @Field(() => Equity)
  equity!: Equity;
  @Field(() => CubeDecision, { nullable: true })
  cubeDecision?: CubeDecision;
  @Field(() => Pips)
  pips!: Pips;
  @Field(() => Boolean)
  race!: boolean;
  @Field(() => EvaluatorInfo)
  evaluator!: EvaluatorInfo;
}

@ObjectType()
export class BatchError extends ErrorFields {
  @Field(() => String, { nullable: true })
  field?: string;
  @Field(() => String, { nullable: true })
  rule?: string;
}

@ObjectType({ description: 'One position of a batch: its evaluation or its own error.' })
export class BatchItem {
  @Field(() => Int)
  index!: number;
  @Field(() => Evaluation, { nullable: true })
  evaluation?: Evaluation;
  @Field(() => BatchError, { nullable: true })
  error?: BatchError;
}

@ObjectType()
export class EvaluationBatch {
  @Field(() => Int)
  count!: number;
  @Field(() => [BatchItem])
  results!: BatchItem[];
}

@ObjectType({ description: 'A legal play with its evaluation for the side that plays it.' })
export class RankedTurn extends Turn {
  @Field(() => Int)
  rank!: number;
  @Field(() => Probabilities)
  probabilities!: Probabilities;
  @Field(() => Float)
  equity!: number;
  @Field(() => Float)
  equityDiff!: number;
  @Field(() => Int)
  plies!: number;
}

@ObjectType({ description: 'The plays of the current stage, best first.' })
export class BestMoves extends StagePlays {
  @Field(() => Int)
  count!: number;
  @Field(() => EvaluatorInfo)
  evaluator!: EvaluatorInfo;
  @Field(() => [RankedTurn])
  turns!: RankedTurn[];
}

@ObjectType()
export class RolloutSettings {
  @Field(() => Int)
  trials!: number;
  @Field(() => Int)
  timeBudgetMs!: number;
  @Field(() => Int)
  seed!: number;
  @Field(() => Int, { nullable: true })
  truncateAfter!: number | null;
  @Field(() => Boolean)
  settleRaces!: boolean;
  @Field(() => Boolean)
  luckAdjust!: boolean;
}

export const RolloutEstimate = withRolloutEstimate(class {}, 'RolloutEstimate', { description: 'trials or time' });
export type RolloutEstimate = InstanceType<typeof RolloutEstimate>;

@ObjectType()
abstract class RankedByRollout extends Turn {
  @Field(() => Int)
  rank!: number;
  @Field(() => Float)
  equityDiff!: number;
}

@ObjectType({ description: 'A legal play rolled out, for the side that plays it.' })
export class RolledOutTurn extends withRolloutEstimate(RankedByRollout, 'RolledOutTurnEstimate') {}

@ObjectType({ description: 'A rollout of the position (estimate) or of every play of the roll (turns).' })
export class Rollout extends PositionAnswer {
  @Field(() => EvaluatorInfo)
  evaluator!: EvaluatorInfo;
  @Field(() => RolloutSettings)
  settings!: RolloutSettings;
  @Field(() => RolloutEstimate, { nullable: true })
  estimate?: RolloutEstimate;
  @Field(() => [Int], { nullable: true })
  dice?: number[] | null;
  @Field(() => Stage, { nullable: true })
  stage?: Stage;
  @Field(() => Int, { nullable: true })
  count?: number;
  @Field(() => [RolledOutTurn], { nullable: true })
  turns?: RolledOutTurn[];
}

@Resolver()
export class AnalysisResolver {
  @Query(() => Evaluation, { description: 'As POST /v1/evaluate.' })
  async evaluate(@Arg('input', () => EvaluateInput) input: EvaluateInput, @Ctx() ctx: GraphqlContext): Promise<Evaluation> {
    return valueOf(await ctx.services.analysis.evaluate(request('EvaluateRequest', input), ctx.caller));
  }

  @Query(() => EvaluationBatch, { description: 'As POST /v1/evaluate/batch.' })
  evaluateBatch(@Arg('input', () => EvaluateBatchInput) input: EvaluateBatchInput, @Ctx() ctx: GraphqlContext): Promise<EvaluationBatch> {
    return ctx.services.analysis.evaluateBatch(request('EvaluateBatchRequest', input), ctx.caller);
  }

  @Query(() => BestMoves, { description: 'As POST /v1/moves/best.' })
  async bestMoves(@Arg('input', () => BestMovesInput) input: BestMovesInput, @Ctx() ctx: GraphqlContext): Promise<BestMoves> {
    return valueOf(await ctx.services.analysis.bestMoves(request('BestMovesRequest', input), ctx.caller));
  }

  @Query(() => Rollout, { description: 'As POST /v1/rollout.' })
  async rollout(@Arg('input', () => RolloutInput) input: RolloutInput, @Ctx() ctx: GraphqlContext): Promise<Rollout> {
    return ctx.services.analysis.rollout(request('RolloutRequest', input), ctx.caller);
  }
}
