import { ChildProcess, spawn, spawnSync } from 'child_process';
import request from 'supertest';
import Redis from 'ioredis';
import { buildServices } from '../../src/app';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { MemorySessionStore } from '../../src/service/store/memory';
import { RedisSessionStore, createRedisClient, whenReady } from '../../src/service/store/redis';
import { StoreFullError } from '../../src/service/store/types';
import { testApp } from '../support/app';
import { freePort } from '../support/processes';

/* A store that cannot be flooded: the in-memory bound, the stage TTLs, the creation limit, and Redis under maxmemory. */

describe('the in-memory store is bounded (MAX_GAMES)', () => {
  it('makes room by dropping expired games, then finished ones, then never-started ones; full of games in play it refuses', async () => {
    let now = 1_000_000;
    const store = new MemorySessionStore(() => now, { maxGames: 3 });
    await store.create('a', 'a1', 60, []);
    await store.create('b', 'b1', 60, []);
    await store.create('c', 'c1', 60, []);
    expect(await store.save('a', 1, 'a2', 60, [], undefined, 'finished')).toBe('saved');
    expect(await store.save('b', 1, 'b2', 60, [], undefined, 'live')).toBe('saved');
    // Full: the finished game goes first, although the never-started one is older.
    expect(await store.create('d', 'd1', 60, [])).toBe(true);
    expect(await store.get('a')).toBeNull();
    expect(await store.get('c')).not.toBeNull();
    // Then the oldest never-started game.
    expect(await store.create('e', 'e1', 60, [])).toBe(true);
    expect(await store.get('c')).toBeNull();
    expect(store.counts()).toEqual({ unstarted: 2, live: 1, finished: 0 });
    await store.save('d', 1, 'd2', 60, [], undefined, 'live');
    await store.save('e', 1, 'e2', 60, [], undefined, 'live');
    // Every game in play: refused, nothing dropped.
    await expect(store.create('f', 'f1', 60, [])).rejects.toBeInstanceOf(StoreFullError);
    expect(store.counts()).toEqual({ unstarted: 0, live: 3, finished: 0 });
    // A game in play that expired makes room.
    await store.save('e', 2, 'e3', 600, [], undefined, 'live');
    now += 61_000;
    expect(await store.create('f', 'f1', 60, [])).toBe(true);
    expect(await store.get('b')).toBeNull();
    expect(await store.get('e')).toEqual({ version: 3, data: 'e3' });
  });

  it('idempotency records go with their game', async () => {
    const store = new MemorySessionStore(Date.now, { maxGames: 1 });
    await store.create('a', 'a1', 60, []);
    await store.save('a', 1, 'a2', 60, [], { key: 'k', response: { status: 200, body: '{}', version: 2 }, ttlSeconds: 60 }, 'finished');
    expect(await store.idempotent('a', 'k')).not.toBeNull();
    await store.create('b', 'b1', 60, []);
    expect(await store.idempotent('a', 'k')).toBeNull();
  });
});

