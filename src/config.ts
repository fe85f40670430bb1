import { availableParallelism } from 'os';
import { SETTING_DEFAULTS as D } from './limits';
/** Whether the process runs under the test runner (jest sets NODE_ENV=test): REST answers are then checked against openapi.yaml. */
export function underTest(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'test';
}

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
  /** Games that never had an action expire after this (default 1 hour). */
  unstartedGameTtlSeconds: number;
  /** Finished games (matches) are kept this long (default 1 day): shorter than live games, for Redis's volatile-ttl. */
  finishedGameTtlSeconds: number;
  /** The most games the in-memory store keeps (no Redis). */
  maxGames: number;
  /** Games each client may create per RATE_LIMIT_WINDOW_SECONDS; 0 = no limit. */
  gameCreateLimit: number;
  cacheTtlSeconds: number;
  /** CACHE_MAX_MB: the most the hot-position cache holds, in MiB (in Redis: keys, values and overhead). */
  cacheMaxMb: number;
  /** What to do at start when Redis's maxmemory policy may evict games in play: refuse to start, warn, or not check. */
  redisPolicyCheck: 'refuse' | 'warn' | 'off';
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
  /** On SIGTERM: seconds of serving with /ready failing before the listener closes (endpoint propagation). */
  shutdownDelaySeconds: number;
  /** Rounds of warm-up requests a process sends itself before `/ready` answers 200 (0 = none). */
  warmUpRounds: number;
  /** The evaluators of the analysis endpoints: the trained networks (default) or the v1 heuristics. */
  evaluator: 'neural' | 'heuristic';
  /** Wall-clock budget of one analysis search; past it the answer comes from fewer plies. */
  analysisBudgetMs: number;
  /** Worker threads of the analysis pool; 0 runs analysis in the request thread. */
  analysisWorkers: number;
  /** Nice value of the analysis threads (0..19). */
  analysisWorkerNice: number;
  /** Analysis tasks that may wait for a worker; past it `503 ANALYSIS_BUSY`. */
  analysisQueueMax: number;
  /** Most network evaluations one request (or GraphQL document) may cost; past it `422 ANALYSIS_TOO_COSTLY`. */
  analysisMaxCost: number;
  /** Requests costing at most this many evaluations run in the request thread. */
  analysisInlineCost: number;
  /** Network evaluations per client and rate-limit window (0 = unlimited); past it `429 RATE_LIMITED`. */
  analysisRateBudget: number;
  /** API keys: SHA-256 hashes of the keys with a name and an optional own budget. */
  apiKeys: ApiKey[];
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Most network evaluations one analysis job may cost. */
  analysisJobMaxCost: number;
  /** Most network evaluations one job of a caller without an API key may cost. */
  analysisJobAnonymousMaxCost: number;
  /** How long finished jobs and their results are kept. */
  jobResultTtlSeconds: number;
  /** Whether the API process also works the job queue. */
  jobWorker: boolean;
  /** Jobs one process works at once. */
  jobConcurrency: number;
  /** A worker's lock on a job: a dead worker's job is taken up by another after this long. */
  jobLockSeconds: number;
  /** `npm run worker`: the port of its /health and /ready. */
  workerPort: number;
  /** The job queue's Redis key prefix (processes sharing a queue share it). */
  jobQueuePrefix: string;
}

/** A caller's API key as configured: never the key itself, only its SHA-256. */
export interface ApiKey {
  readonly name: string;
  /** Lower-case hex SHA-256 of the key. */
  readonly sha256: string;
  /** Evaluations per window of this key, instead of ANALYSIS_RATE_BUDGET. */
  readonly budget: number | null;
}

export class ConfigError extends Error {}

