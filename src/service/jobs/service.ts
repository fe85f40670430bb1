import { createHash } from 'crypto';
import { MatchAnalysisRequest, RolloutJobRequest, RolloutRequest } from '../../contract/requests';
import { AnalysisCaller, AnalysisService } from '../analysis/service';
import { ProbabilitiesView, RolledOutTurnView, RolloutEstimateView, RolloutView } from '../analysis/views';
import { ServiceError, fail } from '../errors';
import { MatchFileFormat, PlanMatchAnalysis } from '../matches/types';
import { StoreUnavailableError } from '../store/types';
import { ANALYSIS_LIMITS, JOB_LIMITS } from '../../limits';
import { FINISHED, JobKind, JobProcessor, JobQueue, JobView } from './types';

/**
 * Analysis jobs (`/v1/analyses`, `/v1/rollouts`): a request is checked and
 * priced when it is submitted (a bad file is a 400 naming the game and the
 * move; a job costing more than `maxCost` evaluations, or `anonymousMaxCost`
 * for a caller without an API key, is refused with 422
 * ANALYSIS_TOO_COSTLY), given an id that depends only on what it asks (the
 * same file and options → the same job), and queued. Whichever process
 * works the queue runs it through its own analysis service — so its
 * searches use that process's worker pool — reporting progress as it goes.
 */
export interface JobSettings {
  /** ANALYSIS_JOB_MAX_COST: most network evaluations one job may cost. */
  readonly maxCost: number;
  /** ANALYSIS_JOB_ANONYMOUS_MAX_COST: most one job of a caller without an API key may cost (never more than `maxCost`). */
  readonly anonymousMaxCost?: number;
  /** Reads and plans a match file; without one, match analysis is not offered. */
  readonly planMatch?: PlanMatchAnalysis;
  /**
   * Whether a submission's file is read and priced in the analysis worker pool
   * (the workers run `planMatchAnalysis`, so only with that planner); without
   * a pool it is planned in this thread all the same.
   */
  readonly planInPool?: boolean;
  /** The match file of a session (for `{"gameId": …}`). */
  readonly matchFileOfGame?: (id: string) => Promise<{ format: MatchFileFormat; text: string }>;
}

/** A match analysis request of a match file (openapi.yaml: `format` and `text`, or `gameId`). */
type MatchFileRequest = MatchAnalysisRequest & { readonly format: MatchFileFormat; readonly text: string };

interface MatchPayload {
  readonly format: MatchFileFormat;
  readonly text: string;
  readonly plies: number;
  /** A money session's Jacoby rule instead of the file's (CUBE-5). */
  readonly jacoby?: boolean;
}

interface RolloutPayload {
  /** The rollout request, with its seed settled. */
  readonly request: RolloutJobRequest;
  readonly trials: number;
  readonly timeBudgetMs: number;
}

/** A caller the transports did not name: without an API key. */
const ANONYMOUS: AnalysisCaller = { client: 'anonymous' };

function jobId(prefix: string, what: unknown): string {
  return `${prefix}_${createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 24)}`;
}

/** The queue's answer, or 503 STORE_UNAVAILABLE when its store does not answer in time (nothing was queued). */
async function queued<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof StoreUnavailableError) fail('STORE_UNAVAILABLE', 'the job queue is unavailable; nothing was queued or changed, try again shortly');
    throw e;
  }
}

export class AnalysisJobs {
  constructor(
    private readonly queue: JobQueue,
    private readonly analysis: AnalysisService,
    private readonly settings: JobSettings,
  ) {}

  /** Whether whole-match analysis is offered. */
  get matchAnalysis(): boolean {
    return this.settings.planMatch !== undefined;
  }

