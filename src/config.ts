/**
 * Configuration from the environment, validated at start-up (README
 * "Configuration"). A bad value stops the process with a clear message.
 */
export interface Config {
  port: number;
  host: string;
  redisUrl: string | null;
  gameTtlSeconds: number;
  cacheTtlSeconds: number;
  idempotencyTtlSeconds: number;
  bodyLimit: string;
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer ${min}..${max}, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be an integer ${min}..${max}, got ${n}`);
  return n;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const redisUrl = env.REDIS_URL && env.REDIS_URL.trim() !== '' ? env.REDIS_URL.trim() : null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  const bodyLimit = env.BODY_LIMIT ?? '64kb';
  if (!/^\d+(b|kb|mb)$/i.test(bodyLimit)) throw new ConfigError(`BODY_LIMIT must look like 64kb or 1mb, got "${bodyLimit}"`);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST && env.HOST.trim() !== '' ? env.HOST.trim() : '0.0.0.0',
    redisUrl,
    gameTtlSeconds: integer(env, 'GAME_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    cacheTtlSeconds: integer(env, 'CACHE_TTL_SECONDS', 3600, 1, 30 * 24 * 3600),
    idempotencyTtlSeconds: integer(env, 'IDEMPOTENCY_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600),
    bodyLimit,
  };
}
