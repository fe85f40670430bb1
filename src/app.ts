import { Logger } from 'pino';
import { Config, ConfigError, readConfig } from './config';
import { throttledWarn } from './http/observability';
import { BullJobQueue, RedisTarget, jobQueueConnection } from './service/jobs/bullmq';
import { RedisCache, RedisClient, RedisSessionStore, createRedisClient, createRedisCluster, whenReady } from './service/store/redis';
import { AnalysisService } from './service/analysis/service';
import { SETTING_DEFAULTS as D } from './limits';
import { Analyzers, EvaluatorSet } from './service/analysis/evaluators';
import { DEFAULT_DATA_DIR, EvaluatorKind, evaluatorsOf, loadSharedBearoff, neuralEvaluators, sharedBearoffSource } from './service/analysis/data';
import { AnalysisPool } from './service/analysis/pool';
import { MemoryWorkBudget, RedisWorkBudget } from './service/budget';
import { MemoryJobQueue } from './service/jobs/memory';
import { AnalysisJobs, JobSettings } from './service/jobs/service';
import { JobQueue } from './service/jobs/types';
import { planMatchAnalysis } from './service/matches/analysis';
import { exportSession } from './service/matches/sessions';
import { HotCache } from './service/cache';
import { checkMemoryPolicy } from './service/store/redis-policy';
import { cryptoSeeds, SeedSource } from './service/sessions/fairness';
import { GameSessions } from './service/sessions/service';
import { Services } from './service/services';
import { MemoryCache, MemorySessionStore } from './service/store/memory';
import { Cache, SessionStore } from './service/store/types';

export type { Services } from './service/services';

/*
 * The composition root: the one place that builds the services, from
 * options (tests, embedders: anything not given is the in-memory default) or
 * from the configuration of a process (`npm start`: src/main.ts; `npm run
 * worker`: src/worker.ts; the cluster test server), with Redis when
 * configured, and the settings the transports take from the configuration.
 */

export interface ServiceOptions {
  store?: SessionStore;
  cacheStore?: Cache;
  seeds?: SeedSource;
  gameTtlSeconds?: number;
  cacheTtlSeconds?: number;
  /** CACHE_MAX_MB in bytes: the bound of the in-process cache (when `cacheStore` is not given). */
  cacheMaxBytes?: number;
  idempotencyTtlSeconds?: number;
  now?: () => Date;
  /** Evaluators of the analysis endpoints (default: the trained networks under data/, read on first use). */
  evaluators?: EvaluatorSet;
  /** Wall-clock budget of one analysis search (ANALYSIS_BUDGET_MS). */
  analysisBudgetMs?: number;
  /**
   * Analysis in worker threads (ANALYSIS_WORKERS > 0): the evaluator kind
   * the workers load (instead of `evaluators`) and the queue bound.
   */
  analysisPool?: { workers: number; queueMax: number; evaluator: EvaluatorKind; dataDir?: string; nice?: number } | null;
  /** ANALYSIS_MAX_COST and ANALYSIS_INLINE_COST. */
  analysisMaxCost?: number;
  analysisInlineCost?: number;
  /** ANALYSIS_RATE_BUDGET evaluations per client and window (counted in `redis` when given). */
  analysisRateBudget?: { perWindow: number; windowSeconds: number; redis?: RedisClient | null; onRedisFailure?: (error: unknown) => void };
  /** MAX_GAMES: the bound of the in-memory session store (when `store` is not given). */
  maxGames?: number;
  /** UNSTARTED_GAME_TTL_SECONDS and FINISHED_GAME_TTL_SECONDS (default: the game TTL). */
  unstartedGameTtlSeconds?: number;
  finishedGameTtlSeconds?: number;
  /** GAME_CREATE_LIMIT games per client and window, counted like the analysis budget (same window and Redis). */
  gameCreateLimit?: number;
  /** Told of each session-store failure (main.ts logs them throttled). */
  onStoreError?: (error: unknown) => void;
  /**
   * Analysis jobs: the queue (default: in this process, results kept
   * `ttlSeconds`), whether this process works it and how many jobs at once,
   * the cost cap of one job, and how match files are read and planned.
   */
  jobs?: {
    queue?: JobQueue;
    ttlSeconds?: number;
    work?: boolean;
    concurrency?: number;
  } & Partial<JobSettings>;
}

/** Counts per client and window: in Redis when there is one (with the in-process fallback), else here. */
function workBudget(rate: NonNullable<ServiceOptions['analysisRateBudget']> | undefined, prefix: string) {
  const windowSeconds = rate?.windowSeconds ?? D.rateLimitWindowSeconds;
  return rate?.redis ? new RedisWorkBudget(rate.redis, windowSeconds, prefix, rate.onRedisFailure) : new MemoryWorkBudget(windowSeconds);
}