  /** Refuses a job that costs more than its caller's jobs may: a caller without an API key has the smaller cap. */
  private admit(cost: number, caller: AnalysisCaller): void {
    const anonymous = caller.keyed !== true && this.settings.anonymousMaxCost !== undefined && this.settings.anonymousMaxCost < this.settings.maxCost;
    const [limit, name] = anonymous ? [this.settings.anonymousMaxCost!, 'ANALYSIS_JOB_ANONYMOUS_MAX_COST, for a caller without an API key'] : [this.settings.maxCost, 'ANALYSIS_JOB_MAX_COST'];
    if (cost <= limit) return;
    fail('ANALYSIS_TOO_COSTLY', `the job would cost about ${cost} network evaluations; the limit is ${limit} (${name})`, { estimate: cost, limit });
  }

  /** `POST /v1/analyses`: `{"format": "mat"|"sgf", "text": …, "plies": 0..2}` or `{"gameId": …, "plies": …}`. */
  async submitMatchAnalysis(input: MatchAnalysisRequest, caller: AnalysisCaller = ANONYMOUS): Promise<{ view: JobView; created: boolean }> {
    const plan = this.settings.planMatch;
    if (!plan) fail('NOT_FOUND', 'whole-match analysis is not available on this server');
    const plies = input.plies ?? ANALYSIS_LIMITS.defaultPlies;
    const jacoby = input.jacoby === undefined ? {} : { jacoby: input.jacoby };
    let file: { format: MatchFileFormat; text: string };
    if (input.gameId !== undefined) {
      if (!this.settings.matchFileOfGame) fail('INVALID_REQUEST', 'this server analyses match files only, not sessions', { field: 'gameId' });
      file = await this.settings.matchFileOfGame(input.gameId);
    } else {
      // openapi.yaml's one-of: a request without a gameId has both.
      const { format, text } = input as MatchFileRequest;
      file = { format, text };
    }
    const payload: MatchPayload = { ...file, plies, ...jacoby };
    const id = jobId('ma', payload);
    // The same file, plies and Jacoby rule are the same job: one that stands is answered without reading the file again.
    const standing = await queued(this.queue.get(id));
    if (standing && standing.status !== 'failed' && standing.status !== 'cancelled') return { view: standing, created: false };
    // Reading and replaying a long file takes a while: in a worker when there is a pool, so the event loop keeps serving.
    const options = { plies, ...jacoby };
    const planned = (this.settings.planInPool ? await this.analysis.planMatchInPool(file, options) : null) ?? plan(file, options, this.analysis);
    this.admit(planned.cost, caller);
    return queued(this.queue.submit(id, { kind: 'match-analysis', payload, total: planned.decisions, client: caller.client }));
  }

