import { GraphQLJSON } from 'graphql-scalars';
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, Subscription } from 'type-graphql';
import { JobKind, JobView } from '../service/jobs/types';
import { GraphqlContext } from './context';
import { BatchError, RolloutInput } from './analysis';
import { request } from './inputs';

/* Analysis jobs over GraphQL: the same service functions as POST/GET/DELETE /v1/rollouts (and /v1/analyses). */

@InputType({ description: 'As POST /v1/rollouts: the fields of POST /v1/rollout, with job limits (trials 1..1296000, timeBudgetMs 1000..3600000).' })
export class RolloutJobInput extends RolloutInput {}

@InputType({ description: 'As POST /v1/analyses: a match file (format and text) or a session (gameId). A GraphQL request body is limited to BODY_LIMIT (64 kB): send larger match files to POST /v1/analyses (4 MB).' })
export class MatchAnalysisInput {
  @Field(() => String, { nullable: true, description: 'mat or sgf (a long-family file: mat, in the long-nardy dialect)' })
  format?: string;
  @Field(() => String, { nullable: true, description: 'The match file.' })
  text?: string;
  @Field(() => ID, { nullable: true, description: 'Instead of a file: a session of this service (backgammon or any long-family preset).' })
  gameId?: string;
  @Field(() => Int, { nullable: true, description: '0..2 (default 0).' })
  plies?: number;
}

@ObjectType({ description: 'Decisions analysed or trials rolled out so far.' })
export class JobProgress {
  @Field(() => Int)
  done!: number;
  @Field(() => Int)
  total!: number;
  @Field(() => GraphQLJSON, { nullable: true, description: 'A rollout job: the running estimate.' })
  estimate?: unknown;
}

@ObjectType({ description: 'Why a job failed or was cancelled: an error as every answer carries one.' })
export class JobError extends BatchError {}

@ObjectType({ description: 'An analysis job, as GET /v1/rollouts/{id} (or /v1/analyses/{id}).' })
export class Job {
  @Field(() => ID)
  id!: string;
  @Field(() => String, { description: 'match-analysis or rollout' })
  kind!: string;
  @Field(() => String, { description: 'queued, running, done, failed or cancelled' })
  status!: string;
  @Field(() => JobProgress)
  progress!: JobProgress;
  @Field(() => String)
  createdAt!: string;
  @Field(() => String, { nullable: true })
  finishedAt?: string;
  @Field(() => GraphQLJSON, { nullable: true, description: 'When done: the rollout (as POST /v1/rollout answers) or the match report.' })
  result?: unknown;
  @Field(() => JobError, { nullable: true })
  error?: JobError;
}

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
    return asJob((await ctx.services.jobs.submitRollout(request('RolloutJobRequest', input))).view);
  }

  @Mutation(() => Job, { description: 'As POST /v1/analyses: the job (the same file and plies are the same job).' })
  async submitMatchAnalysis(@Arg('input', () => MatchAnalysisInput) input: MatchAnalysisInput, @Ctx() ctx: GraphqlContext): Promise<Job> {
    return asJob((await ctx.services.jobs.submitMatchAnalysis(request('MatchAnalysisRequest', input))).view);
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
