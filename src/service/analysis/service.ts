import { CachedAnswer, HotCache } from '../cache';
import { ServiceError, fail } from '../errors';
import { WorkBudget } from '../budget';
import { AnalysisOperation } from './cost';
import { RolloutTrials, mergeRolloutTrials, trialRanges } from '../../eval/neural/rollout';
import { AnalysisEngine, AnalysisRequests, BestMovesQuery, PositionRequest, PreparedAnalysis, RolloutSplit, RunControl } from './engine';
import { EvaluateBatchRequest, EvaluateRequest, RolloutRequest } from '../../contract/requests';
import { Analyzers } from './evaluators';
import { AnalysisPool, PoolStats } from './pool';
import { MatchPlanFile, MatchPlanOptions, MatchPlanSummary } from './pool-protocol';
import { BatchItemView, BestMovesView, EvaluationBatchView, EvaluationView, RolloutView } from './views';

import { SETTING_DEFAULTS } from '../../limits';

/** Who asks for an analysis, and how to tell when they stop waiting. */
export interface AnalysisCaller {
  /** Whose budget pays: `key:<name>` for an API key, `ip:<address>` otherwise. */
  readonly client: string;
  /** Whether the caller showed a known API key; a caller without one is anonymous (its jobs have a smaller cap). */
  readonly keyed?: boolean;
  /** This caller's evaluations per window (an API key's own budget); the default budget when absent. */
  readonly budget?: number;
  /** Aborts when the client goes away: a search in progress then stops. */
  readonly signal?: AbortSignal;
  /** When the request arrived (`epochClock`); budgets count from here, waiting included. */
  readonly arrival?: number;
}

/** Why an analysis request was refused before it ran (metrics). */
export type RefusalReason = 'cost' | 'rate' | 'busy' | 'timeout';

/** What the metrics hear of analysis. */
export interface AnalysisObserver {
  refused(reason: RefusalReason): void;
  waited(seconds: number): void;
}

export interface AnalysisSettings {
  /** ANALYSIS_BUDGET_MS: wall-clock budget of one search. */
  readonly searchBudgetMs?: number;
  /** Milliseconds (tests inject one); the default counts from the epoch, as the workers do. */
  readonly clock?: () => number;
  /** ANALYSIS_MAX_COST: the most evaluations one request (or one GraphQL document) may cost. */
  readonly maxCost?: number;
  /** ANALYSIS_INLINE_COST: requests that cost at most this run in the request thread (a worker's round trip costs more). */
  readonly inlineCost?: number;
  /** The worker pool; without one every analysis runs in the request thread. */
  readonly pool?: AnalysisPool | null;
  /** Per-client evaluation budgets (ANALYSIS_RATE_BUDGET per RATE_LIMIT_WINDOW_SECONDS); none: unlimited. */
  readonly budget?: { readonly counter: WorkBudget; readonly perWindow: number } | null;
}


const ANONYMOUS: AnalysisCaller = { client: 'anonymous' };

/** A rollout split over the idle workers is cut into about this many ranges per worker (load balance). */
const RANGES_PER_WORKER = 4;

/**
 * A worker plays a range of a split rollout for at most this many
 * milliseconds, then hands the rest back: a request that arrives meanwhile
 * waits for one slice, not for the whole rollout.
 */
const ROLLOUT_SLICE_MS = 250;

/**
 * Position analysis for the transports: evaluation with cube decisions,
 * ranked best turns and rollouts. Every request is read and priced here in
 * the request thread (engine.ts, cost.ts), refused when it costs more than
 * one request may (422 ANALYSIS_TOO_COSTLY) or than its client has left
 * (429), answered from the hot-position cache when it can be (keys carry
 * the evaluator's name and version, so new weights never serve stale
 * answers), and otherwise run: cheap requests here, the others in the
 * worker pool (pool.ts).
 */
export class AnalysisService {
  readonly engine: AnalysisEngine;
  private readonly maxCost: number;
  private readonly inlineCost: number;
  private readonly pool: AnalysisPool | null;
  private observer: AnalysisObserver | null = null;

