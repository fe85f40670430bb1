import Redis, { Cluster } from 'ioredis';
import { Logger } from 'pino';
import { Config, ConfigError, readConfig } from './config';
import { throttledWarn } from './http/observability';
import { Services, buildServices } from './http/services';
import { evaluatorsOf } from './service/analysis/data';
import { BullJobQueue } from './service/jobs/bullmq';
import { RedisCache, RedisClient, RedisSessionStore, createRedisClient, createRedisCluster, whenReady } from './service/store/redis';

/*
 * The composition root of the processes (`npm start`: src/main.ts;
 * `npm run worker`: src/worker.ts): configuration read once, Redis
 * connected when configured, and the services built from both.
 */

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

/**
 * A connection for the job queue: BullMQ's blocking commands want no
 * per-request retry limit, unlike the fail-fast client of the stores.
 */
function queueConnection(config: Config): RedisClient {
  const connection = config.redisClusterNodes
    ? new Cluster(config.redisClusterNodes, { redisOptions: { maxRetriesPerRequest: null } })
    : new Redis(config.redisUrl!, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined);
  return connection;
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
    idempotencyTtlSeconds: config.idempotencyTtlSeconds,
    jobs: {
      ...(redis ? { queue: new BullJobQueue({ connect: () => queueConnection(config), ttlSeconds: config.jobResultTtlSeconds, lockMs: config.jobLockSeconds * 1000, prefix: config.jobQueuePrefix }) } : {}),
      ttlSeconds: config.jobResultTtlSeconds,
      work: worksJobs,
      concurrency: config.jobConcurrency,
      maxCost: config.analysisJobMaxCost,
    },
  };
  if (!redis) {
    log.info('no REDIS_URL: sessions, cache and jobs are kept in this process');
    return buildServices(options);
  }
  const ready = await whenReady(redis, 5000);
  if (ready) log.info({ cluster: config.redisClusterNodes !== null }, 'redis ready');
  else log.warn('redis not reachable yet: sessions answer 503 until it is; reconnecting');
  return buildServices({ store: new RedisSessionStore(redis), cacheStore: new RedisCache(redis), ...options });
}