  /** `POST /v1/rollouts`: a `POST /v1/rollout` request with job-sized limits; its estimate is reported as it runs. */
  async submitRollout(input: RolloutJobRequest, caller: AnalysisCaller = ANONYMOUS): Promise<{ view: JobView; created: boolean }> {
    const trials = input.trials ?? JOB_LIMITS.defaultTrials;
    const timeBudgetMs = input.timeBudgetMs ?? JOB_LIMITS.defaultTimeBudgetMs;
    // The same request without a seed is the same job: its seed comes from the request.
    const seed = input.seed ?? parseInt(createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 7), 16);
    const step = this.rolloutStep({ ...input, seed }, 0, Math.min(trials, JOB_LIMITS.trialsPerStep), ANALYSIS_LIMITS.maxTimeBudgetMs);
    const prepared = this.analysis.engine.prepare('rollout', step);
    const steps = Math.ceil(trials / JOB_LIMITS.trialsPerStep);
    this.admit(Math.min(prepared.cost * steps, Math.ceil((prepared.cost * timeBudgetMs) / 10_000)), caller);
    const payload: RolloutPayload = { request: { ...input, seed }, trials, timeBudgetMs };
    return queued(this.queue.submit(jobId('ro', payload), { kind: 'rollout', payload, total: trials, client: caller.client }));
  }

  private rolloutStep(request: RolloutJobRequest, index: number, trials: number, timeBudgetMs: number): RolloutRequest {
    // A step is never strict itself: the job as a whole is (rolloutSteps).
    const { trials: _t, timeBudgetMs: _b, seed, strict: _s, ...rest } = request;
    return { ...rest, trials, timeBudgetMs, seed: ((seed as number) + index * 7919) % 2 ** 31 };
  }

  async get(kind: JobKind, id: string): Promise<JobView> {
    const view = await queued(this.queue.get(id));
    if (!view || view.kind !== kind) fail('JOB_NOT_FOUND', `no ${kind === 'rollout' ? 'rollout' : 'analysis'} job ${id.slice(0, 64)}`, { field: 'id' });
    return view;
  }

  async cancel(kind: JobKind, id: string): Promise<JobView> {
    await this.get(kind, id);
    const view = await queued(this.queue.cancel(id));
    if (!view) fail('JOB_NOT_FOUND', `no job ${id.slice(0, 64)}`, { field: 'id' });
    return view;
  }

  /**
   * Follows a job: `listener` gets its current view, then every change,
   * until it finishes; returns the unsubscribe.
   */
  async follow(kind: JobKind, id: string, listener: (view: JobView) => void): Promise<() => void> {
    const first = await this.get(kind, id);
    let last = first;
    listener(first);
    if (FINISHED.has(first.status)) return () => undefined;
    const stop = await this.queue.watch(id, (view) => {
      if (FINISHED.has(last.status)) return;
      last = view;
      listener(view);
    });
    // A change between the first read and the subscription is not lost.
    const now = await queued(this.queue.get(id)).catch((e: unknown) => {
      stop();
      throw e;
    });
    if (now && (now.status !== first.status || now.progress.done !== first.progress.done)) {
      last = now;
      listener(now);
    }
    return stop;
  }

  /**
   * A job's views as they change, ending with its last one (done, failed
   * or cancelled): for server-sent events and subscriptions. `return`
   * lets go of it early.
   */
  async updates(kind: JobKind, id: string): Promise<AsyncIterableIterator<JobView>> {
    const pending: JobView[] = [];
    let ended = false;
    let wake: (() => void) | null = null;
    const stop = await this.follow(kind, id, (view) => {
      pending.push(view);
      if (FINISHED.has(view.status)) ended = true;
      wake?.();
    });
    const iterator: AsyncIterableIterator<JobView> = {
      [Symbol.asyncIterator]: () => iterator,
      async next() {
        while (pending.length === 0 && !ended) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
        const view = pending.shift();
        if (view) return { value: view, done: false };
        stop();
        return { value: undefined, done: true };
      },
      async return() {
        ended = true;
        pending.length = 0;
        stop();
        wake?.();
        return { value: undefined, done: true };
      },
    };
    return iterator;
  }

  /** What a worker runs. */
  readonly processor: JobProcessor = async (request, hooks) => {
    if (request.kind === 'match-analysis') {
      const p = request.payload as MatchPayload;
      if (!this.settings.planMatch) fail('NOT_FOUND', 'whole-match analysis is not available in this worker');
      const plan = this.settings.planMatch({ format: p.format, text: p.text }, { plies: p.plies, ...(p.jacoby === undefined ? {} : { jacoby: p.jacoby }) }, this.analysis);
      return plan.run({ progress: (done, total) => hooks.progress({ done, total }), aborted: hooks.aborted });
    }
    return this.runRollout(request.payload as RolloutPayload, hooks);
  };

  /** A rollout job: steps of `trialsPerStep` trials (each its own seeded, stratified rollout), merged as they come. */
  private async runRollout(p: RolloutPayload, hooks: Parameters<JobProcessor>[1]): Promise<RolloutView> {
    const started = Date.now();
    // A cancel reaches the step in progress too (it runs in a worker thread while this one polls).
    const controller = new AbortController();
    const poll = setInterval(() => {
      if (hooks.aborted()) controller.abort();
    }, 100);
    try {
      return await this.rolloutSteps(p, hooks, started, controller.signal);
    } finally {
      clearInterval(poll);
    }
  }

  private async rolloutSteps(p: RolloutPayload, hooks: Parameters<JobProcessor>[1], started: number, signal: AbortSignal): Promise<RolloutView> {
    let merged: RolloutView | null = null;
    for (let index = 0, done = 0; done < p.trials; index++) {
      // Between steps the event loop gets its turn (a step may have run in this thread).
      await new Promise((resolve) => setImmediate(resolve));
      if (hooks.aborted()) fail('ANALYSIS_CANCELLED', 'the rollout job was cancelled');
      const left = p.timeBudgetMs - (Date.now() - started);
      if (index > 0 && left <= 0) break;
      const trials = Math.min(JOB_LIMITS.trialsPerStep, p.trials - done);
      const step = await this.analysis.rollout(this.rolloutStep(p.request, index, trials, Math.max(1, Math.min(10_000, left))), {
        client: 'rollout-job',
        budget: 0,
        signal,
      });
      merged = merged ? mergeRollouts(merged, step) : step;
      done += trials;
      hooks.progress({ done: Math.min(done, p.trials), total: p.trials, estimate: merged.estimate ?? merged.turns });
    }
    if (!merged) throw new ServiceError({ code: 'INTERNAL', message: 'the rollout job ran no step' });
    // `strict`: a job whose time budget ran out before all its trials is an error, not a smaller rollout.
    const played = merged.estimate ? merged.estimate.trials : Math.min(...(merged.turns ?? []).map((t) => t.trials));
    if (p.request.strict === true && played < p.trials) {
      fail('ANALYSIS_TIMEOUT', `the rollout job played ${played} of ${p.trials} trials within its time budget, and the request is strict`, { field: 'strict' });
    }
    return { ...merged, settings: { ...merged.settings, trials: p.trials, timeBudgetMs: p.timeBudgetMs, seed: p.request.seed as number } };
  }
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/** `combine` applied to each probability of two views. */
function eachProbability(a: ProbabilitiesView, b: ProbabilitiesView, combine: (x: number, y: number) => number): ProbabilitiesView {
  return {
    win: combine(a.win, b.win),
    winMars: combine(a.winMars, b.winMars),
    winKoks: combine(a.winKoks, b.winKoks),
    loseMars: combine(a.loseMars, b.loseMars),
    loseKoks: combine(a.loseKoks, b.loseKoks),
  };
}

