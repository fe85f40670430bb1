import { SETTING_DEFAULTS } from '../../limits';
import { Cache, DEFAULT_MAX_GAMES, EventListener, GameStage, Listeners, SaveArgs, SaveOutcome, SessionStore, StoreFullError, StoredResponse, Versioned } from './types';

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** A clock, injectable so tests can move time. */
export type Now = () => number;

interface Game {
  version: number;
  data: string;
  expiresAt: number;
  stage: GameStage;
  history: string[];
  /** Idempotency records of this game, dropped with it. */
  responses: Map<string, Entry<StoredResponse>>;
}

export interface MemoryStoreOptions {
  /**
   * MAX_GAMES: the most games kept. At the bound a new game first makes room
   * by dropping expired games, then finished ones, then games that never had
   * an action (oldest first); when every game is in play, `create` throws
   * `StoreFullError`.
   */
  readonly maxGames?: number;
}

/**
 * The embedded session store: Maps in this process, used when REDIS_URL is
 * unset. Same contract as the Redis store (atomic compare-and-set, TTL,
 * idempotency records), but sessions live only as long as the process, and
 * there are at most `maxGames` of them.
 */
export class MemorySessionStore implements SessionStore {
  private readonly games = new Map<string, Game>();
  /** The ids of each stage, oldest last-change first (a change moves an id to the end). */
  private readonly byStage: Record<GameStage, Map<string, true>> = { unstarted: new Map(), live: new Map(), finished: new Map() };
  private readonly listeners = new Listeners();
  readonly maxGames: number;

  constructor(
    private readonly now: Now = Date.now,
    options: MemoryStoreOptions = {},
  ) {
    this.maxGames = options.maxGames ?? DEFAULT_MAX_GAMES;
  }

  private game(id: string): Game | null {
    const game = this.games.get(id);
    if (!game) return null;
    if (game.expiresAt <= this.now()) {
      this.drop(id, game);
      return null;
    }
    return game;
  }

  private drop(id: string, game: Game): void {
    this.games.delete(id);
    this.byStage[game.stage].delete(id);
  }

  private place(id: string, game: Game, stage: GameStage): void {
    this.byStage[game.stage].delete(id);
    game.stage = stage;
    this.byStage[stage].set(id, true);
  }

  /** Frees one place: an expired game, else a finished one, else one never started. */
  private evictOne(): boolean {
    const now = this.now();
    for (const stage of ['unstarted', 'finished', 'live'] as const) {
      const oldest = this.byStage[stage].keys().next();
      if (oldest.done) continue;
      const game = this.games.get(oldest.value);
      if (!game || game.expiresAt <= now) {
        if (game) this.drop(oldest.value, game);
        else this.byStage[stage].delete(oldest.value);
        return true;
      }
    }
    for (const stage of ['finished', 'unstarted'] as const) {
      const oldest = this.byStage[stage].keys().next();
      if (oldest.done) continue;
      const game = this.games.get(oldest.value);
      if (game) this.drop(oldest.value, game);
      else this.byStage[stage].delete(oldest.value);
      return true;
    }
    return false;
  }

  async create(id: string, data: string, ttlSeconds: number, events: readonly string[], stage: GameStage = 'unstarted'): Promise<boolean> {
    if (this.game(id)) return false;
    while (this.games.size >= this.maxGames) {
      if (!this.evictOne()) throw new StoreFullError(this.maxGames);
    }
    const game: Game = { version: 1, data, expiresAt: this.now() + ttlSeconds * 1000, stage, history: events.slice(), responses: new Map() };
    this.games.set(id, game);
    this.byStage[stage].set(id, true);
    this.listeners.emit(id, events);
    return true;
  }

  async get(id: string): Promise<Versioned | null> {
    const game = this.game(id);
    return game ? { version: game.version, data: game.data } : null;
  }

  async save(...[id, expectedVersion, data, ttlSeconds, events, idempotency, stage = 'live']: SaveArgs): Promise<SaveOutcome> {
    const game = this.game(id);
    if (!game) return 'missing';
    if (game.version !== expectedVersion) return 'conflict';
    game.version = expectedVersion + 1;
    game.data = data;
    game.expiresAt = this.now() + ttlSeconds * 1000;
    game.history.push(...events);
    this.place(id, game, stage);
    if (idempotency) {
      game.responses.set(idempotency.key, { value: idempotency.response, expiresAt: this.now() + idempotency.ttlSeconds * 1000 });
    }
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
    const entry = this.game(id)?.responses.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.games.get(id)?.responses.delete(key);
      return null;
    }
    return entry.value;
  }

  async history(id: string): Promise<string[] | null> {
    return this.game(id)?.history.slice() ?? null;
  }

  /** Games kept now, by stage (expired ones included until they are dropped). */
  counts(): Record<GameStage, number> {
    return { unstarted: this.byStage.unstarted.size, live: this.byStage.live.size, finished: this.byStage.finished.size };
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.games.clear();
    for (const stage of Object.values(this.byStage)) stage.clear();
    this.listeners.clear();
  }
}

/** A bounded LRU cache in this process (Map insertion order = recency). */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry<string>>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxBytes = SETTING_DEFAULTS.cacheMaxMb * 1024 * 1024,
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
