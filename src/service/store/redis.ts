import { SETTING_DEFAULTS } from '../../limits';
import Redis, { Cluster, RedisOptions } from 'ioredis';
import { Cache, EventListener, Listeners, SaveArgs, SaveOutcome, SessionStore, StoreOutcomeUnknownError, StoreUnavailableError, StoredResponse, Versioned } from './types';

/**
 * Redis-backed sessions and cache. Keys carry a hash tag on the session id
 * (`{id}`) so a session and its idempotency records live in one slot of a
 * Redis Cluster, and the Lua scripts that touch both stay single-slot.
 *
 * Commands fail fast while Redis is unreachable (no offline queue, a command
 * timeout) and surface as `StoreUnavailableError`; ioredis keeps reconnecting
 * in the background.
 */
export type RedisClient = Redis | Cluster;

// KEYS: session hash, history list. ARGV: data, ttl ms, event channel, events…
// The events are published in the same atomic step as they are saved, so
// subscribers everywhere receive them in the order of the saves.
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'd', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
if #ARGV > 3 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 4))
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  redis.call('PUBLISH', ARGV[3], cjson.encode({unpack(ARGV, 4)}))
end
return 1`;

// KEYS: session hash, idempotency key, history list.
// ARGV: expected version, data, ttl ms, has idempotency, response, idempotency ttl ms, event channel, events…
const SAVE = `
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(ARGV[1]) + 1, 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[4] == '1' then redis.call('SET', KEYS[2], ARGV[5], 'PX', ARGV[6]) end
if #ARGV > 7 then
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 8))
  redis.call('PUBLISH', ARGV[7], cjson.encode({unpack(ARGV, 8)}))
end
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 1`;

/**
 * How long one store command may take before the caller is told the store
 * is unavailable (the ioredis command timeout; job-queue operations as a
 * whole are held to it too).
 */
export const STORE_TIMEOUT_MS = 2000;

/** Options that make ioredis fail fast and reconnect forever. */
export function redisClientOptions(extra: RedisOptions = {}): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: STORE_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (times: number) => Math.min(100 * times, 2000),
    lazyConnect: false,
    ...extra,
  };
}

export function createRedisClient(url: string, extra: RedisOptions = {}): Redis {
  const client = new Redis(url, redisClientOptions(extra));
  // Errors are reported through command failures; an unhandled 'error' event would crash the process.
  client.on('error', () => undefined);
  return client;
}

export function createRedisCluster(nodes: { host: string; port: number }[], extra: RedisOptions = {}): Cluster {
  const cluster = new Cluster(nodes, { redisOptions: redisClientOptions(extra), enableOfflineQueue: false, clusterRetryStrategy: (times: number) => Math.min(100 * times, 2000) });
  cluster.on('error', () => undefined);
  return cluster;
}

/** Resolves when the client is ready, or false after `timeoutMs` (the client keeps trying). */
export function whenReady(client: RedisClient, timeoutMs = 3000): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    timer.unref?.();
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    client.once('ready', onReady);
  });
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw new StoreUnavailableError(e);
  }
}

/**
 * Whether a failed write certainly wrote nothing: ioredis refuses a command
 * at once while the connection is not writable (no offline queue), and
 * Redis at its `maxmemory` under `noeviction` refuses a script's first write
 * (`OOM …`), which in the create and save scripts comes before any other.
 * Any other failure of a write (a command timeout, a connection lost while
 * waiting) leaves it unknown whether Redis applied it.
 */
function neverSent(error: unknown): boolean {
  return error instanceof Error && /enableOfflineQueue|Stream isn't writeable|^OOM /.test(error.message);
}

export class RedisSessionStore implements SessionStore {
  private readonly listeners = new Listeners();
  /** The pub/sub connection (a subscribed connection can send no other commands), opened on first use. */
  private subscriber: RedisClient | null = null;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'nardy',
  ) {}

  private channel(id: string): string {
    return `${this.prefix}:game:{${id}}:events`;
  }

  private subscriberConnection(): RedisClient {
    if (this.subscriber) return this.subscriber;
    // Subscriptions wait for the connection (offline queue on) and are renewed by ioredis after a reconnection.
    const options = { enableOfflineQueue: true, autoResubscribe: true };
    const sub = this.redis instanceof Cluster ? this.redis.duplicate(undefined, { enableOfflineQueue: true }) : this.redis.duplicate(options);
    sub.on('error', () => undefined);
    const head = `${this.prefix}:game:{`;
    sub.on('message', (channel: string, message: string) => {
      if (!channel.startsWith(head) || !channel.endsWith('}:events')) return;
      const id = channel.slice(head.length, -'}:events'.length);
      let events: unknown;
      try {
        events = JSON.parse(message);
      } catch {
        return;
      }
      if (Array.isArray(events)) this.listeners.emit(id, events.filter((e): e is string => typeof e === 'string'));
    });
    this.subscriber = sub;
    return sub;
  }

  subscribe(id: string, listener: EventListener): () => void {
    if (this.listeners.add(id, listener)) {
      this.subscriberConnection().subscribe(this.channel(id)).catch(() => undefined);
    }
    return () => {
      if (this.listeners.remove(id, listener)) this.subscriber?.unsubscribe(this.channel(id)).catch(() => undefined);
    };
  }

  private key(id: string): string {
    return `${this.prefix}:game:{${id}}`;
  }

  private idemKey(id: string, key: string): string {
    return `${this.prefix}:game:{${id}}:idem:${key}`;
  }

  private historyKey(id: string): string {
    return `${this.prefix}:game:{${id}}:history`;
  }

  async create(id: string, data: string, ttlSeconds: number, events: readonly string[]): Promise<boolean> {
    // A creation sent but not confirmed may have made the game, as an action may have been applied.
    const r = await this.write(1, undefined, () =>
      this.redis.eval(CREATE, 2, this.key(id), this.historyKey(id), data, String(ttlSeconds * 1000), this.channel(id), ...events),
    );
    return r === 1;
  }

  async get(id: string): Promise<Versioned | null> {
    const r = await guarded(() => this.redis.hmget(this.key(id), 'v', 'd'));
    const [v, d] = r;
    if (v === null || d === null) return null;
    return { version: Number(v), data: d };
  }

  async save(...[id, expectedVersion, data, ttlSeconds, events, idempotency]: SaveArgs): Promise<SaveOutcome> {
    const idemKey = idempotency ? this.idemKey(id, idempotency.key) : this.key(id);
    const r = await this.write(expectedVersion + 1, idempotency?.key, () =>
      this.redis.eval(
        SAVE,
        3,
        this.key(id),
        idemKey,
        this.historyKey(id),
        String(expectedVersion),
        data,
        String(ttlSeconds * 1000),
        idempotency ? '1' : '0',
        idempotency ? JSON.stringify(idempotency.response) : '',
        idempotency ? String(idempotency.ttlSeconds * 1000) : '0',
        this.channel(id),
        ...events,
      ),
    );
    return r === 1 ? 'saved' : r === 0 ? 'conflict' : 'missing';
  }

  /** A write whose failure is unknown in outcome unless the command was never sent. */
  private async write<T>(version: number, idempotencyKey: string | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      throw neverSent(e) ? new StoreUnavailableError(e) : new StoreOutcomeUnknownError(version, idempotencyKey, e);
    }
  }

  async idempotent(id: string, key: string): Promise<StoredResponse | null> {
    const r = await guarded(() => this.redis.get(this.idemKey(id, key)));
    return r === null ? null : (JSON.parse(r) as StoredResponse);
  }

  async history(id: string): Promise<string[] | null> {
    const [exists, events] = await guarded(() =>
      Promise.all([this.redis.exists(this.key(id)), this.redis.lrange(this.historyKey(id), 0, -1)]),
    );
    return exists ? events : null;
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
    this.redis.disconnect();
  }
}

/** CACHE_MAX_MB by default: the bytes the cache may hold (in Redis and in the process alike). */
export const DEFAULT_CACHE_MAX_BYTES = SETTING_DEFAULTS.cacheMaxMb * 1024 * 1024;

/**
 * What one cache entry costs Redis beside its key and value (the key's
 * entry, the string header and the TTL), as `MEMORY USAGE` reports it
 * (`npm run bench:store-memory -- --redis`: 50–70 bytes on Redis 7).
 */
export const CACHE_ENTRY_OVERHEAD_BYTES = 80;

// KEYS: the window's byte count, the entry. ARGV: bytes, the window's allowance, window ms, value, entry ttl ms.
// The count and the entry are apart on a Cluster (no shared tag), so they are two steps: count, then keep.
const CACHE_CHARGE = `
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if used == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) * 2) end
if used > tonumber(ARGV[2]) then
  redis.call('DECRBY', KEYS[1], ARGV[1])
  return 0
