import { Writable } from 'stream';
import request from 'supertest';
import { buildServices } from '../../src/app';
import { createLogger, throttledWarn } from '../../src/http/observability';
import { RedisCache, RedisClient, RedisSessionStore } from '../../src/service/store/redis';
import { testApp } from '../support/app';

/* Logs under faults: a Redis that does not answer gives single, throttled JSON lines and 503s at warn; rate limits still count. */

/** A pino destination that keeps the lines. */
function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

describe('logs under faults', () => {
  it('throttledWarn writes one line per interval with the count it left out', () => {
    let now = 0;
    const seen: { fields: Record<string, unknown>; message: string }[] = [];
    const warn = throttledWarn({ warn: (fields, message) => seen.push({ fields, message }) }, 'store down', 10_000, () => now);
    for (let i = 0; i < 1000; i++) warn(new Error(`refused\n    at somewhere (file.js:1:1)`));
    now += 10_001;
    warn(new Error('refused'));
    expect(seen).toEqual([
      { fields: { err: 'Error: refused', suppressed: 0 }, message: 'store down' },
      { fields: { err: 'Error: refused', suppressed: 999 }, message: 'store down' },
    ]);
  });

  it('with Redis away: sessions answer 503 (logged at warn), store failures are single throttled JSON lines, the rate limit still counts', async () => {
    // A Redis client whose every command fails as ioredis fails while the server is away.
    const client = new Proxy({} as RedisClient, {
      get: (_target, property) =>
        property === 'status' ? 'reconnecting' : () => Promise.reject(new Error("Stream isn't writeable and enableOfflineQueue options is false")),
    });
    const { lines, stream } = capture();
    const log = createLogger('info', stream);
    const app = await testApp({
      log,
      redis: client,
      services: buildServices({
        store: new RedisSessionStore(client, 'faults'),
        cacheStore: new RedisCache(client, 'faults'),
        onStoreError: throttledWarn(log, 'session store: not answering; sessions answer 503'),
      }),
      rateLimit: { max: 30, windowSeconds: 60 },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await request(app.app).post('/v1/games').send({ variant: 'long' })).status);
      // The limit holds in memory while Redis is away: 30 answers, then 429.
      expect(statuses.slice(0, 30).every((s) => s === 503)).toBe(true);
      expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
      const parsed = lines.map((line) => JSON.parse(line) as { level: string; message: string; status?: number; err?: string });
      const requests503 = parsed.filter((l) => l.status === 503);
      expect(requests503).toHaveLength(30);
      expect(requests503.every((l) => l.level === 'warn')).toBe(true);
      expect(parsed.filter((l) => l.level === 'error')).toEqual([]);
      const store = parsed.filter((l) => l.message.startsWith('session store'));
      const limiter = parsed.filter((l) => l.message.startsWith('rate limit'));
      expect(store).toHaveLength(1);
      expect(limiter).toHaveLength(1);
      for (const line of [...store, ...limiter]) {
        expect(line.level).toBe('warn');
        expect(line.err).not.toMatch(/\n| {4}at /);
      }
    } finally {
      await app.close();
    }
  });
});
