import { GraphQLJSON } from 'graphql-scalars';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { JobKind, JobView } from '../service/jobs/types';
import { described, inputType, objectType, optional } from './build';
import { GraphqlContext } from './context';
import { BatchError, RolloutInput } from './analysis';
import { request } from './inputs';
import { ANALYSIS_LIMITS, JOB_LIMITS } from '../limits';

/* Analysis jobs over GraphQL: the same service functions as POST/GET/DELETE /v1/rollouts (and /v1/analyses). */

export const RolloutJobInput = inputType(
  'RolloutJobInput',
  {},
  { description: `As POST /v1/rollouts: the fields of POST /v1/rollout, with job limits (trials 1..${JOB_LIMITS.maxTrials}, default ${JOB_LIMITS.defaultTrials}; timeBudgetMs ${JOB_LIMITS.minTimeBudgetMs}..${JOB_LIMITS.maxTimeBudgetMs}, default ${JOB_LIMITS.defaultTimeBudgetMs}).`, extends: RolloutInput },
);
export type RolloutJobInput = InstanceType<typeof RolloutJobInput>;

export const MatchAnalysisInput = inputType(
  'MatchAnalysisInput',
  {
    format: optional(String, 'mat or sgf (a long-family file: mat, in the long-nardy dialect)'),
    text: optional(String, 'The match file.'),
    gameId: optional(ID, 'Instead of a file: a session of this service (backgammon or any long-family preset).'),
    plies: optional(Int, `0..${ANALYSIS_LIMITS.maxPlies} (default ${ANALYSIS_LIMITS.defaultPlies}).`),
    jacoby: optional(Boolean, "A money session's Jacoby rule instead of the file's (a .mat file without a Jacoby tag: gnubg's default, on)."),
  },
  'As POST /v1/analyses: a match file (format and text) or a session (gameId). A GraphQL request body is limited to BODY_LIMIT (64 kB): send larger match files to POST /v1/analyses (4 MB).',
);
export type MatchAnalysisInput = InstanceType<typeof MatchAnalysisInput>;

export const JobProgress = objectType(
  'JobProgress',
  { done: Int, total: Int, estimate: optional(GraphQLJSON, 'A rollout job: the running estimate.') },
  'Decisions analysed or trials rolled out so far.',
);

export const JobError = objectType('JobError', {}, { description: 'Why a job failed or was cancelled: an error as every answer carries one.', extends: BatchError });

export const Job = objectType(
  'Job',
  {
    id: ID,
    kind: described(String, 'match-analysis or rollout'),
    status: described(String, 'queued, running, done, failed or cancelled'),
    progress: JobProgress,
    createdAt: String,
    finishedAt: optional(String),
    result: optional(GraphQLJSON, 'When done: the rollout (as POST /v1/rollout answers) or the match report.'),
    error: optional(JobError),
  },
  'An analysis job, as GET /v1/rollouts/{id} (or /v1/analyses/{id}).',
);
export type Job = InstanceType<typeof Job>;

function asJob(view: JobView): Job {
  const { id, kind, status, progress, createdAt, finishedAt, result, error } = view;
  return {
    id,
    kind,
    status,
    progress: { ...progress },
    createdAt,
    finishedAt,
    result,
    error: error
      ? {
          code: error.code,
          message: error.message,
          field: typeof error.field === 'string' ? error.field : undefined,
          rule: typeof error.rule === 'string' ? error.rule : undefined,
        }
      : undefined,
  };
}

/** A job's kind, from its id (`ma_…` match analyses, `ro_…` rollouts). */
function kindOf(id: string): JobKind {
  return id.startsWith('ma_') ? 'match-analysis' : 'rollout';
}

@Resolver()
export class JobsResolver {
  @Mutation(() => Job, { description: 'As POST /v1/rollouts: the job (the same request is the same job).' })
  async submitRollout(@Arg('input', () => RolloutJobInput) input: RolloutJobInput, @Ctx() ctx: GraphqlContext): Promise<Job> {
    return asJob((await ctx.services.jobs.submitRollout(request('RolloutJobRequest', input), ctx.caller)).view);
  }

  @Mutation(() => Job, { description: 'As POST /v1/analyses: the job (the same file and plies are the same job).' })
  async submitMatchAnalysis(@Arg('input', () => MatchAnalysisInput) input: MatchAnalysisInput, @Ctx() ctx: GraphqlContext): Promise<Job> {
    return asJob((await ctx.services.jobs.submitMatchAnalysis(request('MatchAnalysisRequest', input), ctx.caller)).view);
  }

  @Query(() => Job, { description: 'As GET /v1/rollouts/{id} and /v1/analyses/{id}.' })
  async job(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<Job> {
    return asJob(await ctx.services.jobs.get(kindOf(id), id));
  }

  @Subscription(() => Job, {
    description: 'The job now and at every change of status or progress, until it is done, failed or cancelled. Over graphql-ws on /graphql; as GET /v1/rollouts/{id}/events and /v1/analyses/{id}/events.',
    subscribe: async ({ args, context }) => {
      const id = String(args.id);
      return (context as GraphqlContext).services.jobs.updates(kindOf(id), id);
    },
  })
  jobProgress(@Root() view: JobView, @Arg('id', () => ID) _id: string): Job {
    return asJob(view);
  }

  @Mutation(() => Job, { description: 'As DELETE /v1/rollouts/{id} and /v1/analyses/{id}.' })
  async cancelJob(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<Job> {
    return asJob(await ctx.services.jobs.cancel(kindOf(id), id));
  }
}
