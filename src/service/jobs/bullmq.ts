import { randomUUID } from 'crypto';
import { Job, Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import Redis, { Cluster } from 'ioredis';
import { ServiceError } from '../errors';
import { RedisClient, STORE_TIMEOUT_MS, createRedisClient, createRedisCluster } from '../store/redis';
import { StoreUnavailableError } from '../store/types';
import { CANCELLED, errorBody } from './memory';
import { FINISHED, JobKind, JobProcessor, JobProgress, JobQueue, JobRequest, JobStatus, JobView, MAX_COUNTED_STANDING } from './types';

/**
 * Jobs on BullMQ (Redis): any number of processes submit, watch and work.
 * The prefix carries a hash tag, so every key of the queue lives in one slot
 * of a Redis Cluster (BullMQ's scripts touch several keys). A worker that
 * dies mid-job loses nothing: its lock lapses after `lockMs`, another worker
 * finds the job stalled and runs it again (a request's own errors, and
 * cancellations, are not retried). Cancelling writes a marker that the
 * running worker polls; a queued job is removed at once.
 *
 * Every operation a client waits for (submit, get, cancel, counts) is held
 * to the store timeout and fails as `StoreUnavailableError` when Redis does
 * not answer in time: its commands go over a connection without an offline
 * queue, so nothing is kept to be sent when Redis returns. A submission that
 * failed so, but may still have reached Redis (a command sent before Redis
 * stopped answering runs when it answers again), is withdrawn once the
 * queue answers: a client told 503 finds no job it did not get.
 *
 * A job's BullMQ priority is 1 + the jobs its client has standing (queued
 * or running) when it is submitted; each client's jobs are kept in a set of
 * their own, pruned of finished ones as the client submits again.
 */
export const JOB_QUEUE = 'analyses';

interface JobData {
  readonly kind: JobKind;
  readonly payload: unknown;
  readonly total: number;
  /** Which submission queued the job: a submission that failed withdraws only its own job. */
  readonly submission?: string;
  /** Who submitted it. */
  readonly client?: string;
}

/**
 * What a connection is for: `commands` that a client waits on (no offline
 * queue, the store's command timeout), or the `blocking` reads of the
 * queue's events and its worker (they wait for Redis as long as it takes).
 */
export type ConnectionRole = 'commands' | 'blocking';

/** Where the job queue's Redis is. */
export type RedisTarget = { readonly url: string } | { readonly nodes: { host: string; port: number }[] };

/** A new connection of the job queue to `target`, shaped for its role. */
export function jobQueueConnection(target: RedisTarget, role: ConnectionRole): RedisClient {
  if (role === 'commands') return 'url' in target ? createRedisClient(target.url) : createRedisCluster(target.nodes);
  // BullMQ's blocking commands want no per-request retry limit.
  const connection = 'url' in target ? new Redis(target.url, { maxRetriesPerRequest: null }) : new Cluster(target.nodes, { redisOptions: { maxRetriesPerRequest: null } });
  connection.on('error', () => undefined);
  return connection;
}

export interface BullOptions {
  /** A new connection for BullMQ (one per Queue, QueueEvents and Worker; blocking commands need their own): `jobQueueConnection`. */
  readonly connect: (role: ConnectionRole) => RedisClient;
  /** How long a client waits for one operation before it is told the store is unavailable (default STORE_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  readonly ttlSeconds: number;
  /** How long a worker's lock on a job lasts without renewal: a dead worker's job is taken up again after it. */
  readonly lockMs: number;
  /** The queue's key prefix (JOB_QUEUE_PREFIX, default `nardy-jobs`), written as a hash tag. */
  readonly prefix?: string;
}

function statusOf(state: string): JobStatus {
  switch (state) {
    case 'active':
      return 'running';
    case 'completed':
      return 'done';
    case 'failed':
      return 'failed';
    default:
      return 'queued';
  }
}

function failure(reason: string | undefined): JobView['error'] {
  try {
    const body = JSON.parse(reason ?? '') as JobView['error'];
    if (body && typeof body.code === 'string') return body;
  } catch {
    // not one of ours
  }
  return { code: 'INTERNAL', message: 'the job failed' };
}

/**
 * BullMQ's lock and stalled-job check for JOB_LOCK_SECONDS (`lockMs`): a
 * lock lasts half of it and the check runs every quarter, so a dead
 * worker's job is found stalled at most `lockDuration + stalledInterval`
 * (three quarters) after its last renewal, a quarter inside the setting.
 */
export function lockTimes(lockMs: number): { lockDuration: number; stalledInterval: number } {
  return { lockDuration: Math.max(500, Math.floor(lockMs / 2)), stalledInterval: Math.max(250, Math.floor(lockMs / 4)) };
}

export class BullJobQueue implements JobQueue {
  private readonly queue: Queue;
  private readonly events: QueueEvents;
  private readonly listeners = new Map<string, Set<(view: JobView) => void>>();
  private worker: Worker | null = null;
  /** Our own connection, for the cancel markers. */
  private readonly markers: RedisClient;
  /** Every connection made (BullMQ does not close connections it was given). */
  private readonly connections: RedisClient[] = [];

  private readonly prefix: string;
  private readonly timeoutMs: number;
  private closed = false;

  constructor(private readonly options: BullOptions) {
    this.prefix = `{${options.prefix ?? 'nardy-jobs'}}`;
    this.timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
    this.markers = this.connect('commands');
    // No version check on this connection: BullMQ checks with one INFO as the connection first becomes
    // ready, and if that INFO fails (the store timeout passes while a cold process's event loop is busy, or
    // Redis stops just then) BullMQ keeps the failure, and every later operation of the queue fails with it
    // at once: 503 for good, until the process restarts. The events and the worker connections check the
    // version (their commands wait for Redis as long as it takes, so theirs cannot fail so).
    this.queue = new Queue(JOB_QUEUE, { connection: this.connect('commands'), prefix: this.prefix, skipVersionCheck: true });
    this.events = new QueueEvents(JOB_QUEUE, { connection: this.connect('blocking'), prefix: this.prefix });
    for (const event of ['progress', 'active', 'completed', 'failed', 'removed', 'waiting'] as const) {
      this.events.on(event, ({ jobId }: { jobId: string }) => void this.notify(jobId));
    }
    this.queue.on('error', () => undefined);
    this.events.on('error', () => undefined);
  }

  private async notify(id: string): Promise<void> {
    const set = this.listeners.get(id);
    if (!set || set.size === 0) return;
    const view = await this.get(id).catch(() => null);
    if (view) for (const listener of set) listener(view);
  }

  private cancelKey(id: string): string {
    return `${this.prefix}:cancelled:${id}`;
  }

  private connect(role: ConnectionRole): RedisClient {
    const connection = this.options.connect(role);
    this.connections.push(connection);
    return connection;
  }

  /** The job's view, or null when there is none. The state is read before the job, so a finished state always finds its result. */
  private async read(id: string): Promise<{ job: Job<JobData>; view: JobView } | null> {
    const state = await this.queue.getJobState(id);
    const job = (await this.queue.getJob(id)) as Job<JobData> | undefined;
    if (!job || state === 'unknown') return null;
    const cancelled = (await this.markers.exists(this.cancelKey(id))) === 1;
    const progress = (typeof job.progress === 'object' && job.progress !== null ? job.progress : { done: 0, total: job.data.total }) as JobProgress;
    const view: { -readonly [K in keyof JobView]: JobView[K] } = {
      id,
      kind: job.data.kind,
      status: statusOf(state),
      progress,
      createdAt: new Date(job.timestamp).toISOString(),
    };
    if (job.finishedOn) view.finishedAt = new Date(job.finishedOn).toISOString();
    if (view.status === 'done') view.result = job.returnvalue;
    if (view.status === 'failed') view.error = failure(job.failedReason);
    if (cancelled && view.status !== 'done') {
      view.status = 'cancelled';
      view.error = CANCELLED;
    }
    return { job, view };
  }

  /**
   * Runs one operation a client waits for, held to the timeout: past it, or
   * on any failure of Redis, the store is unavailable. `gone` tells the
   * operation that nobody waits for it any more.
   */
  private bounded<T>(work: (gone: () => boolean) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(new StoreUnavailableError(new Error(`the job queue did not answer within ${this.timeoutMs} ms`)));
      }, this.timeoutMs);
      work(() => settled).then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error instanceof ServiceError ? error : new StoreUnavailableError(error));
        },
      );
    });
  }

  async get(id: string): Promise<JobView | null> {
    return this.bounded(() => this.view(id));
  }

  private async view(id: string): Promise<JobView | null> {
    const found = await this.read(id);
    if (found) return found.view;
    // A queued job cancelled was removed: its marker holds its last view.
    const marker = await this.markers.get(this.cancelKey(id));
    return marker ? (JSON.parse(marker) as JobView) : null;
  }

  async submit(id: string, request: JobRequest): Promise<{ view: JobView; created: boolean }> {
    const submission = randomUUID();
    let sent = false;
    try {
      return await this.bounded(async (gone) => {
        const answer = await this.enqueue(id, request, submission, gone, () => (sent = true));
        // Queued after its client was told the store is unavailable: not its job any more.
        if (gone()) void this.withdraw(id, submission);
        return answer;
      });
    } catch (e) {
      if (sent) void this.withdraw(id, submission);
      throw e;
    }
  }

  private async enqueue(id: string, request: JobRequest, submission: string, gone: () => boolean, sending: () => void): Promise<{ view: JobView; created: boolean }> {
    const existing = await this.read(id);
    if (existing) {
      const { job, view } = existing;
      if (view.status !== 'failed' && view.status !== 'cancelled') return { view, created: false };
      // A cancelled job still stopping keeps its place until it has stopped.
      if ((await job.getState()) === 'active') return { view, created: false };
      await job.remove();
    }
    await this.markers.del(this.cancelKey(id));
    const ttl = { age: this.options.ttlSeconds };
    const data: JobData = { kind: request.kind, payload: request.payload, total: request.total, submission, ...(request.client === undefined ? {} : { client: request.client }) };
    const priority = 1 + (request.client === undefined ? 0 : await this.standing(request.client));
    // Nobody waits for this submission any more: it is not sent.
    if (gone()) throw new StoreUnavailableError();
    sending();
    await this.queue.add(request.kind, data, {
      jobId: id,
      priority,
      attempts: 3,
      backoff: { type: 'fixed', delay: 1000 },
      removeOnComplete: ttl,
      removeOnFail: ttl,
    });
    if (request.client !== undefined) {
      const key = this.clientKey(request.client);
      await this.markers.multi().sadd(key, id).expire(key, this.options.ttlSeconds).exec();
    }
    const added = await this.read(id);
    if (!added) throw new Error(`the job ${id} vanished as it was queued`);
    return { view: added.view, created: true };
  }

  private clientKey(client: string): string {
    return `${this.prefix}:client:${client}`;
  }

  /** Jobs of `client` queued or running (at most MAX_COUNTED_STANDING); finished and vanished ones leave its set. */
  private async standing(client: string): Promise<number> {
    const key = this.clientKey(client);
    const ids = (await this.markers.smembers(key)).slice(0, MAX_COUNTED_STANDING * 2);
    const states = await Promise.all(ids.map((id) => this.queue.getJobState(id)));
    const over = ids.filter((_, i) => states[i] === 'completed' || states[i] === 'failed' || states[i] === 'unknown');
    if (over.length > 0) await this.markers.srem(key, ...over);
    return Math.min(ids.length - over.length, MAX_COUNTED_STANDING);
  }

  /**
   * Takes back a job that `submission` may have queued, once the queue
   * answers again (commands on one connection run in order, so the
   * submission's own has run by then): removed while queued, cancelled if a
   * worker took it meanwhile. Tries for as long as a job's result is kept.
   */
  private async withdraw(id: string, submission: string): Promise<void> {
    const until = Date.now() + this.options.ttlSeconds * 1000;
    while (!this.closed && Date.now() < until) {
      try {
        const job = (await this.queue.getJob(id)) as Job<JobData> | undefined;
        if (job?.data.submission !== submission) return;
        if ((await job.getState()) === 'active') await this.stop(id);
        else await job.remove();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, this.timeoutMs).unref());
      }
    }
  }

  async cancel(id: string): Promise<JobView | null> {
    return this.bounded(() => this.stop(id));
  }

  private async stop(id: string): Promise<JobView | null> {
    const found = await this.read(id);
    if (!found) return this.view(id);
    const { job, view } = found;
    if (FINISHED.has(view.status)) return view;
    const cancelled: JobView = { ...view, status: 'cancelled', error: CANCELLED, finishedAt: new Date().toISOString() };
    await this.markers.set(this.cancelKey(id), JSON.stringify(cancelled), 'EX', this.options.ttlSeconds);
    if (view.status === 'queued') await job.remove().catch(() => undefined);
    void this.notify(id);
    return cancelled;
  }

  async counts(): Promise<{ waiting: number; running: number }> {
    return this.bounded(async () => {
      const c = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
      return { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0), running: c.active ?? 0 };
    });
  }

  async watch(id: string, listener: (view: JobView) => void): Promise<() => void> {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(id);
    };
  }

  private resultKey(id: string): string {
    return `${this.prefix}:result:${id}`;
  }

  /**
   * Keeps a finished job's result under a key of its own until the queue
   * has it: saved before the job is reported done, and tried again until
   * Redis answers. A run that lost its lock meanwhile (Redis away for longer
   * than the lock) is taken up again, and the new run answers this result
   * instead of doing the work again.
   */
  private async keep(id: string, result: unknown): Promise<void> {
    const text = JSON.stringify(result ?? null);
    while (!this.closed) {
      try {
        await this.markers.set(this.resultKey(id), text, 'EX', this.options.ttlSeconds);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  private async kept(id: string): Promise<{ result: unknown } | null> {
    const text = await this.markers.get(this.resultKey(id)).catch(() => null);
    return text === null ? null : { result: JSON.parse(text) as unknown };
  }

  /**
   * Works the queue. A job whose worker died is taken up again within
   * `lockMs`: a lock lasts half of it (renewed every quarter), and the check
   * for stalled jobs runs every quarter, so a lapsed lock is found at most a
   * quarter after it lapsed. A run taken up again reports no progress below
   * what the queue already shows (its work starts over; a rollout's steps
   * are seeded by their index, so it ends with the same result).
   */
  work(processor: JobProcessor, concurrency: number): void {
    const lockMs = this.options.lockMs;
    this.worker = new Worker<JobData>(
      JOB_QUEUE,
      async (job) => {
        const id = job.id!;
        const saved = await this.kept(id);
        if (saved) return saved.result;
        const client = this.markers;
        let cancelled = false;
        // The marker is polled, so a cancel from any process reaches this run within a quarter second.
        const poll = setInterval(() => {
          client.exists(this.cancelKey(id)).then((n) => (cancelled = n === 1), () => undefined);
        }, 250);
        const shown = typeof job.progress === 'object' && job.progress !== null ? ((job.progress as Partial<JobProgress>).done ?? 0) : 0;
        let last = 0;
        try {
          const result = await processor(job.data, {
            progress: (progress) => {
              const now = Date.now();
              if (progress.done < shown) return;
              if (now - last < 100 && progress.done < progress.total) return;
              last = now;
              void job.updateProgress(progress as object).catch(() => undefined);
            },
            aborted: () => cancelled,
          });
          await this.keep(id, result);
          return result;
        } catch (e) {
          // A request's own failure (or a cancellation) would fail again: no retry.
          throw new UnrecoverableError(JSON.stringify(cancelled ? CANCELLED : errorBody(e)));
        } finally {
          clearInterval(poll);
        }
      },
      {
        connection: this.connect('blocking'),
        prefix: this.prefix,
        concurrency,
        ...lockTimes(lockMs),
        maxStalledCount: 3,
      },
    );
    this.worker.on('error', () => undefined);
    // The queue has the result now: its own copy goes.
    this.worker.on('completed', (job) => void this.markers.del(this.resultKey(job.id!)).catch(() => undefined));
  }

  async close(): Promise<void> {
    this.closed = true;
    // Jobs still running are left to their lock: another worker takes them up. BullMQ's own closing
    // waits on Redis; past the store timeout the connections are cut instead.
    const closing = (async () => {
      await this.worker?.close(true);
      await this.events.close();
      await this.queue.close();
    })().catch(() => undefined);
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, this.timeoutMs).unref())]);
    for (const connection of this.connections) connection.disconnect();
  }

}