end
return 1`;

/**
 * The hot-position cache in Redis: plain keys with a TTL, under a byte
 * budget (CACHE_MAX_MB). Entries live at most `windowSeconds` (the cache
 * TTL), and each window of that length may write at most half the budget,
 * counted in Redis for every replica: what is alive at any moment was
 * written in the current window or the one before, so at most the budget
 * (keys, values and the per-entry overhead). Past a window's half, answers
 * are computed but not kept until the next window. Redis's `maxmemory` and
 * eviction policy come on top (docs/operations.md, "Redis sizing").
 */
export class RedisCache implements Cache {
  private readonly windowSeconds: number;
  private readonly maxBytes: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'nardy',
    private readonly maxValueBytes = 256 * 1024,
    budget: { readonly maxBytes?: number; readonly windowSeconds?: number } = {},
  ) {
    this.maxBytes = budget.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.windowSeconds = budget.windowSeconds ?? 3600;
  }

  async get(key: string): Promise<string | null> {
    return guarded(() => this.redis.get(`${this.prefix}:cache:${key}`));
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    if (value.length > this.maxValueBytes) return;
    const entry = `${this.prefix}:cache:${key}`;
    const bytes = Buffer.byteLength(entry) + Buffer.byteLength(value) + CACHE_ENTRY_OVERHEAD_BYTES;
    const windowMs = this.windowSeconds * 1000;
    const window = Math.floor(Date.now() / windowMs);
    const allowed = await guarded(() =>
      this.redis.eval(CACHE_CHARGE, 1, `${this.prefix}:cache-bytes:${window}`, bytes, Math.floor(this.maxBytes / 2), windowMs),
    );
    if (allowed !== 1) return;
    // No entry outlives the window its bytes were counted in and the next.
    const ttl = Math.min(ttlSeconds, this.windowSeconds);
    await guarded(() => this.redis.set(entry, value, 'EX', ttl));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
