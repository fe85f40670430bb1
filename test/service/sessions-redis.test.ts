import { ChildProcess, spawn, spawnSync } from 'child_process';
import request from 'supertest';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { RedisCache, RedisSessionStore, createRedisClient, whenReady } from '../../src/service/store/redis';
import { testApp } from '../support/app';
import { testRedis } from '../support/redis';
import { Created, GameState, playThroughRest } from '../support/sessions';

/*
 * Sessions against a real Redis: races, retries, a restarted server, and
 * Redis going away and coming back.
 */

async function redisApp(prefix: string, client: ReturnType<typeof createRedisClient>, label: string): Promise<App> {
  return testApp({
    services: buildServices({
      store: new RedisSessionStore(client, prefix),
      cacheStore: new RedisCache(client, prefix),
      seeds: deterministicSeeds(label),
    }),
  });
}

async function create(app: App, body: object): Promise<Created> {
  const res = await request(app.app).post('/v1/games').send(body);
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Created;
}

/** Rolls until the game expects a play with at least one legal turn. */
async function untilPlay(app: App, created: Created): Promise<GameState> {
  let state = created.state;
  for (let i = 0; i < 50 && state.expects?.action !== 'play'; i++) {
    const seat = state.expects?.seat as 'white' | 'black';
    state = (await request(app.app).post(`/v1/games/${created.id}/roll`).set('authorization', `Bearer ${created.seats[seat].token}`).send({})).body;
  }
  return state;
}

describe('sessions on Redis', () => {
  let client: ReturnType<typeof createRedisClient>;
  let prefix: string;
  let app: App;
  beforeAll(async () => {
    ({ client, prefix } = await testRedis());
    app = await redisApp(prefix, client, 'redis-sessions');
  });
  afterAll(async () => {
    await app.close();
    client.disconnect();
  });

  it('50 concurrent play requests on one game: exactly one is applied, the rest get 409 with the current version', async () => {
    const created = await create(app, { variant: 'long' });
    const state = await untilPlay(app, created);
    const seat = state.expects?.seat as 'white' | 'black';
    const steps = state.legalTurns?.[0].steps;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(app.app)
          .post(`/v1/games/${created.id}/play`)
          .set('authorization', `Bearer ${created.seats[seat].token}`)
          .set('if-match', `"${state.version}"`)
          .send({ steps }),
      ),
    );
    const applied = responses.filter((r) => r.status === 200);
    const conflicts = responses.filter((r) => r.status === 409);
    expect(applied).toHaveLength(1);
    expect(conflicts).toHaveLength(49);
    for (const r of conflicts) {
      expect(r.body.error.code).toBe('VERSION_CONFLICT');
      expect(r.body.error.version).toBeGreaterThanOrEqual(state.version);
    }
    const history = (await request(app.app).get(`/v1/games/${created.id}/history`)).body.events;
    expect(history.filter((e: { type: string }) => e.type === 'play')).toHaveLength(1);
  });

  it('50 concurrent plays without If-Match: still exactly one applied; every refusal names the version', async () => {
    const created = await create(app, { variant: 'long' });
    const state = await untilPlay(app, created);
    const seat = state.expects?.seat as 'white' | 'black';
    const steps = state.legalTurns?.[0].steps;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(app.app).post(`/v1/games/${created.id}/play`).set('authorization', `Bearer ${created.seats[seat].token}`).send({ steps }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of responses.filter((x) => x.status !== 200)) {
      expect([403, 409]).toContain(r.status);
      expect(typeof r.body.error.version).toBe('number');
    }
  });

  it('a retried request with the same Idempotency-Key → the same answer, one event', async () => {
    const created = await create(app, { variant: 'long' });
    const seat = created.state.expects?.seat as 'white' | 'black';
    const send = () =>
      request(app.app)
        .post(`/v1/games/${created.id}/roll`)
        .set('authorization', `Bearer ${created.seats[seat].token}`)
        .set('idempotency-key', 'same-key')
        .send({});
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    const history = (await request(app.app).get(`/v1/games/${created.id}/history`)).body.events;
    expect(history.filter((e: { type: string }) => e.type === 'roll')).toHaveLength(1);
  });

  it('the server restarted mid-game (new app, new connection, same Redis) → the game continues to the end', async () => {
    const first = await redisApp(prefix, client, 'restart-a');
    const created = await create(first, { variant: 'crazy-gulbar' });
    const halfway = await playThroughRest(first.app, created, 3, 40);
    expect(halfway.state.status).toBe('playing');
    await first.close();
    const client2 = createRedisClient(process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379');
    await whenReady(client2);
    const second = await redisApp(prefix, client2, 'restart-b');
    const resumed = await request(second.app).get(`/v1/games/${created.id}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.version).toBe(halfway.state.version);
    const { state } = await playThroughRest(second.app, { ...created, state: resumed.body }, 4);
    expect(state.status).toBe('finished');
    await second.close();
    client2.disconnect();
  });

  it('the hot-position cache answers X-Cache MISS then HIT for the same query', async () => {
    const body = { variant: 'long', position: { turn: 'white', white: { points: { '24': 15 } }, black: { points: { '24': 15 } } }, dice: [4, 1] };
    const first = await request(app.app).post('/v1/moves').send(body);
    const second = await request(app.app).post('/v1/moves').send(body);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toEqual(first.body);
    expect(app.services.cache.hits).toBeGreaterThanOrEqual(1);
  });
});

describe('Redis goes away and comes back', () => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  let server: ChildProcess | null = null;
  const start = async () => {
    const probe = spawnSync('redis-server', ['--version']);
    if (probe.error) throw new Error('redis-server is not installed (apt-get install -y redis-server)');
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 50; i++) {
      const c = createRedisClient(`redis://127.0.0.1:${port}`);
      const ok = await whenReady(c, 200);
      c.disconnect();
      if (ok) return;
    }
    throw new Error('the test redis-server did not start');
  };
  const stop = async () => {
    if (!server) return;
    const s = server;
    server = null;
    await new Promise<void>((resolve) => {
      s.once('exit', () => resolve());
      s.kill('SIGKILL');
    });
  };
  afterAll(stop);

  it('stateless endpoints keep answering, sessions answer 503 STORE_UNAVAILABLE, and reconnection is automatic', async () => {
    await start();
    const client = createRedisClient(`redis://127.0.0.1:${port}`);
    await whenReady(client);
    const app = await redisApp('down-test', client, 'down');
    const created = await create(app, { variant: 'long' });
    expect((await request(app.app).get(`/v1/games/${created.id}`)).status).toBe(200);

    await stop();
    const moves = await request(app.app)
      .post('/v1/moves')
      .send({ variant: 'long', position: { turn: 'white', white: { points: { '24': 15 } }, black: { points: { '24': 15 } } }, dice: [6, 5] });
    expect(moves.status).toBe(200);
    expect(moves.body.count).toBe(1);
    const get = await request(app.app).get(`/v1/games/${created.id}`);
    expect(get.status).toBe(503);
    expect(get.body.error.code).toBe('STORE_UNAVAILABLE');
    const post = await request(app.app).post('/v1/games').send({ variant: 'long' });
    expect(post.status).toBe(503);

    await start();
    let again = 0;
    for (let i = 0; i < 50; i++) {
      again = (await request(app.app).post('/v1/games').send({ variant: 'long' })).status;
      if (again === 201) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(again).toBe(201);
    await app.close();
    client.disconnect();
  });
});
