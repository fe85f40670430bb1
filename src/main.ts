import { createServer } from 'http';
import { ConfigError, readConfig } from './config';
import { createApp } from './http/app';
import { buildServices } from './http/services';
import { RedisCache, RedisSessionStore, createRedisClient, whenReady } from './service/store/redis';

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
  const log = (level: string, message: string, fields: Record<string, unknown> = {}) =>
    process.stdout.write(`${JSON.stringify({ level, message, ...fields })}\n`);

  let services;
  let redis: ReturnType<typeof createRedisClient> | null = null;
  if (config.redisUrl) {
    redis = createRedisClient(config.redisUrl);
    const ready = await whenReady(redis, 5000);
    log(ready ? 'info' : 'warn', ready ? 'redis ready' : 'redis not reachable yet; sessions answer 503 until it is');
    services = buildServices({
      store: new RedisSessionStore(redis),
      cacheStore: new RedisCache(redis),
      gameTtlSeconds: config.gameTtlSeconds,
      cacheTtlSeconds: config.cacheTtlSeconds,
      idempotencyTtlSeconds: config.idempotencyTtlSeconds,
    });
  } else {
    services = buildServices({
      gameTtlSeconds: config.gameTtlSeconds,
      cacheTtlSeconds: config.cacheTtlSeconds,
      idempotencyTtlSeconds: config.idempotencyTtlSeconds,
    });
    log('info', 'no REDIS_URL: sessions and cache are kept in this process');
  }
  const { app, close } = await createApp({ services, bodyLimit: config.bodyLimit });
  const server = createServer(app);
  server.listen(config.port, config.host, () => log('info', 'listening', { host: config.host, port: config.port }));
  const shutdown = () => {
    server.close(() => {
      void close()
        .then(() => redis?.quit())
        .finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

void main();
