import { Cache, EventListener, Listeners, SaveOutcome, SessionStore, StoredResponse, Versioned } from './types';

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** A clock, injectable so tests can move time. */
export type Now = () => number;

/**
 * The embedded session store: a Map in this process, used when REDIS_URL is
 * unset. Same contract as the Redis store (atomic compare-and-set, TTL,
 * idempotency records), but sessions live only as long as the process.
 */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Entry<Versioned>>();
  private readonly responses = new Map<string, Entry<StoredResponse>>();
  private readonly histories = new Map<string, string[]>();
  private readonly listeners = new Listeners();

  constructor(private readonly now: Now = Date.now) {}

  private live<T>(map: Map<string, Entry<T>>, key: string): T | null {
    const entry = map.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      map.delete(key);
      return null;
    }
    return entry.value;
  }

  async create(id: string, data: string, ttlSeconds: number, events: readonly string[]): Promise<boolean> {
    if (this.live(this.sessions, id)) return false;
    this.sessions.set(id, { value: { version: 1, data }, expiresAt: this.now() + ttlSeconds * 1000 });
    this.histories.set(id, events.slice());
    this.listeners.emit(id, events);
    return true;
  }

  async get(id: string): Promise<Versioned | null> {
    return this.live(this.sessions, id);
  }

  async save(
    id: string,
    expectedVersion: number,
    data: string,
    ttlSeconds: number,
    events: readonly string[],
    idempotency?: { key: string; response: StoredResponse; ttlSeconds: number },
  ): Promise<SaveOutcome> {
    const current = this.live(this.sessions, id);
    if (!current) return 'missing';
    if (current.version !== expectedVersion) return 'conflict';
    this.sessions.set(id, { value: { version: expectedVersion + 1, data }, expiresAt: this.now() + ttlSeconds * 1000 });
    const history = this.histories.get(id) ?? [];
    history.push(...events);
    this.histories.set(id, history);
    if (idempotency) {
      this.responses.set(`${id}\u0000${idempotency.key}`, {
        value: idempotency.response,
        expiresAt: this.now() + idempotency.ttlSeconds * 1000,
      });
    }
    this.sweep();
    this.listeners.emit(id, events);
    return 'saved';
  }

  subscribe(id: string, listener: EventListener): () => void {
    this.listeners.add(id, listener);
    return () => {
      this.listeners.remove(id, listener);
    };
  }

  async idempotent(id: string, key: string): Promise<StoredResponse | null> {
    return this.live(this.responses, `${id}\u0000${key}`);
  }

  async history(id: string): Promise<string[] | null> {
    if (!this.live(this.sessions, id)) return null;
    return (this.histories.get(id) ?? []).slice();
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.sessions.clear();
    this.responses.clear();
    this.histories.clear();
    this.listeners.clear();
  }

  private sweeps = 0;
  /** Drops expired entries now and then so a long-running process does not keep them. */
  private sweep(): void {
    if (++this.sweeps % 256 !== 0) return;
    const now = this.now();
    for (const [k, e] of this.sessions) {
      if (e.expiresAt <= now) {
        this.sessions.delete(k);
        this.histories.delete(k);
      }
    }
    for (const [k, e] of this.responses) if (e.expiresAt <= now) this.responses.delete(k);
  }
}

/** A bounded LRU cache in this process (Map insertion order = recency). */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry<string>>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly now: Now = Date.now,
  ) {}

  async get(key: string): Promise<string | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.bytes -= entry.value.length;
      return null;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.value.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
    this.bytes += value.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      const e = this.entries.get(oldest.value);
      if (e) this.bytes -= e.value.length;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
  }
}