/** `API_KEYS`: `name:sha256hex[:budget]`, comma-separated. */
function apiKeys(raw: string | undefined): ApiKey[] {
  if (!raw || raw.trim() === '') return [];
  const keys = raw.split(',').map((entry) => {
    const m = /^([A-Za-z0-9_.-]{1,64}):([0-9a-fA-F]{64})(?::(\d{1,15}))?$/.exec(entry.trim());
    if (!m) throw new ConfigError(`API_KEYS: "${entry.trim().slice(0, 80)}" is not name:sha256hex[:budget]`);
    return { name: m[1], sha256: m[2].toLowerCase(), budget: m[3] === undefined ? null : Number(m[3]) };
  });
  const names = new Set(keys.map((k) => k.name));
  if (names.size !== keys.length) throw new ConfigError('API_KEYS: every key needs a name of its own');
  return keys;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer ${min}..${max}, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be an integer ${min}..${max}, got ${n}`);
  return n;
}

function queuePrefix(raw: string | undefined): string {
  const prefix = raw?.trim() || 'nardy-jobs';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix)) throw new ConfigError(`JOB_QUEUE_PREFIX must be 1..64 letters, digits, _ . : -, got "${raw}"`);
  return prefix;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function policyCheck(raw: string | undefined): Config['redisPolicyCheck'] {
  const value = raw?.trim().toLowerCase() || D.redisPolicyCheck;
  if (value !== 'refuse' && value !== 'warn' && value !== 'off') throw new ConfigError(`REDIS_POLICY_CHECK must be refuse, warn or off, got "${raw}"`);
  return value;
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
    port: integer(env, 'PORT', D.port, 0, 65535),
    host: env.HOST && env.HOST.trim() !== '' ? env.HOST.trim() : '0.0.0.0',
    redisUrl,
    redisClusterNodes: env.REDIS_CLUSTER_NODES && env.REDIS_CLUSTER_NODES.trim() !== '' ? clusterNodes(env.REDIS_CLUSTER_NODES) : null,
    gameTtlSeconds: integer(env, 'GAME_TTL_SECONDS', D.gameTtlSeconds, 60, 365 * 24 * 3600),
    unstartedGameTtlSeconds: integer(env, 'UNSTARTED_GAME_TTL_SECONDS', D.unstartedGameTtlSeconds, 60, 365 * 24 * 3600),
    finishedGameTtlSeconds: integer(env, 'FINISHED_GAME_TTL_SECONDS', D.finishedGameTtlSeconds, 60, 365 * 24 * 3600),
    maxGames: integer(env, 'MAX_GAMES', D.maxGames, 1, 10_000_000),
    gameCreateLimit: integer(env, 'GAME_CREATE_LIMIT', D.gameCreateLimit, 0, 1_000_000),
    cacheTtlSeconds: integer(env, 'CACHE_TTL_SECONDS', D.cacheTtlSeconds, 1, 30 * 24 * 3600),
    cacheMaxMb: integer(env, 'CACHE_MAX_MB', D.cacheMaxMb, 1, 1_000_000),
    redisPolicyCheck: policyCheck(env.REDIS_POLICY_CHECK),
    idempotencyTtlSeconds: integer(env, 'IDEMPOTENCY_TTL_SECONDS', D.idempotencyTtlSeconds, 60, 30 * 24 * 3600),
    bodyLimit,
    logLevel,
    corsOrigins,
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', D.rateLimitMax, 0, 1_000_000),
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', D.rateLimitWindowSeconds, 1, 3600),
    trustProxy: integer(env, 'TRUST_PROXY', D.trustProxy, 0, 10),
    graphqlMaxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', D.graphqlMaxDepth, 2, 50),
    graphqlMaxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', D.graphqlMaxAliases, 0, 1000),
    graphqlMaxComplexity: integer(env, 'GRAPHQL_MAX_COMPLEXITY', D.graphqlMaxComplexity, 10, 1_000_000),
    shutdownTimeoutSeconds: integer(env, 'SHUTDOWN_TIMEOUT_SECONDS', D.shutdownTimeoutSeconds, 1, 600),
    shutdownDelaySeconds: integer(env, 'SHUTDOWN_DELAY_SECONDS', D.shutdownDelaySeconds, 0, 300),
    warmUpRounds: integer(env, 'WARM_UP_ROUNDS', D.warmUpRounds, 0, 1000),
    evaluator,
    analysisBudgetMs: integer(env, 'ANALYSIS_BUDGET_MS', D.analysisBudgetMs, 10, 60_000),
    analysisWorkers: integer(env, 'ANALYSIS_WORKERS', availableParallelism(), 0, 256),
    analysisQueueMax: integer(env, 'ANALYSIS_QUEUE_MAX', D.analysisQueueMax, 0, 100_000),
    analysisWorkerNice: integer(env, 'ANALYSIS_WORKER_NICE', D.analysisWorkerNice, 0, 19),
    analysisMaxCost: integer(env, 'ANALYSIS_MAX_COST', D.analysisMaxCost, 1, 1_000_000_000),
    analysisInlineCost: integer(env, 'ANALYSIS_INLINE_COST', D.analysisInlineCost, 0, 1_000_000),
    analysisRateBudget: integer(env, 'ANALYSIS_RATE_BUDGET', D.analysisRateBudget, 0, 1_000_000_000_000),
    apiKeys: apiKeys(env.API_KEYS),
    metricsToken: env.METRICS_TOKEN && env.METRICS_TOKEN.trim() !== '' ? env.METRICS_TOKEN.trim() : null,
    analysisJobMaxCost: integer(env, 'ANALYSIS_JOB_MAX_COST', D.analysisJobMaxCost, 1, 1_000_000_000_000),
    analysisJobAnonymousMaxCost: integer(env, 'ANALYSIS_JOB_ANONYMOUS_MAX_COST', D.analysisJobAnonymousMaxCost, 1, 1_000_000_000_000),
    jobResultTtlSeconds: integer(env, 'JOB_RESULT_TTL_SECONDS', D.jobResultTtlSeconds, 60, 30 * 24 * 3600),
    jobWorker: boolean(env, 'JOB_WORKER', true),
    jobConcurrency: integer(env, 'JOB_CONCURRENCY', D.jobConcurrency, 1, 64),
    jobLockSeconds: integer(env, 'JOB_LOCK_SECONDS', D.jobLockSeconds, 1, 3600),
    workerPort: integer(env, 'WORKER_PORT', D.workerPort, 0, 65535),
    jobQueuePrefix: queuePrefix(env.JOB_QUEUE_PREFIX),
  };
}
