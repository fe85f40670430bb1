import { existsSync } from 'fs';
import { join } from 'path';
import { Piscina } from 'piscina';
import { ServiceError, fail } from '../errors';
import { PoolAnswer, PoolRequest, PoolTask, WorkerSetup, cancel, cancelFlag } from './pool-protocol';

/**
 * The analysis worker pool: searches and rollouts run in worker threads
 * (piscina), so the event loop stays free for the rules endpoints,
 * sessions and probes, and analysis uses every core.
 *
 * - Backpressure: at most `queueMax` tasks wait for a worker; past that a
 *   request is refused at once with 503 ANALYSIS_BUSY and a Retry-After
 *   estimated from the queue and the recent task times.
 * - Cancellation is cooperative: a task carries a flag in shared memory
 *   that the caller sets when its client leaves; the search polls it every
 *   few milliseconds. (piscina's own abort would end the worker thread and
 *   with it the loaded networks.)
 * - `close` lets every accepted task finish, then stops the threads.
 */
export interface PoolOptions {
  readonly workers: number;
  readonly queueMax: number;
  readonly setup: WorkerSetup;
}

export interface PoolStats {
  readonly workers: number;
  /** Tasks running in a worker now. */
  readonly busy: number;
  /** Tasks waiting for a worker. */
  readonly queued: number;
}

/** Where the worker module is: compiled beside this file, or the TypeScript source run through tsx (tests, `npm run dev`). */
function workerModule(): { filename: string; execArgv: string[] } {
  const compiled = join(__dirname, 'worker.js');
  if (existsSync(compiled)) return { filename: compiled, execArgv: [] };
  return { filename: join(__dirname, 'worker.ts'), execArgv: ['--import', 'tsx'] };
}

export class AnalysisPool {
  private readonly piscina: Piscina;
  /** Tasks handed to piscina and not settled; piscina starts one as soon as a worker is free. */
  private inFlight = 0;
  /** Mean run time of recent tasks (ms), for Retry-After. */
  private meanRunMs = 500;
  /** Called with the seconds a task waited for a worker. */
  onWait: (seconds: number) => void = () => undefined;

  constructor(private readonly options: PoolOptions) {
    const module = workerModule();
    this.piscina = new Piscina({
      ...module,
      minThreads: options.workers,
      maxThreads: options.workers,
      idleTimeout: Infinity,
      // Our own bound (queueMax) refuses before piscina's queue is reached.
      maxQueue: Math.max(1, options.queueMax) + options.workers,
      workerData: options.setup,
    });
  }

  stats(): PoolStats {
    const busy = Math.min(this.inFlight, this.options.workers);
    return { workers: this.options.workers, busy, queued: this.inFlight - busy };
  }

  /** Workers with no task now. */
  idle(): number {
    return Math.max(0, this.options.workers - this.inFlight);
  }

  /**
   * Runs a task in a worker; `signal` aborting sets the task's cancel flag.
   * Throws ServiceError ANALYSIS_BUSY when the queue is full (not for a
   * task of a request already `admitted`: the later ranges of a split
   * rollout), and the request's own errors as the worker found them.
   */
  async run(task: PoolRequest, signal?: AbortSignal, admitted = false): Promise<unknown> {
    const { queued } = this.stats();
    if (!admitted && queued >= this.options.queueMax) {
      const retryAfter = Math.max(1, Math.ceil(((queued + 1) * this.meanRunMs) / this.options.workers / 1000));
      fail('ANALYSIS_BUSY', `the analysis queue is full (${this.options.queueMax} waiting); retry after ${retryAfter} s`, { retryAfter });
    }
    const flag = cancelFlag();
    const onAbort = (): void => cancel(flag);
    if (signal?.aborted) cancel(flag);
    signal?.addEventListener('abort', onAbort, { once: true });
    const submitted = performance.timeOrigin + performance.now();
    this.inFlight++;
    let answer: PoolAnswer;
    try {
      answer = (await this.piscina.run({ ...task, flag } as PoolTask)) as PoolAnswer;
    } finally {
      this.inFlight--;
      signal?.removeEventListener('abort', onAbort);
    }
    const ended = performance.timeOrigin + performance.now();
    this.onWait(Math.max(0, answer.startedAt - submitted) / 1000);
    this.meanRunMs = 0.9 * this.meanRunMs + 0.1 * Math.max(1, ended - answer.startedAt);
    if (!answer.ok) throw new ServiceError(answer.error);
    return answer.value;
  }

  /** Lets accepted tasks finish, then stops the threads. */
  async close(): Promise<void> {
    await this.piscina.close();
  }
}
