import { spawn } from 'child_process';
import request from 'supertest';
import { buildServices } from '../../src/app';
import { App } from '../../src/http/app';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { RedisCache, RedisSessionStore, createRedisClient, whenReady } from '../../src/service/store/redis';
import { testApp } from '../support/app';
import { OwnRedis } from '../support/own-redis';
import { ROOT, nodeArguments, startService, stopProcess } from '../support/processes';
import { Created } from '../support/sessions';

/*
 * Redis stays bounded: an idempotency record keeps only what answers a
 * repeat (not the whole answer), the hot-position cache holds at most its
 * byte budget (CACHE_MAX_MB) however much is written, a process refuses to
 * start on a Redis whose eviction policy may drop games in play, and a
 * write Redis refuses at its limit (noeviction) is "nothing written".
 */

let redis: OwnRedis;
let client: ReturnType<typeof createRedisClient>;

beforeAll(async () => {
  redis = await OwnRedis.start();
  client = createRedisClient(redis.url);
  await whenReady(client, 3000);
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

describe('idempotency records', () => {
  let app: App;
  beforeAll(async () => {
    app = await testApp({ services: buildServices({ store: new RedisSessionStore(client, 'bounds-idem'), seeds: deterministicSeeds('bounds-idem') }) });
  });
  afterAll(async () => app?.close());

  it('keep what answers a repeat, a few hundred bytes, and a repeat after later actions still says the action was applied once', async () => {
    const created = (await request(app.app).post('/v1/games').send({ variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } })).body as Created;
    const white = `Bearer ${created.seats.white.token}`;
    const rolled = await request(app.app).post(`/v1/games/${created.id}/roll`).set('authorization', white).set('idempotency-key', 'roll-1').send({});
    expect(rolled.status).toBe(200);
    const answerBytes = Buffer.byteLength(JSON.stringify(rolled.body));
    const recordBytes = Number(await client.call('MEMORY', 'USAGE', `bounds-idem:game:{${created.id}}:idem:roll-1`));
    console.log(`idempotency record of a roll: ${recordBytes} bytes in Redis (MEMORY USAGE); the answer itself is ${answerBytes} bytes`);
    expect(recordBytes).toBeGreaterThan(0);
    expect(recordBytes).toBeLessThan(400);

    // At the same version the repeat is the first answer itself.
    const again = await request(app.app).post(`/v1/games/${created.id}/roll`).set('authorization', white).set('idempotency-key', 'roll-1').send({});
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(rolled.body);

    // After a later action the repeat answers the game as it is now, and the roll was applied once.
    const played = await request(app.app).post(`/v1/games/${created.id}/play`).set('authorization', white).send({ steps: rolled.body.legalTurns[0].steps });
    expect(played.status).toBe(200);
    const late = await request(app.app).post(`/v1/games/${created.id}/roll`).set('authorization', white).set('idempotency-key', 'roll-1').send({});
    expect(late.status).toBe(200);
    expect(late.headers['idempotent-replayed']).toBe('true');
    expect(late.body).toEqual(played.body);
    const history = (await request(app.app).get(`/v1/games/${created.id}/history`)).body.events as { type: string }[];
    expect(history.filter((e) => e.type === 'roll')).toHaveLength(1);
  });
});

describe('the hot-position cache in Redis', () => {
  it('holds at most its byte budget however much is written', async () => {
    const maxBytes = 64 * 1024;
    const cache = new RedisCache(client, 'bounds-cache', undefined, { maxBytes, windowSeconds: 3600 });
    const value = JSON.stringify({ turns: 'x'.repeat(2000) });
    for (let i = 0; i < 200; i++) await cache.set(`moves:${i}`, value, 3600);
    const keys = await client.keys('bounds-cache:cache:*');
    let used = 0;
    for (const key of keys) used += Number(await client.call('MEMORY', 'USAGE', key));
    console.log(`cache budget ${maxBytes} bytes: ${keys.length} of 200 entries kept, ${used} bytes by MEMORY USAGE`);
    expect(keys.length).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(maxBytes);
    // A hit is still a hit.
    expect(await cache.get(keys[0].slice('bounds-cache:cache:'.length))).toBe(value);
  });
});

describe('the eviction policy at start', () => {
  it('a process refuses to start on a Redis that may evict games in play, and starts on volatile-ttl', async () => {
    const lru = await OwnRedis.start(['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru']);
    try {
      const child = spawn(process.execPath, nodeArguments('src/main.ts'), {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'production', REDIS_URL: lru.url, REDIS_CLUSTER_NODES: '', PORT: '0', HOST: '127.0.0.1', WARM_UP_ROUNDS: '0', ANALYSIS_WORKERS: '0', EVALUATOR: 'heuristic', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout?.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(null);
        }, 60_000);
        child.once('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(code).toBe(2);
      expect(err).toMatch(/allkeys-lru/);
    } finally {
      await lru.stop();
    }
    const ttl = await OwnRedis.start(['--maxmemory', '64mb', '--maxmemory-policy', 'volatile-ttl']);
    try {
      // SHUTDOWN_DELAY_SECONDS=0: only the start and a clean exit are in question here.
      const server = await startService('src/main.ts', { ...process.env, NODE_ENV: 'production', REDIS_URL: ttl.url, REDIS_CLUSTER_NODES: '', WARM_UP_ROUNDS: '0', ANALYSIS_WORKERS: '0', EVALUATOR: 'heuristic', SHUTDOWN_DELAY_SECONDS: '0' });
      expect(await stopProcess(server.proc)).toBe(0);
    } finally {
      await ttl.stop();
    }
  }, 120_000);
});

describe('a write Redis refuses at its memory limit (noeviction)', () => {
  it('is 503 STORE_UNAVAILABLE (nothing written), not OUTCOME_UNKNOWN', async () => {
    const full = await OwnRedis.start(['--maxmemory-policy', 'noeviction']);
    const fullClient = full.client();
    await whenReady(fullClient, 3000);
    const app = await testApp({ services: buildServices({ store: new RedisSessionStore(fullClient, 'bounds-oom'), seeds: deterministicSeeds('bounds-oom') }) });
    try {
      const created = (await request(app.app).post('/v1/games').send({ variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } })).body as Created;
      // The limit just under what Redis uses now: every write is refused from here on.
      const used = Number(/used_memory:(\d+)/.exec(await fullClient.info('memory'))![1]);
      await fullClient.call('CONFIG', 'SET', 'maxmemory', String(used - 1024));
      const refused = await request(app.app).post(`/v1/games/${created.id}/roll`).set('authorization', `Bearer ${created.seats.white.token}`).send({});
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('STORE_UNAVAILABLE');
      await fullClient.call('CONFIG', 'SET', 'maxmemory', '0');
      expect((await request(app.app).get(`/v1/games/${created.id}`)).body.version).toBe(1);
    } finally {
      await app.close();
      fullClient.disconnect();
      await full.stop();
    }
  });
});