  constructor(
    private readonly analyzers: Analyzers,
    private readonly cache?: HotCache,
    private readonly settings: AnalysisSettings = {},
  ) {
    this.engine = new AnalysisEngine(analyzers, { searchBudgetMs: settings.searchBudgetMs, clock: settings.clock });
    this.maxCost = settings.maxCost ?? SETTING_DEFAULTS.analysisMaxCost;
    this.inlineCost = settings.inlineCost ?? SETTING_DEFAULTS.analysisInlineCost;
    this.pool = settings.pool ?? null;
    if (this.pool) this.pool.onWait = (seconds) => this.observer?.waited(seconds);
  }

  /** The evaluator kind in use (`neural`, `heuristic`, `fake`). */
  get kind(): string {
    return this.analyzers.evaluators.kind;
  }

  /** The most evaluations one request may cost. */
  get costLimit(): number {
    return this.maxCost;
  }

  observe(observer: AnalysisObserver): void {
    this.observer = observer;
  }

  stats(): PoolStats {
    return this.pool?.stats() ?? { workers: 0, busy: 0, queued: 0 };
  }

  /** Lets accepted analyses finish and stops the workers. */
  async close(): Promise<void> {
    await this.pool?.close();
  }

  /**
   * Reads, replays and prices a match file in a worker, so a large file does
   * not hold the event loop (a file's 400 comes back as the reader threw it);
   * null when there is no pool (the caller plans in this thread).
   */
  async planMatchInPool(file: MatchPlanFile, options: MatchPlanOptions, signal?: AbortSignal): Promise<MatchPlanSummary | null> {
    if (!this.pool) return null;
    return (await this.pool.run({ op: 'plan-match', file, options, deadline: this.engine.clock() + this.engine.budgetMs }, signal)) as MatchPlanSummary;
  }

  /** The estimated cost of a request in evaluations, or 0 when it is not a valid request (its error comes when it runs). */
  cost<O extends AnalysisOperation>(op: O, input: AnalysisRequests[O]): number {
    try {
      if (op === 'batch') return this.engine.prepareBatch(input as EvaluateBatchRequest).reduce((sum, item) => sum + (item.ok ? item.prepared.cost : 0), 0);
      return this.engine.prepare(op as Exclude<AnalysisOperation, 'batch'>, input as PositionRequest).cost;
    } catch (e) {
      if (e instanceof ServiceError) return 0;
      throw e;
    }
  }

  /** `POST /v1/evaluate`: probabilities, equity, pips and (with `cube` or `match`) the cube decision. */
  evaluate(input: EvaluateRequest, caller: AnalysisCaller = ANONYMOUS): Promise<CachedAnswer<EvaluationView>> {
    return this.cached<EvaluationView>(this.engine.prepare('evaluate', input), caller);
  }

  /** `POST /v1/moves/best`: every legal turn of the roll (or pending stage), best first, with its evaluation. */
  bestMoves(input: BestMovesQuery, caller: AnalysisCaller = ANONYMOUS): Promise<CachedAnswer<BestMovesView>> {
    return this.cached<BestMovesView>(this.engine.prepare('best', input), caller);
  }

  /** `POST /v1/rollout`: Monte Carlo rollouts, bounded by `trials` and `timeBudgetMs` (not cached). */
  async rollout(input: RolloutRequest, caller: AnalysisCaller = ANONYMOUS): Promise<RolloutView> {
    const arrival = caller.arrival ?? this.engine.clock();
    const prepared = this.engine.prepare('rollout', input);
    this.admit(prepared.cost);
    await this.charge(caller, prepared.cost);
    return (await this.execute(prepared, caller, arrival + prepared.timeBudgetMs)) as RolloutView;
  }

