import { createServer } from 'http';
import { Server as NetServer } from 'net';
import { ConfigError, readConfig } from './config';
import { createApp } from './http/app';
import { createLogger } from './http/observability';
import { buildServices } from './http/services';
import { evaluatorsOf } from './service/analysis/data';
import { RedisCache, RedisClient, RedisSessionStore, createRedisClient, createRedisCluster, whenReady } from './service/store/redis';

/** Starts the service: `npm start`. Configuration comes from the environment (README). */
async function main(): Promise<void> {
  let config;
  try {
    config = readConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);

  let redis: RedisClient | null = null;
  if (config.redisClusterNodes) redis = createRedisCluster(config.redisClusterNodes);
  else if (config.redisUrl) redis = createRedisClient(config.redisUrl);
  // The evaluators' files are read now, so a missing or corrupt network stops the start with its path.
  const evaluators = evaluatorsOf(config.evaluator);
  try {
    evaluators.preload?.();
  } catch (e) {
    process.stderr.write(`evaluator data error: ${(e as Error).message}\n`);
    process.exit(2);
  }
  log.info({ evaluator: evaluators.kind, analysisWorkers: config.analysisWorkers }, 'evaluators loaded');
  const ttl = {
    // With worker threads the evaluators are made from the kind (over shared bear-off tables), in every thread alike.
    ...(config.analysisWorkers > 0 ? {} : { evaluators }),
    analysisPool:
      config.analysisWorkers > 0 ? { workers: config.analysisWorkers, queueMax: config.analysisQueueMax, evaluator: config.evaluator } : null,
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
    cacheTtlSeconds: config.cacheTtlSeconds,
    idempotencyTtlSeconds: config.idempotencyTtlSeconds,
  };
  let services;
  if (redis) {
    const ready = await whenReady(redis, 5000);
    if (ready) log.info({ cluster: config.redisClusterNodes !== null }, 'redis ready');
    else log.warn('redis not reachable yet: sessions answer 503 until it is; reconnecting');
    services = buildServices({ store: new RedisSessionStore(redis), cacheStore: new RedisCache(redis), ...ttl });
  } else {
    services = buildServices(ttl);
    log.info('no REDIS_URL: sessions and cache are kept in this process');
  }
  const app = await createApp({
    services,
    redis,
    log,
    bodyLimit: config.bodyLimit,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    rateLimit: { max: config.rateLimitMax, windowSeconds: config.rateLimitWindowSeconds },
    graphqlLimits: {
      maxDepth: config.graphqlMaxDepth,
      maxAliases: config.graphqlMaxAliases,
      maxComplexity: config.graphqlMaxComplexity,
    },
    validateResponses: false,
    apiKeys: config.apiKeys,
    metricsToken: config.metricsToken,
  });
  const server = createServer(app.app);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    log.info({ host: config.host, port: typeof address === 'object' && address ? address.port : config.port }, 'listening');
  });

  /*
   * Graceful shutdown that loses no accepted request: /ready fails and every
   * answer from now on closes its connection; the listener stops taking new
   * connections, but connections already open are not cut (a request may be
   * on its way on an idle keep-alive connection): each closes after its next
   * answer or when idle past the keep-alive timeout. When the last one has
   * closed, accepted analyses are already answered; the pool stops, Redis
   * quits, the process exits — or it exits anyway after SHUTDOWN_TIMEOUT_SECONDS.
   */
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    app.drain();
    // net.Server's close: stop listening only (http.Server's also drops idle keep-alive connections).
    NetServer.prototype.close.call(server, () => {
      void app
        .close()
        .then(() => redis?.quit())
        .catch(() => undefined)
        .finally(() => {
          log.info('stopped');
          process.exit(0);
        });
    });
    setTimeout(() => {
      log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
