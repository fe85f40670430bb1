import { Options } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { FallbackStore } from '../../src/http/limits';

/*
 * The rate limiter's store when Redis is away as the process starts: the
 * Redis store's script load fails then, and without a fresh start every later
 * call would fail on that load and count in this process for good, so the
 * replicas would stop sharing counts once Redis is back.
 */

/** A stand-in Redis for rate-limit-redis: scripts load and run while `up`, every command fails while not. */
function fakeRedis() {
  const counts = new Map<string, number>();
  const state = { up: false, evals: 0 };
  const sendCommand = async (command: string, ...args: string[]): Promise<string | number | (string | number)[]> => {
    if (!state.up) throw new Error('Connection is closed.');
    if (command === 'SCRIPT') return 'sha-' + (args[1] ?? '').length;
    if (command === 'EVALSHA') {
      state.evals++;
      const key = args[2];
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return [n, 60_000];
    }
    if (command === 'DECR') return (counts.get(args[0]) ?? 1) - 1;
    return 0;
  };
  return { state, counts, store: new RedisStore({ prefix: 'rl:', sendCommand }) };
}

const OPTIONS = { windowMs: 60_000 } as Options;

describe('rate limiter store', () => {
  it('a store whose Redis was away at start counts in Redis again once Redis is back', async () => {
    const redis = fakeRedis();
    const failures: unknown[] = [];
    const store = new FallbackStore(redis.store, (e) => failures.push(e), 20);
    store.init(OPTIONS);
    // Redis away: counted in this process.
    expect((await store.increment('client')).totalHits).toBe(1);
    expect((await store.increment('client')).totalHits).toBe(2);
    expect(redis.state.evals).toBe(0);
    expect(failures.length).toBeGreaterThan(0);
    redis.state.up = true;
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Back: the store is started again and the count is Redis's.
    expect((await store.increment('client')).totalHits).toBe(1);
    expect((await store.increment('client')).totalHits).toBe(2);
    expect(redis.state.evals).toBe(2);
    expect(redis.counts.get('rl:client')).toBe(2);
    store.shutdown();
  });

  it('a store that started with Redis up falls back per call while Redis fails and returns to Redis after', async () => {
    const redis = fakeRedis();
    redis.state.up = true;
    const store = new FallbackStore(redis.store, () => undefined, 20);
    store.init(OPTIONS);
    expect((await store.increment('a')).totalHits).toBe(1);
    redis.state.up = false;
    expect((await store.increment('a')).totalHits).toBe(1);
    redis.state.up = true;
    expect((await store.increment('a')).totalHits).toBe(2);
    expect(redis.counts.get('rl:a')).toBe(2);
    store.shutdown();
  });
});