  /**
   * `POST /v1/evaluate/batch`: `{"positions": [...]}`, each an evaluate
   * request; answers in order, each an evaluation or its own error. Items
   * come from the cache where they can; the rest run together.
   */
  async evaluateBatch(input: EvaluateBatchRequest, caller: AnalysisCaller = ANONYMOUS): Promise<EvaluationBatchView> {
    const arrival = caller.arrival ?? this.engine.clock();
    const items = this.engine.prepareBatch(input);
    this.admit(items.reduce((sum, item) => sum + (item.ok ? item.prepared.cost : 0), 0));
    const results: BatchItemView[] = new Array(items.length);
    const misses: { index: number; prepared: PreparedAnalysis }[] = [];
    for (const [index, item] of items.entries()) {
      if (!item.ok) {
        results[index] = { index, error: item.error };
        continue;
      }
      const hit = this.cache && item.prepared.cacheKey ? await this.cache.peek(item.prepared.cacheKey) : null;
      if (hit !== null) results[index] = { index, evaluation: JSON.parse(hit) as EvaluationView };
      else misses.push({ index, prepared: item.prepared });
    }
    if (misses.length > 0) {
      const cost = misses.reduce((sum, m) => sum + m.prepared.cost, 0);
      await this.charge(caller, cost);
      const deadline = this.engine.batchDeadline(arrival);
      const computed =
        !this.pool || cost <= this.inlineCost
          ? this.engine.runBatch(misses, this.control(deadline, caller.signal))
          : ((await this.pool.run(
              { op: 'batch', inputs: misses.map((m) => m.prepared.input as EvaluateRequest), indices: misses.map((m) => m.index), deadline },
              caller.signal,
            )) as BatchItemView[]);
      for (const [k, result] of computed.entries()) {
        results[result.index] = result;
        const key = misses[k].prepared.cacheKey;
        const e = result.evaluation;
        if (this.cache && key && e && e.evaluator.plies === e.evaluator.requestedPlies) await this.cache.put(key, JSON.stringify(e));
      }
    }
    return { count: results.length, results };
  }

  /** Refuses a request that costs more than one request may. */
  private admit(cost: number): void {
    if (cost <= this.maxCost) return;
    this.observer?.refused('cost');
    fail('ANALYSIS_TOO_COSTLY', `the request would cost about ${cost} network evaluations; the limit is ${this.maxCost} (ANALYSIS_MAX_COST)`, {
      estimate: cost,
      limit: this.maxCost,
    });
  }

  /** Charges the caller's budget; refuses with 429 when it would run out, with 422 when it could never fit. */
  private async charge(caller: AnalysisCaller, cost: number): Promise<void> {
    const budget = this.settings.budget;
    if (!budget) return;
    const perWindow = caller.budget ?? budget.perWindow;
    if (perWindow <= 0) return;
    // Waiting can never make a request fit a window smaller than its cost: refused as too costly, not "retry later".
    if (cost > perWindow) {
      this.observer?.refused('cost');
      fail('ANALYSIS_TOO_COSTLY', `the request would cost about ${cost} network evaluations, more than the ${perWindow} this caller may spend per window`, {
        estimate: cost,
        limit: perWindow,
      });
    }
    const charge = await budget.counter.charge(caller.client, cost, perWindow);
    if (charge.allowed) return;
    this.observer?.refused('rate');
    fail('RATE_LIMITED', `this request would cost about ${cost} network evaluations and ${perWindow - charge.used} are left of ${perWindow} in this window`, {
      retryAfter: charge.resetSeconds,
      estimate: cost,
      limit: perWindow,
    });
  }

  private cached<T>(prepared: PreparedAnalysis, caller: AnalysisCaller): Promise<CachedAnswer<T>> {
    const arrival = caller.arrival ?? this.engine.clock();
    this.admit(prepared.cost);
    const compute = async (): Promise<T> => {
      await this.charge(caller, prepared.cost);
      return (await this.execute(prepared, caller, arrival + this.engine.budgetMs)) as T;
    };
    if (!this.cache || !prepared.cacheKey) {
      return compute().then((value) => ({ json: JSON.stringify(value), value, cache: 'BYPASS' as const }));
    }
    // An answer the budget cut short is not kept: a later request may get the full depth (and a strict one must).
    return this.cache.through(prepared.cacheKey, compute, (value) => {
      const evaluator = (value as { evaluator?: { plies: number; requestedPlies: number } }).evaluator;
      return !evaluator || evaluator.plies === evaluator.requestedPlies;
    });
  }

  private control(deadline: number, signal?: AbortSignal): RunControl {
    return { deadline, aborted: () => signal?.aborted === true };
  }

