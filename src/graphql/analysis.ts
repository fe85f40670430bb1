import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Float, Int, Query, Resolver } from 'type-graphql';
import { valueOf } from '../service/cache';
import { ANALYSIS_LIMITS } from '../limits';
import { described, fields, inputType, objectType, optional } from './build';
import { CubeActionEnum, CubeResponseEnum, SideEnum, VariantNameEnum } from './enums';
import { GraphqlContext } from './context';
import { MovesInput, PositionInput, request } from './inputs';
import { Pips, Probabilities, ROLLOUT_ESTIMATE } from './shapes';
import { ErrorFields, Stage, StagePlays, Turn } from './types';

/* Position analysis over GraphQL: the same service functions as POST /v1/evaluate, /v1/evaluate/batch, /v1/moves/best and /v1/rollout. */

/** The `strict` option of the analysis inputs: an answer shallower than asked is an error instead. */
const STRICT = optional(Boolean, 'true: an answer shallower than asked (budget ran out) is the error ANALYSIS_TIMEOUT instead.');

export const EvaluateInput = inputType(
  'EvaluateInput',
  {
    strict: STRICT,
    plies: optional(Int, `Search depth 0..${ANALYSIS_LIMITS.maxPlies} (default ${ANALYSIS_LIMITS.defaultPlies}).`),
    cube: optional(GraphQLJSONObject, 'Money cube {value, owner: center|white|black, turned?}: asks for the cube decision.'),
    match: optional(GraphQLJSONObject, 'Match {length, score: {white, black}, …}: cube decision by match equities.'),
  },
  { description: 'As POST /v1/evaluate.', extends: PositionInput },
);
export type EvaluateInput = InstanceType<typeof EvaluateInput>;

const BATCH = `1..${ANALYSIS_LIMITS.maxBatch} positions (at most ${ANALYSIS_LIMITS.maxBatchTwoPly} at 2 plies).`;
export const EvaluateBatchInput = inputType('EvaluateBatchInput', { positions: described([EvaluateInput], BATCH) }, 'As POST /v1/evaluate/batch.');
export type EvaluateBatchInput = InstanceType<typeof EvaluateBatchInput>;

export const BestMovesInput = inputType(
  'BestMovesInput',
  {
    strict: STRICT,
    plies: optional(
      Int,
      `Search depth 0..${ANALYSIS_LIMITS.maxPlies} (default ${ANALYSIS_LIMITS.defaultBestPlies}; ${ANALYSIS_LIMITS.backgammonBestPlies} in backgammon; 0 in the presets whose doubles cascade).`,
    ),
    limit: optional(Int, `Return the best \`limit\` plays, 1..${ANALYSIS_LIMITS.maxBestLimit} (default: all).`),
  },
  { description: 'As POST /v1/moves/best.', extends: MovesInput },
);
export type BestMovesInput = InstanceType<typeof BestMovesInput>;

export const RolloutInput = inputType(
  'RolloutInput',
  {
    strict: STRICT,
    trials: optional(Int, `1..${ANALYSIS_LIMITS.maxTrials} (default ${ANALYSIS_LIMITS.defaultTrials}).`),
    timeBudgetMs: optional(Int, `Wall-clock budget in milliseconds, 1..${ANALYSIS_LIMITS.maxTimeBudgetMs} (default ${ANALYSIS_LIMITS.defaultTimeBudgetMs}).`),
    seed: optional(Int),
    truncateAfter: optional(Int),
    settleRaces: optional(Boolean),
    luckAdjust: optional(Boolean, 'Luck adjustment (variance reduction, about 21× the work per trial).'),
  },
  { description: 'As POST /v1/rollout.', extends: MovesInput },
);
export type RolloutInput = InstanceType<typeof RolloutInput>;

export const EvaluatorInfo = objectType('EvaluatorInfo', {
  name: String,
  version: String,
  plies: described(Int, 'The plies searched: fewer than requestedPlies when the search budget ran out.'),
  requestedPlies: Int,
});

export const Equity = objectType('Equity', { cubeless: Float, cubeful: optional(Float) });

/** The equities of the three cube actions of the side to move (docs/evaluation.md). */
const CUBE_ACTIONS = fields({ noDouble: Float, doubleTake: Float, doublePass: Float });

export const MatchWinningChances = objectType('MatchWinningChances', { cubeless: Float, ...CUBE_ACTIONS });

export const CubeDecision = objectType(
  'CubeDecision',
  {
    action: CubeActionEnum,
    response: CubeResponseEnum,
    equity: Float,
    ...CUBE_ACTIONS,
    cubeless: Float,
    efficiency: Float,
    matchWinningChances: optional(MatchWinningChances),
  },
  'The cube decision of the side to move (docs/evaluation.md).',
);

/** The position an analysis answers for: its variant, ID and the side to move. */
const PositionAnswer = objectType('PositionAnswer', { variant: VariantNameEnum, positionId: String, sideToMove: SideEnum });

export const Evaluation = objectType(
  'Evaluation',
  { probabilities: Probabilities, equity: Equity, cubeDecision: optional(CubeDecision), pips: Pips, race: Boolean, evaluator: EvaluatorInfo },
  { description: 'A position evaluated before the side to move rolls.', extends: PositionAnswer },
);
export type Evaluation = InstanceType<typeof Evaluation>;

export const BatchError = objectType('BatchError', { field: optional(String), rule: optional(String) }, { extends: ErrorFields });

export const BatchItem = objectType(
  'BatchItem',
  { index: Int, evaluation: optional(Evaluation), error: optional(BatchError) },
  'One position of a batch: its evaluation or its own error.',
);

export const EvaluationBatch = objectType('EvaluationBatch', { count: Int, results: [BatchItem] });
export type EvaluationBatch = InstanceType<typeof EvaluationBatch>;

export const RankedTurn = objectType(
  'RankedTurn',
  { rank: Int, probabilities: Probabilities, equity: Float, equityDiff: Float, plies: Int },
  { description: 'A legal play with its evaluation for the side that plays it.', extends: Turn },
);

export const BestMoves = objectType(
  'BestMoves',
  { count: Int, evaluator: EvaluatorInfo, turns: [RankedTurn] },
  { description: 'The plays of the current stage, best first.', extends: StagePlays },
);
export type BestMoves = InstanceType<typeof BestMoves>;

export const RolloutSettings = objectType('RolloutSettings', {
  trials: Int,
  timeBudgetMs: Int,
  seed: Int,
  truncateAfter: optional(Int),
  settleRaces: Boolean,
  luckAdjust: Boolean,
});

export const RolloutEstimate = objectType('RolloutEstimate', { ...ROLLOUT_ESTIMATE, stoppedBy: described(String, 'trials or time') });

export const RolledOutTurn = objectType(
  'RolledOutTurn',
  { rank: Int, equityDiff: Float, ...ROLLOUT_ESTIMATE },
  { description: 'A legal play rolled out, for the side that plays it.', extends: Turn },
);

export const Rollout = objectType(
  'Rollout',
  {
    evaluator: EvaluatorInfo,
    settings: RolloutSettings,
    estimate: optional(RolloutEstimate),
    dice: optional([Int]),
    stage: optional(Stage),
    count: optional(Int),
    turns: optional([RolledOutTurn]),
  },
  { description: 'A rollout of the position (estimate) or of every play of the roll (turns).', extends: PositionAnswer },
);
export type Rollout = InstanceType<typeof Rollout>;

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
