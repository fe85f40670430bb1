/*
 * The limits and defaults of the service, written once: the configuration
 * (config.ts) takes its defaults from here, the composition root (app.ts)
 * and the services fall back to the same values when an embedder or a test
 * gives none, and the GraphQL descriptions print them. openapi.yaml states
 * the request limits as schema maxima and defaults; a unit test
 * (test/docs/limits.test.ts) checks that it states these values.
 */

/** Limits of the analysis requests (`/v1/evaluate`, `/v1/evaluate/batch`, `/v1/moves/best`, `/v1/rollout`). */
export const ANALYSIS_LIMITS = Object.freeze({
  maxPlies: 2,
  /** Plies of `/v1/evaluate`, its batch and the analysis jobs when a request names none. */
  defaultPlies: 0,
  /**
   * Plies of `POST /v1/moves/best` when a request names none in the long
   * family (but for the presets whose doubles cascade: 0, `bestTurnPlies`
   * in src/eval/family.ts). One ply beats the static evaluator by +0.22
   * points a game in classic long nardy, for a median best turn of 1–3 ms
   * (docs/strength.md, "Default depth of a best turn").
   */
  defaultBestPlies: 1,
  /**
   * Plies of `POST /v1/moves/best` when a request names none in backgammon:
   * two plies play ahead of gnubg 0-ply where one ply does not, for a median
   * best turn of about 15 ms, under gnubg's own 2-ply `hint`
   * (docs/strength.md, "Default depth of a best turn").
   */
  backgammonBestPlies: 2,
  /** Positions in one `POST /v1/evaluate/batch`. */
  maxBatch: 64,
  /** Positions at 2 plies in one batch (each can take a second or more). */
  maxBatchTwoPly: 4,
  /** Turns `POST /v1/moves/best` answers at most (its `limit`; default: all). */
  maxBestLimit: 10_000,
  maxTrials: 5184,
  defaultTrials: 360,
  /** Default wall-clock budget of a search (ANALYSIS_BUDGET_MS): past it, the answer comes from fewer plies. */
  defaultSearchBudgetMs: 2_000,
  /** A batch's searches share this many single budgets in all. */
  batchBudgets: 4,
  /** Wall-clock budget of one rollout request, in milliseconds. */
  maxTimeBudgetMs: 10_000,
  defaultTimeBudgetMs: 2_000,
  maxTruncateAfter: 1000,
  /** The largest rollout seed (a 31-bit integer). */
  maxSeed: 2 ** 31 - 1,
});

/** Limits of the analysis jobs (`/v1/rollouts`, `/v1/analyses`). */
export const JOB_LIMITS = Object.freeze({
  /** Trials of one rollout job. */
  maxTrials: 1_296_000,
  defaultTrials: 1296,
  /** Wall-clock budget of one rollout job. */
  minTimeBudgetMs: 1000,
  maxTimeBudgetMs: 3_600_000,
  defaultTimeBudgetMs: 60_000,
  /** Trials per step of a rollout job: its running estimate is reported after each. */
  trialsPerStep: 360,
  /** Characters of a match file. */
  maxFileLength: 2_000_000,
});

/**
 * The defaults of the settings an operator may change (README
 * "Configuration"; the environment variable in each comment).
 */
export const SETTING_DEFAULTS = Object.freeze({
  /** PORT */
  port: 3000,
  /** GAME_TTL_SECONDS */
  gameTtlSeconds: 7 * 24 * 3600,
  /** UNSTARTED_GAME_TTL_SECONDS */
  unstartedGameTtlSeconds: 3600,
  /** FINISHED_GAME_TTL_SECONDS */
  finishedGameTtlSeconds: 24 * 3600,
  /** MAX_GAMES: the most games the in-memory store keeps. */
  maxGames: 4_000,
  /** GAME_CREATE_LIMIT */
  gameCreateLimit: 300,
  /** CACHE_TTL_SECONDS */
  cacheTtlSeconds: 3600,
  /** CACHE_MAX_MB: the position cache's size budget, in MiB. */
  cacheMaxMb: 64,
  /** REDIS_POLICY_CHECK */
  redisPolicyCheck: 'refuse' as 'refuse' | 'warn' | 'off',
  /** IDEMPOTENCY_TTL_SECONDS */
  idempotencyTtlSeconds: 24 * 3600,
  /** RATE_LIMIT_MAX (0 = no limit) */
  rateLimitMax: 0,
  /** RATE_LIMIT_WINDOW_SECONDS */
  rateLimitWindowSeconds: 60,
  /** TRUST_PROXY */
  trustProxy: 0,
  /** GRAPHQL_MAX_DEPTH */
  graphqlMaxDepth: 10,
  /** GRAPHQL_MAX_ALIASES */
  graphqlMaxAliases: 30,
  /** GRAPHQL_MAX_COMPLEXITY */
  graphqlMaxComplexity: 5000,
  /** SHUTDOWN_TIMEOUT_SECONDS */
  shutdownTimeoutSeconds: 20,
  /** SHUTDOWN_DELAY_SECONDS */
  shutdownDelaySeconds: 5,
  /** WARM_UP_ROUNDS */
  warmUpRounds: 20,
  /** ANALYSIS_BUDGET_MS */
  analysisBudgetMs: ANALYSIS_LIMITS.defaultSearchBudgetMs,
  /** ANALYSIS_QUEUE_MAX */
  analysisQueueMax: 32,
  /** ANALYSIS_WORKER_NICE */
  analysisWorkerNice: 10,
  /** ANALYSIS_MAX_COST */
  analysisMaxCost: 1_000_000,
  /** ANALYSIS_INLINE_COST */
  analysisInlineCost: 50,
  /** ANALYSIS_RATE_BUDGET */
  analysisRateBudget: 5_000_000,
  /** ANALYSIS_JOB_MAX_COST: about a 2-ply analysis of a long match. */
  analysisJobMaxCost: 200_000_000,
  /**
   * ANALYSIS_JOB_ANONYMOUS_MAX_COST: about 200 s of one worker at the cost
   * model's 25 evaluations per ms; a 1-ply analysis of a 7-point match costs
   * about 1.2 million.
   */
  analysisJobAnonymousMaxCost: 5_000_000,
  /** JOB_RESULT_TTL_SECONDS */
  jobResultTtlSeconds: 24 * 3600,
  /** JOB_CONCURRENCY */
  jobConcurrency: 1,
  /** JOB_LOCK_SECONDS */
  jobLockSeconds: 30,
  /** WORKER_PORT */
  workerPort: 3001,
});
