/*
 * Analysis jobs: work too long for one request (a whole match, a long
 * rollout) is submitted, queued, run by any worker process, watched and
 * read back. Two queues behind one interface: BullMQ on Redis (any number
 * of worker processes, `npm run worker`) and one in this process when
 * there is no Redis.
 */

export type JobKind = 'match-analysis' | 'rollout';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobProgress {
  readonly done: number;
  readonly total: number;
  /** A rollout's running estimate (the answer so far). */
  readonly estimate?: unknown;
}

/** What the API answers for a job. */
export interface JobView {
  readonly id: string;
  readonly kind: JobKind;
  readonly status: JobStatus;
  readonly progress: JobProgress;
  /** ISO times. */
  readonly createdAt: string;
  readonly finishedAt?: string;
  /** When done: the report or the rollout. */
  readonly result?: unknown;
  /** When failed (or cancelled): why, as an error body. */
  readonly error?: { readonly code: string; readonly message: string; readonly [detail: string]: unknown };
}

/** A job as submitted: its kind and the checked request that a worker runs. */
export interface JobRequest {
  readonly kind: JobKind;
  readonly payload: unknown;
  /** Progress total known at submission (decisions, trials). */
  readonly total: number;
  /**
   * Who submitted it. Jobs wait in order of how many jobs their client has
   * standing (queued or running) when submitted, then in order of
   * submission: a client's second job waits behind every other client's
   * first, so one client cannot hold the queue.
   */
  readonly client?: string;
}

/**
 * A job's place in the queue: 1 + the jobs its client has standing,
 * counting at most this many (BullMQ priorities: lower runs first).
 */
export const MAX_COUNTED_STANDING = 32;

/** What a worker does with a job: runs it, reporting progress, until done or cancelled. */
export type JobProcessor = (
  request: JobRequest,
  hooks: { progress(progress: JobProgress): void; aborted(): boolean },
) => Promise<unknown>;

export interface JobQueue {
  /**
   * Queues a job under `id` unless one with that id is queued, running or
   * done (then that one is answered, `created: false`); a failed or
   * cancelled one is replaced.
   */
  submit(id: string, request: JobRequest): Promise<{ readonly view: JobView; readonly created: boolean }>;
  get(id: string): Promise<JobView | null>;
  /** Cancels a queued or running job; a finished one stays as it is. Null when there is no such job. */
  cancel(id: string): Promise<JobView | null>;
  /** Calls `listener` with the job's view whenever it changes (in any process); returns the unsubscribe. */
  watch(id: string, listener: (view: JobView) => void): Promise<() => void>;
  /** Jobs waiting for a worker and running now, in the whole queue. */
  counts(): Promise<{ readonly waiting: number; readonly running: number }>;
  /** Starts taking jobs in this process. */
  work(processor: JobProcessor, concurrency: number): void;
  close(): Promise<void>;
}

export const FINISHED: ReadonlySet<JobStatus> = new Set(['done', 'failed', 'cancelled']);
