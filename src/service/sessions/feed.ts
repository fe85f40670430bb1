import { ServiceError } from '../errors';
import { SessionStore } from '../store/types';
import { HistoryEvent, SessionRecord } from './record';

/** Pauses before the store is read again after a failed read (ms); past the last, the feed is interrupted. */
const RETRY_DELAYS_MS = [100, 400, 1000];

/**
 * The events of one game as they happen, for event streams: first every
 * history event after `after` (the number of the last event the client has),
 * then each new event once, in order, until the game (or match) is over.
 *
 * The store delivers saved events at most once (pub/sub); the feed turns
 * that into exactly once: it subscribes before reading the history, skips
 * what it has already sent, and reads the history again when an event
 * number jumps (a message lost while a replica reconnected, say). Everything
 * runs through one promise chain, so the history read and the live events
 * never interleave.
 *
 * The feed is done only when the game is over (or gone). A store read that
 * fails is tried again a few times; if the store still does not answer,
 * the feed is interrupted: after the events it already has, `next` rejects
 * with STORE_UNAVAILABLE, and a client resumes later from its last event.
 */
export class GameFeed implements AsyncIterableIterator<HistoryEvent> {
  private readonly ready: HistoryEvent[] = [];
  private waiting: { resolve: (result: IteratorResult<HistoryEvent>) => void; reject: (error: unknown) => void } | null = null;
  private cursor: number;
  private ended = false;
  /** Why the feed stopped before the game was over, if it did. */
  private interruption: ServiceError | null = null;
  private chain: Promise<void>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: SessionStore,
    private readonly id: string,
    after: number,
  ) {
    this.cursor = after;
    this.unsubscribe = store.subscribe(id, (events) => {
      this.chain = this.chain.then(() => this.arrived(events)).catch((e: unknown) => this.interrupt(e));
    });
    this.chain = this.catchUp().catch((e: unknown) => this.interrupt(e));
  }

  /** The number of the last event handed out (the SSE id a client resumes from). */
  get last(): number {
    return this.cursor;
  }

  private deliver(event: HistoryEvent): void {
    if (this.ended || event.n <= this.cursor) return;
    this.cursor = event.n;
    if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = null;
      resolve({ value: event, done: false });
    } else {
      this.ready.push(event);
    }
  }

  private async arrived(raw: readonly string[]): Promise<void> {
    if (this.ended) return;
    const events = raw.map((e) => JSON.parse(e) as HistoryEvent).sort((a, b) => a.n - b.n);
    for (const event of events) {
      if (event.n <= this.cursor) continue;
      if (event.n > this.cursor + 1 || event.type === 'game-over') {
        // A gap: fill it from the history (which holds this event too). After a game-over the
        // history read also tells whether the session is over.
        await this.catchUp();
        continue;
      }
      this.deliver(event);
    }
  }

  /** Sends every stored event after the cursor; ends the feed when the session is over or gone. A failed read is tried again. */
  private async catchUp(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.readHistory();
      } catch (e) {
        if (this.ended || attempt >= RETRY_DELAYS_MS.length) throw e;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    }
  }

  private async readHistory(): Promise<void> {
    if (this.ended) return;
    // The status is read before the history: a session finished then has all its events in the history.
    const stored = await this.store.get(this.id);
    const history = await this.store.history(this.id);
    if (!stored || !history) {
      this.end();
      return;
    }
    for (const text of history) {
      const event = JSON.parse(text) as HistoryEvent;
      if (event.n > this.cursor) this.deliver(event);
    }
    if ((JSON.parse(stored.data) as SessionRecord).status === 'finished') this.end();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.unsubscribe();
    if (this.waiting && this.ready.length === 0) {
      const { resolve, reject } = this.waiting;
      this.waiting = null;
      if (this.interruption) reject(this.interruption);
      else resolve({ value: undefined, done: true });
    }
  }

  /** The store did not answer, even when asked again: the game may go on, so the feed stops without being done. */
  private interrupt(cause: unknown): void {
    if (this.ended) return;
    this.interruption = new ServiceError({
      code: 'STORE_UNAVAILABLE',
      message: `the session store is unavailable; the game's events were followed up to ${this.cursor}: resume after it (Last-Event-ID) shortly`,
    });
    (this.interruption as { cause?: unknown }).cause = cause;
    this.end();
  }

  next(): Promise<IteratorResult<HistoryEvent>> {
    const event = this.ready.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.interruption) return Promise.reject(this.interruption);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** Stops following (the client went away): no more events, the subscription is dropped. */
  return(): Promise<IteratorResult<HistoryEvent>> {
    this.ready.length = 0;
    this.interruption = null;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<HistoryEvent> {
    return this;
  }
}
