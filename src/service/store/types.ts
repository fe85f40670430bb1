import { SETTING_DEFAULTS } from '../../limits';
/**
 * Storage behind the service layer: sessions and the hot-position
 * cache are interfaces with a Redis implementation and an in-memory one (the
 * embedded default when REDIS_URL is unset). One contract test suite runs
 * against every implementation.
 */

/** A stored session: an opaque JSON document and its version (the ETag). */
export interface Versioned {
  readonly version: number;
  readonly data: string;
}

/**
 * What is kept under an action's Idempotency-Key to answer a repeat: the
 * status and the version the action made (the answer's body is the game's
 * view at that version, made again from the game), about 150 bytes.
 */
export interface StoredResponse {
  readonly status: number;
  /** The whole first answer: only in records written before they were kept small; those replay it as it is. */
  readonly body?: string;
  /** The session version the action produced. */
  readonly version: number;
  /**
   * A hash of the request the key was first used for (seat, action, body):
   * the same key with another request is refused. Absent in records written
   * before keys were bound to their request; those replay as they are.
   */
  readonly request?: string;
}

export type SaveOutcome = 'saved' | 'conflict' | 'missing';

/**
 * Where a game stands, for what a full store may drop first: `unstarted`
 * (created, no action yet), `live` (played), `finished` (the game or match
 * is over). The service gives each stage its own TTL.
 */
export type GameStage = 'unstarted' | 'live' | 'finished';

/** MAX_GAMES by default: sized for a 512 MiB container (docs/operations.md, "Memory"). */
export const DEFAULT_MAX_GAMES = SETTING_DEFAULTS.maxGames;

/** Receives the history events (JSON text) of one save. */
export type EventListener = (events: readonly string[]) => void;

/** Listeners per session id, for the stores' subscriptions. */
export class Listeners {
  private readonly byId = new Map<string, Set<EventListener>>();

  /** Adds a listener; true when it is the first for this id. */
  add(id: string, listener: EventListener): boolean {
    let set = this.byId.get(id);
    const first = !set;
    if (!set) this.byId.set(id, (set = new Set()));
    set.add(listener);
    return first;
  }

  /** Removes a listener; true when it was the last for this id. */
  remove(id: string, listener: EventListener): boolean {
    const set = this.byId.get(id);
    if (!set || !set.delete(listener)) return false;
    if (set.size > 0) return false;
    this.byId.delete(id);
    return true;
  }

  emit(id: string, events: readonly string[]): void {
    if (events.length === 0) return;
    for (const listener of this.byId.get(id) ?? []) {
      try {
        listener(events);
      } catch {
        // One failing listener must not keep the others (or the save) from going on.
      }
    }
  }

  get size(): number {
    return this.byId.size;
  }

  clear(): void {
    this.byId.clear();
  }
}

/** A response kept under an idempotency key for `ttlSeconds`. */
export interface IdempotentSave {
  readonly key: string;
  readonly response: StoredResponse;
  readonly ttlSeconds: number;
}

/**
 * The arguments of `SessionStore.save`: the session, the version it must
 * still be at, its new data and TTL, the history events to append, the
 * response to keep under an idempotency key, and the session's new stage.
 */
export type SaveArgs = [
  id: string,
  expectedVersion: number,
  data: string,
  ttlSeconds: number,
  events: readonly string[],
  idempotency?: IdempotentSave,
  stage?: GameStage,
];

export interface SessionStore {
  /**
   * Creates a session at version 1 with its first history events; false when
   * the id exists already. A bounded store that cannot make room throws
   * `StoreFullError`.
   */
  create(id: string, data: string, ttlSeconds: number, events: readonly string[], stage?: GameStage): Promise<boolean>;
  /** The current version, or null when there is no such session (or it expired). */
  get(id: string): Promise<Versioned | null>;
  /**
   * Atomically replaces the session if it is still at `expectedVersion`
   * (compare-and-set) and, in the same step, appends `events` to its history
   * and records `response` under the idempotency key when one is given. The
   * TTL is renewed. The history lives beside the session, so a save costs
   * the same at the first move and at the thousandth.
   */
  save(...args: SaveArgs): Promise<SaveOutcome>;
  /** Every history event of the session, oldest first, or null when there is no such session. */
  history(id: string): Promise<string[] | null>;
  /**
   * Calls `listener` with the events that `create` and `save` add to this
   * session from now on — in this process and, for a shared store, in every
   * process using it (Redis pub/sub) — in the order they were saved. Delivery
   * is at most once: a listener that must not miss events reads `history`
   * after subscribing and again when it sees a gap in the event numbers.
   * Returns the unsubscribe.
   */
  subscribe(id: string, listener: EventListener): () => void;
  /** The response recorded under an idempotency key of this session, if any. */
  idempotent(id: string, key: string): Promise<StoredResponse | null>;
  /** Liveness of the backing store. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface Cache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
}

/** The store holds as many games in play as it may: new games answer 503 STORE_FULL. */
export class StoreFullError extends Error {
  constructor(readonly maxGames: number) {
    super(`the session store holds ${maxGames} games in play`);
    this.name = 'StoreFullError';
  }
}

/** The backing store cannot be reached: sessions answer 503 STORE_UNAVAILABLE. */
export class StoreUnavailableError extends Error {
  declare readonly cause?: unknown;
  constructor(cause?: unknown) {
    super('the session store is unavailable');
    this.name = 'StoreUnavailableError';
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

/**
 * A write was sent but not confirmed in time (a command timeout, a
 * connection lost while waiting): it may or may not have been applied.
 * Carries the version the write would have produced (1 for a creation) and
 * its idempotency key.
 */
export class StoreOutcomeUnknownError extends StoreUnavailableError {
  constructor(
    readonly version: number,
    readonly idempotencyKey: string | undefined,
    cause?: unknown,
  ) {
    super(cause);
    this.name = 'StoreOutcomeUnknownError';
  }
}
