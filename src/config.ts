/**
 * Configuration from the environment, validated at start-up (README
 * "Configuration"). A bad value stops the process with a clear message.
 */
export interface Config {
  port: number;
  host: string;
  redisUrl: string | null;
  /** Redis Cluster seed nodes (`host:port,host:port`); takes precedence over `redisUrl`. */
  redisClusterNodes: { host: string; port: number }[] | null;
  gameTtlSeconds: number;
  cacheTtlSeconds: number;
  idempotencyTtlSeconds: number;
  bodyLimit: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `*` (any origin, no credentials), a comma-separated list, or empty for no CORS headers. */
  corsOrigins: '*' | string[];
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  /** Express `trust proxy`: hops of proxies in front of the service (0 = none). */
  trustProxy: number;
  graphqlMaxDepth: number;
  graphqlMaxAliases: number;
  graphqlMaxComplexity: number;
  shutdownTimeoutSeconds: number;
  /** The evaluators of the analysis endpoints: the trained networks (default) or the v1 heuristics. */
  evaluator: 'neural' | 'heuristic';
  /** Wall-clock budget of one analysis search; past it the answer comes from fewer plies. */
  analysisBudgetMs: number;
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer ${min}..${max}, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be an integer ${min}..${max}, got ${n}`);
  return n;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function clusterNodes(raw: string): { host: string; port: number }[] {
  const nodes = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (nodes.length === 0) throw new ConfigError('REDIS_CLUSTER_NODES must list host:port,host:port,…');
  return nodes.map((node) => {
    const m = /^([A-Za-z0-9_.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(node);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) {
      throw new ConfigError(`REDIS_CLUSTER_NODES: "${node}" is not host:port`);
    }
    return { host: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2]) };
  });
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const redisUrl = env.REDIS_URL && env.REDIS_URL.trim() !== '' ? env.REDIS_URL.trim() : null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  const bodyLimit = env.BODY_LIMIT && env.BODY_LIMIT.trim() !== '' ? env.BODY_LIMIT.trim() : '64kb';
  if (!/^\d+(b|kb|mb)$/i.test(bodyLimit)) throw new ConfigError(`BODY_LIMIT must look like 64kb or 1mb, got "${bodyLimit}"`);
  const logLevel = (env.LOG_LEVEL ?? 'info').trim() as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  const corsRaw = (env.CORS_ORIGINS ?? '*').trim();
  let corsOrigins: Config['corsOrigins'] = '*';
  if (corsRaw !== '*') {
    corsOrigins = corsRaw === '' ? [] : corsRaw.split(',').map((s) => s.trim());
    for (const origin of corsOrigins) {
      if (!/^https?:\/\/[^\s/]+$/.test(origin)) throw new ConfigError(`CORS_ORIGINS: "${origin}" is not an origin such as https://example.org`);
    }
  }
  const evaluator = (env.EVALUATOR ?? 'neural').trim() || 'neural';
  if (evaluator !== 'neural' && evaluator !== 'heuristic') throw new ConfigError(`EVALUATOR must be neural or heuristic, got "${env.EVALUATOR}"`);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST && env.HOST.trim() !== '' ? env.HOST.trim() : '0.0.0.0',
    redisUrl,
    redisClusterNodes: env.REDIS_CLUSTER_NODES && env.REDIS_CLUSTER_NODES.trim() !== '' ? clusterNodes(env.REDIS_CLUSTER_NODES) : null,
    gameTtlSeconds: integer(env, 'GAME_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    cacheTtlSeconds: integer(env, 'CACHE_TTL_SECONDS', 3600, 1, 30 * 24 * 3600),
    idempotencyTtlSeconds: integer(env, 'IDEMPOTENCY_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600),
    bodyLimit,
    logLevel,
    corsOrigins,
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 1200, 0, 1_000_000),
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
    trustProxy: integer(env, 'TRUST_PROXY', 0, 0, 10),
    graphqlMaxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 10, 2, 50),
    graphqlMaxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 30, 0, 1000),
    graphqlMaxComplexity: integer(env, 'GRAPHQL_MAX_COMPLEXITY', 5000, 10, 1_000_000),
    shutdownTimeoutSeconds: integer(env, 'SHUTDOWN_TIMEOUT_SECONDS', 20, 1, 600),
    evaluator,
    analysisBudgetMs: integer(env, 'ANALYSIS_BUDGET_MS', 2000, 10, 60_000),
  };
}