/** Two independent estimates of the same thing as one: means weighted by trials, standard errors combined. */
function mergeEstimates(a: RolloutEstimateView, b: RolloutEstimateView): RolloutEstimateView {
  const n = a.trials + b.trials;
  const mean = (x: number, y: number): number => round((x * a.trials + y * b.trials) / n);
  const se = (x: number, y: number): number => round(Math.sqrt(x * x * a.trials * a.trials + y * y * b.trials * b.trials) / n);
  return {
    probabilities: eachProbability(a.probabilities, b.probabilities, mean),
    standardErrors: eachProbability(a.standardErrors, b.standardErrors, se),
    equity: mean(a.equity, b.equity),
    equityStandardError: se(a.equityStandardError, b.equityStandardError),
    trials: n,
    truncatedTrials: a.truncatedTrials + b.truncatedTrials,
    stoppedBy: b.stoppedBy,
  };
}

function estimateOf(t: RolledOutTurnView): RolloutEstimateView {
  const { probabilities, standardErrors, equity, equityStandardError, trials, truncatedTrials, stoppedBy } = t;
  return { probabilities, standardErrors, equity, equityStandardError, trials, truncatedTrials, stoppedBy };
}

export function mergeRollouts(a: RolloutView, b: RolloutView): RolloutView {
  if (a.estimate && b.estimate) return { ...a, estimate: mergeEstimates(a.estimate, b.estimate) };
  const later = new Map((b.turns ?? []).map((t) => [t.positionId, t]));
  const turns = (a.turns ?? []).map((t) => {
    const other = later.get(t.positionId);
    return other ? { ...t, ...mergeEstimates(estimateOf(t), estimateOf(other)) } : t;
  });
  turns.sort((x, y) => y.equity - x.equity);
  const best = turns.length > 0 ? turns[0].equity : 0;
  return { ...a, turns: turns.map((t, i) => ({ ...t, rank: i + 1, equityDiff: round(t.equity - best) })) };
}