describe('sessions on a full store, stage TTLs and the creation limit (REST)', () => {
  async function roll(app: Awaited<ReturnType<typeof testApp>>, created: { id: string; seats: Record<string, { token: string }>; state: { expects: { seat: string } } }) {
    const seat = created.state.expects.seat;
    return request(app.app).post(`/v1/games/${created.id}/roll`).set('authorization', `Bearer ${created.seats[seat].token}`).send({});
  }

  it('503 STORE_FULL with Retry-After when every game is in play; a finished game makes room', async () => {
    const app = await testApp({ services: buildServices({ maxGames: 2, seeds: deterministicSeeds('bounds') }) });
    const games = [];
    for (let i = 0; i < 2; i++) {
      const created = (await request(app.app).post('/v1/games').send({ variant: 'long' })).body;
      expect((await roll(app, created)).status).toBe(200);
      games.push(created);
    }
    const full = await request(app.app).post('/v1/games').send({ variant: 'long' });
    expect(full.status).toBe(503);
    expect(full.body.error.code).toBe('STORE_FULL');
    expect(full.headers['retry-after']).toBe('60');
    // The games in play are untouched; one resigns, and its place is taken by a new game.
    const [first] = games;
    const resigned = await request(app.app).post(`/v1/games/${first.id}/resign`).set('authorization', `Bearer ${first.seats.white.token}`).send({});
    expect(resigned.body.status).toBe('finished');
    expect((await request(app.app).post('/v1/games').send({ variant: 'long' })).status).toBe(201);
    expect((await request(app.app).get(`/v1/games/${first.id}`)).status).toBe(404);
    expect((await request(app.app).get(`/v1/games/${games[1].id}`)).status).toBe(200);
    await app.close();
  });

  it('a game with no action expires after UNSTARTED_GAME_TTL_SECONDS; a played one lives GAME_TTL_SECONDS; a finished one FINISHED_GAME_TTL_SECONDS', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = new MemorySessionStore(() => now);
    const app = await testApp({
      services: buildServices({ store, gameTtlSeconds: 3600, unstartedGameTtlSeconds: 60, finishedGameTtlSeconds: 600, now: () => new Date(now) }),
    });
    const idle = (await request(app.app).post('/v1/games').send({ variant: 'long' })).body;
    const played = (await request(app.app).post('/v1/games').send({ variant: 'long' })).body;
    const over = (await request(app.app).post('/v1/games').send({ variant: 'long' })).body;
    expect((await roll(app, played)).status).toBe(200);
    await request(app.app).post(`/v1/games/${over.id}/resign`).set('authorization', `Bearer ${over.seats.white.token}`).send({});
    now += 61_000;
    expect((await request(app.app).get(`/v1/games/${idle.id}`)).status).toBe(404);
    expect((await request(app.app).get(`/v1/games/${played.id}`)).status).toBe(200);
    expect((await request(app.app).get(`/v1/games/${over.id}`)).status).toBe(200);
    now += 600_000;
    expect((await request(app.app).get(`/v1/games/${over.id}`)).status).toBe(404);
    expect((await request(app.app).get(`/v1/games/${played.id}`)).status).toBe(200);
    await app.close();
  });

  it('GAME_CREATE_LIMIT: past it a client gets 429 RATE_LIMITED with Retry-After; bad requests cost nothing', async () => {
    const app = await testApp({ services: buildServices({ gameCreateLimit: 3, analysisRateBudget: { perWindow: 0, windowSeconds: 60 } }) });
    expect((await request(app.app).post('/v1/games').send({ variant: 'chess' })).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await request(app.app).post('/v1/games').send({ variant: 'long' })).status).toBe(201);
    const refused = await request(app.app).post('/v1/games').send({ variant: 'long' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', limit: 3 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await app.close();
  });
});

describe('Redis under maxmemory with volatile-ttl', () => {
  let proc: ChildProcess | null = null;
  let client: Redis | null = null;
  afterAll(async () => {
    client?.disconnect();
    proc?.kill('SIGTERM');
  });

  it('evicts finished games (the shorter TTL) and keeps the games in play', async () => {
    if (spawnSync('redis-server', ['--version']).error) throw new Error('redis-server is needed for this test (apt-get install -y redis-server)');
    const port = await freePort();
    // A private server: maxmemory must not be set on the shared test Redis. The most samples Redis
    // allows, so that the order of eviction is the TTL order this test asserts (docs/operations.md).
    proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'volatile-ttl', '--maxmemory-samples', '64'], { stdio: 'ignore' });
    client = createRedisClient(`redis://127.0.0.1:${port}`);
    for (let i = 0; i < 50 && !(await whenReady(client, 100)); i++);
    const store = new RedisSessionStore(client, 'bounds');
    const used = async () => Number(/used_memory:(\d+)/.exec(String(await client!.info('memory')))?.[1]);
    const record = 'x'.repeat(8_000);
    const day = 24 * 3600;
    // As the service stores them: finished games for a day, games in play for a week.
    const before = await used();
    const finished: string[] = [];
    for (let i = 0; i < 120; i++) {
      finished.push(`f${i}`);
      await store.create(`f${i}`, record, day, ['{"n":1}']);
    }
    const perGame = ((await used()) - before) / finished.length;
    // Room for the 300 games in play and 60 more: half the finished games must go.
    await client.config('SET', 'maxmemory', String(Math.round(before + perGame * 360)));
    const live: string[] = [];
    for (let i = 0; i < 300; i++) {
      live.push(`l${i}`);
      const created = await store.create(`l${i}`, record, 7 * day, ['{"n":1}']);
      expect(created).toBe(true);
    }
    const info = String(await client.info('stats'));
    const evicted = Number(/evicted_keys:(\d+)/.exec(info)?.[1] ?? 0);
    expect(evicted).toBeGreaterThan(0);
    const kept = async (ids: string[]) => (await Promise.all(ids.map((id) => store.get(id)))).filter((g) => g !== null).length;
    // Every game in play is kept; the room came from the finished games.
    expect(await kept(live)).toBe(live.length);
    expect(await kept(finished)).toBeLessThan(finished.length);
    await store.close();
    client = null;
  });
});
