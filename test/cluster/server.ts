import { createServer } from 'http';
import { configOrExit, connectRedis, servicesFrom } from '../../src/app';
import { transportSettings } from '../../src/http/settings';
import { createApp } from '../../src/http/app';
import { attachSubscriptions } from '../../src/graphql/subscriptions';
import { createLogger } from '../../src/http/observability';

/*
 * The service on a Redis Cluster, as a plain server: what src/main.ts does
 * when REDIS_CLUSTER_NODES is set (`host:port,host:port,…`, seed nodes of the
 * cluster; they take precedence over REDIS_URL), with the same composition
 * root. test/cluster/cluster.test.ts starts two of these on different ports
 * against one cluster.
 *
 *   REDIS_CLUSTER_NODES=127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103 PORT=3001 npx tsx test/cluster/server.ts
 *
 * Reads the same environment as main.ts (src/config.ts) and shuts down the
 * same way: SIGTERM → /ready 503 → close the listener → exit 0.
 */
async function main(): Promise<void> {
  const config = configOrExit();
  if (!config.redisClusterNodes) {
    process.stderr.write('configuration error: REDIS_CLUSTER_NODES must be set (host:port,host:port,…)\n');
    process.exit(2);
  }
  const log = createLogger(config.logLevel);
  // One Cluster client: sessions (hash-tagged keys, single-slot Lua), the cache and the rate-limit counts.
  const cluster = connectRedis(config)!;
  const services = await servicesFrom(config, cluster, log, config.jobWorker);
  const app = await createApp({ services, redis: cluster, log, ...transportSettings(config) });
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