/** Builds the services; anything not given is the embedded in-memory default. */
export function buildServices(options: ServiceOptions = {}): Services {
  const store = options.store ?? new MemorySessionStore(Date.now, { maxGames: options.maxGames });
  const cacheStore = options.cacheStore ?? new MemoryCache(undefined, options.cacheMaxBytes);
  const cache = new HotCache(cacheStore, options.cacheTtlSeconds ?? D.cacheTtlSeconds);
  const analysis = analysisService(options, cache);
  const jobQueue = options.jobs?.queue ?? new MemoryJobQueue(options.jobs?.ttlSeconds ?? D.jobResultTtlSeconds);
  const sessions = new GameSessions({
    store,
    seeds: options.seeds ?? cryptoSeeds,
    ttlSeconds: options.gameTtlSeconds ?? D.gameTtlSeconds,
    unstartedTtlSeconds: options.unstartedGameTtlSeconds,
    onStoreError: options.onStoreError,
    finishedTtlSeconds: options.finishedGameTtlSeconds,
    createBudget: options.gameCreateLimit ? { perWindow: options.gameCreateLimit, counter: workBudget(options.analysisRateBudget, 'nardy:games') } : undefined,
    idempotencyTtlSeconds: options.idempotencyTtlSeconds ?? D.idempotencyTtlSeconds,
    now: options.now ?? (() => new Date()),
  });
  const jobs = new AnalysisJobs(jobQueue, analysis, {
    maxCost: options.jobs?.maxCost ?? D.analysisJobMaxCost,
    anonymousMaxCost: options.jobs?.anonymousMaxCost ?? D.analysisJobAnonymousMaxCost,
    planMatch: options.jobs?.planMatch ?? planMatchAnalysis,
    planInPool: options.jobs?.planMatch === undefined,
    // A session is analysed from its match file as it stands when the job is submitted.
    matchFileOfGame: options.jobs?.matchFileOfGame ?? (async (id) => ({ format: 'mat', text: await exportSession(sessions, id, 'mat') })),
  });
  const services: Services = { store, cacheStore, cache, analysis, jobs, jobQueue, sessions };
  if (options.jobs?.work ?? true) jobQueue.work(services.jobs.processor, options.jobs?.concurrency ?? D.jobConcurrency);
  return services;
}

/**
 * The analysis service: with a worker pool, the bear-off databases are read
 * once into shared memory and used by this thread and every worker alike.
 */
function analysisService(options: ServiceOptions, cache: HotCache): AnalysisService {
  const poolOptions = options.analysisPool && options.analysisPool.workers > 0 ? options.analysisPool : null;
  let evaluators = options.evaluators ?? neuralEvaluators();
  let pool: AnalysisPool | null = null;
  if (poolOptions) {
    const dataDir = poolOptions.dataDir ?? DEFAULT_DATA_DIR;
    const bearoff = loadSharedBearoff(dataDir);
    evaluators = options.evaluators ?? evaluatorsOf(poolOptions.evaluator, dataDir, sharedBearoffSource(bearoff));
    pool = new AnalysisPool({
      workers: poolOptions.workers,
      queueMax: poolOptions.queueMax,
      setup: { evaluator: poolOptions.evaluator, dataDir, nice: poolOptions.nice ?? D.analysisWorkerNice, searchBudgetMs: options.analysisBudgetMs ?? D.analysisBudgetMs, bearoff },
    });
  }
  const rate = options.analysisRateBudget;
  return new AnalysisService(new Analyzers(evaluators), cache, {
    searchBudgetMs: options.analysisBudgetMs,
    maxCost: options.analysisMaxCost,
    inlineCost: options.analysisInlineCost,
    pool,
    budget:
      rate && rate.perWindow > 0
        ? {
            perWindow: rate.perWindow,
            counter: workBudget(rate, 'nardy'),
          }
        : null,
  });
}

