import { MemoryCache, MemorySessionStore } from '../../src/service/store/memory';
import { RedisCache, RedisSessionStore } from '../../src/service/store/redis';
import { Cache, SessionStore } from '../../src/service/store/types';
import { testRedis } from '../support/redis';

/* One contract, every implementation: the in-memory store and Redis (the real server). */

interface Subject {
  store: SessionStore;
  cache: Cache;
  /** Lets time pass by at least this many seconds. */
  wait(seconds: number): Promise<void>;
  close(): Promise<void>;
}

const implementations: [string, () => Promise<Subject>][] = [
  [
    'memory',
    async () => {
      let now = 1_000_000;
      const clock = () => now;
      return {
        store: new MemorySessionStore(clock),
        cache: new MemoryCache(3, 1 << 20, clock),
        wait: async (s) => {
          now += s * 1000;
        },
        close: async () => undefined,
      };
    },
  ],
  [
    'redis',
    async () => {
      const { client, prefix } = await testRedis();
      const store = new RedisSessionStore(client, prefix);
      return {
        store,
        cache: new RedisCache(client, prefix),
        wait: (s) => new Promise((r) => setTimeout(r, s * 1000)),
        // Closes the client and the store's own pub/sub connection.
        close: () => store.close(),
      };
    },
  ],
];

describe.each(implementations)('session store contract: %s', (_name, make) => {
  let s: Subject;
  beforeAll(async () => {
    s = await make();
  });
  afterAll(async () => {
    await s.close();
  });

  it('creates at version 1 and refuses a second create of the same id', async () => {
    expect(await s.store.create('a', '{"x":1}', 60, ['e1'])).toBe(true);
    expect(await s.store.get('a')).toEqual({ version: 1, data: '{"x":1}' });
    expect(await s.store.create('a', '{"x":2}', 60, [])).toBe(false);
    expect(await s.store.get('missing')).toBeNull();
  });

  it('compare-and-set: the right version saves, a stale one conflicts, an unknown id is missing', async () => {
    await s.store.create('b', 'one', 60, []);
    expect(await s.store.save('b', 1, 'two', 60, [])).toBe('saved');
    expect(await s.store.get('b')).toEqual({ version: 2, data: 'two' });
    expect(await s.store.save('b', 1, 'three', 60, [])).toBe('conflict');
    expect(await s.store.get('b')).toEqual({ version: 2, data: 'two' });
    expect(await s.store.save('nope', 1, 'x', 60, [])).toBe('missing');
  });

  it('of 50 concurrent saves from one version exactly one wins', async () => {
    await s.store.create('c', 'start', 60, ['created']);
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => s.store.save('c', 1, `v${i}`, 60, [`event ${i}`])));
    expect(outcomes.filter((o) => o === 'saved')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'conflict')).toHaveLength(49);
    expect((await s.store.get('c'))?.version).toBe(2);
    // Only the winner's events were appended.
    const history = await s.store.history('c');
    expect(history).toHaveLength(2);
    expect(history?.[0]).toBe('created');
  });

  it('appends history events atomically with each save, in order', async () => {
    await s.store.create('h', 'start', 60, ['a', 'b']);
    expect(await s.store.save('h', 1, 'next', 60, ['c'])).toBe('saved');
    expect(await s.store.save('h', 2, 'next', 60, [])).toBe('saved');
    expect(await s.store.save('h', 3, 'next', 60, ['d', 'e'])).toBe('saved');
    expect(await s.store.history('h')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await s.store.history('none')).toBeNull();
  });

  it('records the idempotent response together with the save', async () => {
    await s.store.create('d', 'start', 60, []);
    const response = { status: 200, body: '{"ok":true}', version: 2 };
    expect(await s.store.idempotent('d', 'key-1')).toBeNull();
    expect(await s.store.save('d', 1, 'next', 60, [], { key: 'key-1', response, ttlSeconds: 60 })).toBe('saved');
    expect(await s.store.idempotent('d', 'key-1')).toEqual(response);
    expect(await s.store.idempotent('d', 'key-2')).toBeNull();
    // A conflicting save records nothing.
    expect(await s.store.save('d', 1, 'other', 60, [], { key: 'key-3', response, ttlSeconds: 60 })).toBe('conflict');
    expect(await s.store.idempotent('d', 'key-3')).toBeNull();
  });

  it('publishes the events of each create and save to the subscribers of that session, in order, until they unsubscribe', async () => {
    const got: string[][] = [];
    const other: string[][] = [];
    const stop = s.store.subscribe('sub', (events) => got.push([...events]));
    const stopOther = s.store.subscribe('sub-other', (events) => other.push([...events]));
    // Redis: SUBSCRIBE is asynchronous on its own connection; let it land.
    await new Promise((r) => setTimeout(r, 100));
    expect(await s.store.create('sub', '{}', 60, ['{"n":1}', '{"n":2}'])).toBe(true);
    expect(await s.store.save('sub', 1, '{}', 60, ['{"n":3}'])).toBe('saved');
    expect(await s.store.save('sub', 2, '{}', 60, [])).toBe('saved');
    expect(await s.store.save('sub', 1, '{}', 60, ['{"n":99}'])).toBe('conflict');
    for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual([['{"n":1}', '{"n":2}'], ['{"n":3}']]);
    stop();
    await new Promise((r) => setTimeout(r, 100));
    expect(await s.store.save('sub', 3, '{}', 60, ['{"n":4}'])).toBe('saved');
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toHaveLength(2);
    expect(other).toEqual([]);
    stopOther();
  });

  it('sessions expire after their TTL', async () => {
    await s.store.create('e', 'short-lived', 1, ['x']);
    expect(await s.store.get('e')).not.toBeNull();
    await s.wait(1.2);
    expect(await s.store.get('e')).toBeNull();
    expect(await s.store.history('e')).toBeNull();
    expect(await s.store.save('e', 1, 'late', 1, [])).toBe('missing');
  });

  it('answers ping', async () => {
    expect(await s.store.ping()).toBe(true);
  });

  it('cache: set, get, expiry', async () => {
    await s.cache.set('k1', 'v1', 60);
    expect(await s.cache.get('k1')).toBe('v1');
    expect(await s.cache.get('k2')).toBeNull();
    await s.cache.set('k3', 'v3', 1);
    await s.wait(1.2);
    expect(await s.cache.get('k3')).toBeNull();
  });
});

describe('memory cache', () => {
  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const cache = new MemoryCache(2);
    await cache.set('a', '1', 60);
    await cache.set('b', '2', 60);
    await cache.get('a');
    await cache.set('c', '3', 60);
    expect(await cache.get('b')).toBeNull();
    expect(await cache.get('a')).toBe('1');
    expect(cache.size).toBe(2);
  });
});