  /** Runs a prepared request: in this thread when cheap (or with no pool), else in a worker. */
  private async execute(prepared: PreparedAnalysis, caller: AnalysisCaller, deadline: number): Promise<unknown> {
    try {
      if (!this.pool || prepared.cost <= this.inlineCost) return prepared.run(this.control(deadline, caller.signal));
      if (prepared.split && this.pool.idle() >= 2) return await this.splitRollout(this.pool, prepared.split, prepared.input as RolloutRequest, caller, deadline);
      return await this.pool.run({ op: prepared.op as Exclude<AnalysisOperation, 'batch'>, input: prepared.input, deadline }, caller.signal);
    } catch (e) {
      if (e instanceof ServiceError && e.body.code === 'ANALYSIS_BUSY') this.observer?.refused('busy');
      if (e instanceof ServiceError && e.body.code === 'ANALYSIS_TIMEOUT') this.observer?.refused('timeout');
      throw e;
    }
  }

  /**
   * A whole-position rollout over the workers idle when it starts (two at
   * least): its trials are cut into ranges of whole blocks of 36
   * (`trialRanges`, about RANGES_PER_WORKER per worker), each played as a
   * pool task with the request's seed for at most ROLLOUT_SLICE_MS; the
   * trials a slice did not reach go back into the list, in trial order. Each
   * of the idle workers runs one slice at a time and asks for the next when
   * it is done, so a request arriving meanwhile is queued before that next
   * slice: the rollout never holds more than the workers that were idle, nor
   * keeps a newcomer waiting longer than one slice.
   *
   * The slices are merged in trial order (`mergeRolloutTrials`), so the
   * answer is exactly the one-worker answer. When the deadline passes, the
   * slices running stop at it, no new slice starts, and trials past the
   * first trial not played are dropped: a partial answer is the serial
   * rollout of its first trials. A caller that leaves cancels every slice.
   */
  private async splitRollout(pool: AnalysisPool, split: RolloutSplit, input: RolloutRequest, caller: AnalysisCaller, deadline: number): Promise<unknown> {
    const workers = pool.idle();
    const pending = trialRanges(split.trials, workers * RANGES_PER_WORKER);
    const body = { ...input, seed: split.seed };
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    if (caller.signal?.aborted) stop.abort();
    caller.signal?.addEventListener('abort', onAbort, { once: true });
    const parts: RolloutTrials[] = [];
    const running = new Set<Promise<void>>();
    let cancelled = false;
    let failure: { error: unknown } | null = null;
    let first = true;
    const slice = async (range: { firstTrial: number; trials: number }, admitted: boolean): Promise<void> => {
      try {
        const task = { op: 'rollout-range' as const, input: body, ...range, sliceMs: ROLLOUT_SLICE_MS, deadline };
        const played = (await pool.run(task, stop.signal, admitted)) as RolloutTrials;
        parts.push(played);
        if (played.stoppedBy === 'cancelled') cancelled = true;
        const n = played.truncated.length;
        if (n < range.trials) {
          // The rest of the range goes back in trial order: the earliest trials are played first.
          const rest = { firstTrial: range.firstTrial + n, trials: range.trials - n };
          const at = pending.findIndex((r) => r.firstTrial > rest.firstTrial);
          pending.splice(at < 0 ? pending.length : at, 0, rest);
        }
      } catch (error) {
        // The other slices stop too, and the answer waits for them: no worker is left busy with this rollout.
        failure ??= { error };
        stop.abort();
      }
    };
    /** Starts slices while a worker of the rollout is free: the first always (a rollout plays at least one trial), the others before the deadline. */
    const fill = (): void => {
      while (running.size < workers && pending.length > 0 && !failure && !cancelled && !stop.signal.aborted && (first || this.engine.clock() < deadline)) {
        const admitted = !first;
        first = false;
        const started: Promise<void> = slice(pending.shift()!, admitted).then(() => {
          running.delete(started);
          fill();
        });
        running.add(started);
      }
    };
    try {
      fill();
      while (running.size > 0) await Promise.race(running);
    } finally {
      caller.signal?.removeEventListener('abort', onAbort);
    }
    if (failure) throw (failure as { error: unknown }).error;
    if (stop.signal.aborted || cancelled) fail('ANALYSIS_CANCELLED', 'the rollout was cancelled: its client went away');
    return split.answer(mergeRolloutTrials(parts, split.trials));
  }
}
