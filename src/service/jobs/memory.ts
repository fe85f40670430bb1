import { EventEmitter } from 'events';
import { ServiceError } from '../errors';
import { FINISHED, JobProcessor, JobQueue, JobRequest, JobView, MAX_COUNTED_STANDING } from './types';

interface Entry {
  view: JobView;
  readonly request: JobRequest;
  cancelled: boolean;
  /** Its place: 1 + the jobs its client had standing when it was submitted (lower runs first). */
  priority: number;
  /** When the finished job is forgotten (ms since the epoch). */
  expires: number;
}

/**
 * The queue of one process (no Redis): jobs wait in order of their place
 * (a client's jobs behind other clients' earlier ones, types.ts), then of
 * submission, and run `concurrency` at a time; finished ones are kept for
 * `ttlSeconds`.
 */
export class MemoryJobQueue implements JobQueue {
  private readonly jobs = new Map<string, Entry>();
  private readonly waiting: string[] = [];
  private readonly events = new EventEmitter();
  private processor: JobProcessor | null = null;
  private concurrency = 0;
  private running = 0;
  private closed = false;

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.events.setMaxListeners(0);
  }

  private sweep(): void {
    const t = this.now();
    for (const [id, entry] of this.jobs) if (FINISHED.has(entry.view.status) && entry.expires <= t) this.jobs.delete(id);
  }

  private update(entry: Entry, change: Partial<JobView>): void {
    entry.view = { ...entry.view, ...change };
    if (FINISHED.has(entry.view.status)) entry.expires = this.now() + this.ttlSeconds * 1000;
    this.events.emit(entry.view.id, entry.view);
  }

  async submit(id: string, request: JobRequest): Promise<{ view: JobView; created: boolean }> {
    this.sweep();
    const existing = this.jobs.get(id);
    if (existing && existing.view.status !== 'failed' && existing.view.status !== 'cancelled') return { view: existing.view, created: false };
    const view: JobView = { id, kind: request.kind, status: 'queued', progress: { done: 0, total: request.total }, createdAt: new Date(this.now()).toISOString() };
    const priority = 1 + this.standing(request.client);
    this.jobs.set(id, { view, request, cancelled: false, priority, expires: Infinity });
    // After every waiting job of the same or a better place: submission order within a place.
    let at = this.waiting.length;
    while (at > 0 && (this.jobs.get(this.waiting[at - 1])?.priority ?? 0) > priority) at--;
    this.waiting.splice(at, 0, id);
    this.pump();
    return { view, created: true };
  }

  /** Jobs of `client` queued or running (at most MAX_COUNTED_STANDING); none for a job without a client. */
  private standing(client: string | undefined): number {
    if (client === undefined) return 0;
    let count = 0;
    for (const entry of this.jobs.values()) {
      if (entry.request.client === client && (entry.view.status === 'queued' || entry.view.status === 'running')) count++;
    }
    return Math.min(count, MAX_COUNTED_STANDING);
  }

  async get(id: string): Promise<JobView | null> {
    this.sweep();
    return this.jobs.get(id)?.view ?? null;
  }

  async cancel(id: string): Promise<JobView | null> {
    const entry = this.jobs.get(id);
    if (!entry) return null;
    if (FINISHED.has(entry.view.status)) return entry.view;
    entry.cancelled = true;
    if (entry.view.status === 'queued') this.waiting.splice(this.waiting.indexOf(id), 1);
    // A running job sees the flag at its next step and stops; it is cancelled from now on.
    this.update(entry, { status: 'cancelled', finishedAt: new Date(this.now()).toISOString(), error: CANCELLED });
    return entry.view;
  }

  async counts(): Promise<{ waiting: number; running: number }> {
    return { waiting: this.waiting.length, running: this.running };
  }

  async watch(id: string, listener: (view: JobView) => void): Promise<() => void> {
    this.events.on(id, listener);
    return () => this.events.off(id, listener);
  }

  work(processor: JobProcessor, concurrency: number): void {
    this.processor = processor;
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.processor && this.running < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      const entry = this.jobs.get(id);
      if (entry) void this.run(entry, this.processor);
    }
  }

  private async run(entry: Entry, processor: JobProcessor): Promise<void> {
    this.running++;
    this.update(entry, { status: 'running' });
    try {
      const result = await processor(entry.request, {
        progress: (progress) => {
          if (!entry.cancelled) this.update(entry, { progress });
        },
        aborted: () => entry.cancelled,
      });
      if (!entry.cancelled) this.update(entry, { status: 'done', result, finishedAt: new Date(this.now()).toISOString() });
    } catch (e) {
      if (!entry.cancelled) this.update(entry, { status: 'failed', error: errorBody(e), finishedAt: new Date(this.now()).toISOString() });
    } finally {
      this.running--;
      this.pump();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.jobs.values()) if (entry.view.status === 'running') entry.cancelled = true;
  }
}

export const CANCELLED = Object.freeze({ code: 'ANALYSIS_CANCELLED', message: 'the job was cancelled' });

/** A failure as an error body: a service error as it is, anything else without its internals. */
export function errorBody(e: unknown): JobView['error'] {
  if (e instanceof ServiceError) return { ...e.body };
  return { code: 'INTERNAL', message: 'the job failed' };
}