/** The configuration, or the process ends with exit code 2 and the reason. */
export function configOrExit(): Config {
  try {
    return readConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

export function connectRedis(config: Config): RedisClient | null {
  if (config.redisClusterNodes) return createRedisCluster(config.redisClusterNodes);
  if (config.redisUrl) return createRedisClient(config.redisUrl);
  return null;
}

/** Where the job queue's Redis is: the configured cluster or server. */
function queueTarget(config: Config): RedisTarget {
  return config.redisClusterNodes ? { nodes: config.redisClusterNodes } : { url: config.redisUrl! };
}

/**
 * The services of a process. `worksJobs`: whether this process takes jobs
 * from the queue (the API process does unless JOB_WORKER=false; a worker
 * process always does).
 */
export async function servicesFrom(config: Config, redis: RedisClient | null, log: Logger, worksJobs: boolean): Promise<Services> {
  // The evaluators' files are read now, so a missing or corrupt network stops the start with its path.
  const evaluators = evaluatorsOf(config.evaluator);
  try {
    evaluators.preload?.();
  } catch (e) {
    process.stderr.write(`evaluator data error: ${(e as Error).message}\n`);
    process.exit(2);
  }
  log.info({ evaluator: evaluators.kind, analysisWorkers: config.analysisWorkers }, 'evaluators loaded');
  const options = {
    // With worker threads the evaluators are made from the kind (over shared bear-off tables), in every thread alike.
    ...(config.analysisWorkers > 0 ? {} : { evaluators }),
    analysisPool:
      config.analysisWorkers > 0 ? { workers: config.analysisWorkers, queueMax: config.analysisQueueMax, evaluator: config.evaluator, nice: config.analysisWorkerNice } : null,
    analysisMaxCost: config.analysisMaxCost,
    analysisInlineCost: config.analysisInlineCost,
    analysisRateBudget: {
      perWindow: config.analysisRateBudget,
      windowSeconds: config.rateLimitWindowSeconds,
      redis,
      onRedisFailure: (error: unknown) => log.warn({ err: String(error) }, 'rate budget: Redis is not answering; counting in this process until it does'),
    },
    analysisBudgetMs: config.analysisBudgetMs,
    gameTtlSeconds: config.gameTtlSeconds,
    unstartedGameTtlSeconds: config.unstartedGameTtlSeconds,
    finishedGameTtlSeconds: config.finishedGameTtlSeconds,
    maxGames: config.maxGames,
    gameCreateLimit: config.gameCreateLimit,
    onStoreError: throttledWarn(log, 'session store: not answering; sessions answer 503'),
    cacheTtlSeconds: config.cacheTtlSeconds,
    cacheMaxBytes: config.cacheMaxMb * 1024 * 1024,
    idempotencyTtlSeconds: config.idempotencyTtlSeconds,
    jobs: {
      ...(redis ? { queue: new BullJobQueue({ connect: (role) => jobQueueConnection(queueTarget(config), role), ttlSeconds: config.jobResultTtlSeconds, lockMs: config.jobLockSeconds * 1000, prefix: config.jobQueuePrefix }) } : {}),
      ttlSeconds: config.jobResultTtlSeconds,
      work: worksJobs,
      concurrency: config.jobConcurrency,
      maxCost: config.analysisJobMaxCost,
      anonymousMaxCost: config.analysisJobAnonymousMaxCost,
    },
  };
  if (!redis) {
    log.info('no REDIS_URL: sessions, cache and jobs are kept in this process');
    return buildServices(options);
  }
  const ready = await whenReady(redis, 5000);
  if (ready) log.info({ cluster: config.redisClusterNodes !== null }, 'redis ready');
  else log.warn('redis not reachable yet: sessions answer 503 until it is; reconnecting');
  const check = config.redisPolicyCheck;
  if (check !== 'off') {
    if (ready) await judgeRedisPolicy(redis, check, log);
    else redis.once('ready', () => void judgeRedisPolicy(redis, check, log));
  }
  const cacheStore = new RedisCache(redis, 'nardy', undefined, { maxBytes: config.cacheMaxMb * 1024 * 1024, windowSeconds: config.cacheTtlSeconds });
  return buildServices({ store: new RedisSessionStore(redis), cacheStore, ...options });
}

/**
 * Checks Redis's maxmemory policy against what the service keeps there: a
 * policy that may evict games in play stops the process (exit 2) unless
 * REDIS_POLICY_CHECK=warn; no maxmemory is a warning.
 */
async function judgeRedisPolicy(redis: RedisClient, mode: 'refuse' | 'warn', log: Logger): Promise<void> {
  const verdict = await checkMemoryPolicy(redis);
  if (verdict.level === 'ok') {
    log.info(verdict.message);
    return;
  }
  if (verdict.level === 'refuse' && mode === 'refuse') {
    log.fatal(`${verdict.message} (REDIS_POLICY_CHECK=warn starts anyway)`);
    process.stderr.write(`configuration error: ${verdict.message}\n`);
    process.exit(2);
  }
  log.warn(verdict.message);
}
