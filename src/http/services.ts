import { AnalysisService } from '../service/analysis/service';
import { Analyzers, EvaluatorSet } from '../service/analysis/evaluators';
import { neuralEvaluators } from '../service/analysis/data';
import { HotCache } from '../service/cache';
import { cryptoSeeds, SeedSource } from '../service/sessions/fairness';
import { GameSessions } from '../service/sessions/service';
import { MemoryCache, MemorySessionStore } from '../service/store/memory';
import { Cache, SessionStore } from '../service/store/types';

/** The service objects the transports call. */
export interface Services {
  readonly sessions: GameSessions;
  readonly cache: HotCache;
  readonly store: SessionStore;
  readonly cacheStore: Cache;
  readonly analysis: AnalysisService;
}

export interface ServiceOptions {
  store?: SessionStore;
  cacheStore?: Cache;
  seeds?: SeedSource;
  gameTtlSeconds?: number;
  cacheTtlSeconds?: number;
  idempotencyTtlSeconds?: number;
  now?: () => Date;
  /** Evaluators of the analysis endpoints (default: the trained networks under data/, read on first use). */
  evaluators?: EvaluatorSet;
  /** Wall-clock budget of one analysis search (ANALYSIS_BUDGET_MS). */
  analysisBudgetMs?: number;
}

/** Builds the services; anything not given is the embedded in-memory default. */
export function buildServices(options: ServiceOptions = {}): Services {
  const store = options.store ?? new MemorySessionStore();
  const cacheStore = options.cacheStore ?? new MemoryCache();
  const cache = new HotCache(cacheStore, options.cacheTtlSeconds ?? 3600);
  return {
    store,
    cacheStore,
    cache,
    analysis: new AnalysisService(new Analyzers(options.evaluators ?? neuralEvaluators()), cache, { searchBudgetMs: options.analysisBudgetMs }),
    sessions: new GameSessions({
      store,
      seeds: options.seeds ?? cryptoSeeds,
      ttlSeconds: options.gameTtlSeconds ?? 7 * 24 * 3600,
      idempotencyTtlSeconds: options.idempotencyTtlSeconds ?? 24 * 3600,
      now: options.now ?? (() => new Date()),
    }),
  };
}
