import { AnalysisService } from './analysis/service';
import { HotCache } from './cache';
import { AnalysisJobs } from './jobs/service';
import { JobQueue } from './jobs/types';
import { GameSessions } from './sessions/service';
import { Cache, SessionStore } from './store/types';

/** The service objects the transports call. */
export interface Services {
  readonly sessions: GameSessions;
  readonly cache: HotCache;
  readonly store: SessionStore;
  readonly cacheStore: Cache;
  readonly analysis: AnalysisService;
  readonly jobs: AnalysisJobs;
  /** The queue behind `jobs` (closed on shutdown). */
  readonly jobQueue: JobQueue;
}
