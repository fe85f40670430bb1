import { createServer } from 'http';
import { ConfigError, readConfig } from '../../src/config';
import { createApp } from '../../src/http/app';
import { attachSubscriptions } from '../../src/graphql/subscriptions';
import { createLogger } from '../../src/http/observability';
import { buildServices } from '../../src/http/services';
import { RedisCache, RedisSessionStore, createRedisCluster, whenReady } from '../../src/service/store/redis';

/*
 * The service on a Redis Cluster, wired by hand: what src/main.ts does when
 * REDIS_CLUSTER_NODES is set (`host:port,host:port,…`, seed nodes of the
 * cluster; they take precedence over REDIS_URL). test/cluster/cluster.test.ts
 * starts two of these on different ports against one cluster.
 *
 *   REDIS_CLUSTER_NODES=127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103 PORT=3001 npx tsx test/cluster/server.ts
 *
 * Reads the same environment as main.ts (src/config.ts) and shuts down the
 * same way: SIGTERM → /ready 503 → close the listener → exit 0.
 */
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
  if (!config.redisClusterNodes) {
    process.stderr.write('configuration error: REDIS_CLUSTER_NODES must be set (host:port,host:port,…)\n');
    process.exit(2);
  }
  const log = createLogger(config.logLevel);

  // One Cluster client: sessions (hash-tagged keys, single-slot Lua), the cache and the rate-limit counts.
  const cluster = createRedisCluster(config.redisClusterNodes);
  const ready = await whenReady(cluster, 10_000);
  log.info(
    { nodes: config.redisClusterNodes.map((n) => `${n.host}:${n.port}`), ready },
    ready ? 'redis cluster ready' : 'redis cluster not reachable yet',
  );

  const services = buildServices({
    store: new RedisSessionStore(cluster),
    cacheStore: new RedisCache(cluster),
    gameTtlSeconds: config.gameTtlSeconds,
    cacheTtlSeconds: config.cacheTtlSeconds,
    idempotencyTtlSeconds: config.idempotencyTtlSeconds,
  });
  const app = await createApp({
    services,
    redis: cluster,
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
  });
  const server = createServer(app.app);
  attachSubscriptions(server, app);
  server.listen(config.port, config.host, () =>
    log.info({ host: config.host, port: config.port, pid: process.pid }, 'listening'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'draining');
    app.drain();
    setTimeout(() => process.exit(1), config.shutdownTimeoutSeconds * 1000).unref();
    server.close(() => {
      void app
        .close()
        .then(() => cluster.quit())
        .catch(() => undefined)
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
