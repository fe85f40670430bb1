import { createServer } from 'http';
import { ConfigError, readConfig } from './config';
import { createApp } from './http/app';
import { attachSubscriptions } from './graphql/subscriptions';
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
  log.info({ evaluator: evaluators.kind }, 'evaluators loaded');
  const ttl = {
    evaluators,
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
  });
  const server = createServer(app.app);
  attachSubscriptions(server, app);
  server.listen(config.port, config.host, () => log.info({ host: config.host, port: config.port }, 'listening'));

  // Graceful shutdown: stop accepting, let in-flight requests finish, close Redis.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    app.drain();
    server.close(() => {
      void app
        .close()
        .then(() => redis?.quit())
        .catch(() => undefined)
        .finally(() => {
          log.info('stopped');
          process.exit(0);
        });
    });
    server.closeIdleConnections();
    setTimeout(() => {
      log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
