import { ChildProcess } from 'child_process';
import { randomBytes } from 'crypto';
import { Cluster } from 'ioredis';
import request from 'supertest';
import { readConfig } from '../../src/config';
import { buildServices } from '../../src/app';
import { RedisCache, RedisSessionStore, createRedisCluster, whenReady } from '../../src/service/store/redis';
import { testApp } from '../support/app';
import { startService, stopProcess } from '../support/processes';

/*
 * Scale-out on a Redis Cluster. Needs REDIS_CLUSTER_NODES (host:port,host:port,…),
 * e.g. from `.ci/redis-cluster.sh start` (a local 3-master cluster):
 *
 *   .ci/redis-cluster.sh start
 *   REDIS_CLUSTER_NODES=$(.ci/redis-cluster.sh nodes) CI_CLUSTER=1 npx jest test/cluster
 *
 * (a) the session-store contract and the cache on an ioredis Cluster client;
 * (b) two server processes on different ports sharing one cluster: a game
 *     created on one is played on the other.
 * Without REDIS_CLUSTER_NODES one test explains the skip — and fails when
 * CI_CLUSTER is set, so CI cannot skip the cluster silently.
 * The processes of (b) run src/main.ts (REDIS_CLUSTER_NODES wiring), built under dist/;
 * CLUSTER_SERVER_ENTRY=test/cluster/server.ts runs the hand-wired equivalent.
 */

const NODES = process.env.REDIS_CLUSTER_NODES?.trim() ?? '';

if (NODES === '') {
  describe('Redis Cluster', () => {
    it('is not tested without REDIS_CLUSTER_NODES', () => {
      if (process.env.CI_CLUSTER) {
        throw new Error(
          'CI_CLUSTER is set but REDIS_CLUSTER_NODES is not: start a cluster with `.ci/redis-cluster.sh start` and export REDIS_CLUSTER_NODES=$(.ci/redis-cluster.sh nodes)',
        );
      }
      console.log(
        'test/cluster skipped: REDIS_CLUSTER_NODES is not set (start one with `.ci/redis-cluster.sh start`, then REDIS_CLUSTER_NODES=$(.ci/redis-cluster.sh nodes))',
      );
    });
  });
} else {
  const seeds = readConfig({ REDIS_CLUSTER_NODES: NODES }).redisClusterNodes ?? [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function connect(): Promise<Cluster> {
    const cluster = createRedisCluster(seeds);
    if (!(await whenReady(cluster, 10_000))) {
      cluster.disconnect();
      throw new Error(`the Redis Cluster at ${NODES} is not ready (cluster_state:ok?)`);
    }
    return cluster;
  }

  /** Keys matching a pattern on each master: proves where the data lives. */
  async function keysPerMaster(cluster: Cluster, pattern: string): Promise<number[]> {
    return Promise.all(cluster.nodes('master').map(async (node) => (await node.keys(pattern)).length));
  }

  describe('session store contract on a Redis Cluster', () => {
    let cluster: Cluster;
    let prefix: string;
    let store: RedisSessionStore;
    let cache: RedisCache;
    beforeAll(async () => {
      cluster = await connect();
      prefix = `test-${randomBytes(6).toString('hex')}`;
      store = new RedisSessionStore(cluster, prefix);
      cache = new RedisCache(cluster, prefix);
    });
    afterAll(async () => {
      cluster.disconnect();
    });

    it('the cluster has several masters and every slot is served', async () => {
      const info = String(await cluster.cluster('INFO'));
      expect(info).toMatch(/cluster_state:ok/);
      expect(info).toMatch(/cluster_slots_assigned:16384/);
      expect(cluster.nodes('master').length).toBeGreaterThanOrEqual(2);
    });

    it('creates at version 1 and refuses a second create of the same id', async () => {
      expect(await store.create('a', '{"x":1}', 60, ['e1'])).toBe(true);
      expect(await store.get('a')).toEqual({ version: 1, data: '{"x":1}' });
      expect(await store.create('a', '{"x":2}', 60, [])).toBe(false);
      expect(await store.get('missing')).toBeNull();
    });

    it('compare-and-set: the right version saves, a stale one conflicts, an unknown id is missing', async () => {
      await store.create('b', 'one', 60, []);
      expect(await store.save('b', 1, 'two', 60, [])).toBe('saved');
      expect(await store.get('b')).toEqual({ version: 2, data: 'two' });
      expect(await store.save('b', 1, 'three', 60, [])).toBe('conflict');
      expect(await store.get('b')).toEqual({ version: 2, data: 'two' });
      expect(await store.save('nope', 1, 'x', 60, [])).toBe('missing');
    });

    it('of 50 concurrent saves from one version exactly one wins, and only its events are appended', async () => {
      await store.create('c', 'start', 60, ['created']);
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.save('c', 1, `v${i}`, 60, [`event ${i}`])),
      );
      expect(outcomes.filter((o) => o === 'saved')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'conflict')).toHaveLength(49);
      expect((await store.get('c'))?.version).toBe(2);
      const history = await store.history('c');
      expect(history).toHaveLength(2);
      expect(history?.[0]).toBe('created');
    });

    it('appends history events atomically with each save, in order', async () => {
      await store.create('h', 'start', 60, ['a', 'b']);
      expect(await store.save('h', 1, 'next', 60, ['c'])).toBe('saved');
      expect(await store.save('h', 2, 'next', 60, [])).toBe('saved');
      expect(await store.save('h', 3, 'next', 60, ['d', 'e'])).toBe('saved');
      expect(await store.history('h')).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(await store.history('none')).toBeNull();
    });

    it('records the idempotent response atomically with the save; a game’s keys share one slot', async () => {
      await store.create('d', 'start', 60, ['created']);
      const response = { status: 200, body: '{"ok":true}', version: 2 };
      expect(await store.idempotent('d', 'key-1')).toBeNull();
      expect(
        await store.save('d', 1, 'next', 60, ['moved'], { key: 'key-1', response, ttlSeconds: 60 }),
      ).toBe('saved');
      expect(await store.idempotent('d', 'key-1')).toEqual(response);
      expect(await store.idempotent('d', 'key-2')).toBeNull();
      // A conflicting save records nothing.
      expect(await store.save('d', 1, 'other', 60, [], { key: 'key-3', response, ttlSeconds: 60 })).toBe(
        'conflict',
      );
      expect(await store.idempotent('d', 'key-3')).toBeNull();
      // The hash tag {d} puts the game, its history and its idempotency records in one slot,
      // so the Lua scripts that touch them together are single-slot (no CROSSSLOT).
      const slot = (key: string) => cluster.cluster('KEYSLOT', key);
      const game = await slot(`${prefix}:game:{d}`);
      expect(await slot(`${prefix}:game:{d}:idem:key-1`)).toBe(game);
      expect(await slot(`${prefix}:game:{d}:history`)).toBe(game);
      expect(await cluster.pttl(`${prefix}:game:{d}:idem:key-1`)).toBeGreaterThan(0);
      expect(await cluster.pttl(`${prefix}:game:{d}:history`)).toBeGreaterThan(0);
    });

    it('sessions expire after their TTL, history included', async () => {
      await store.create('e', 'short-lived', 1, ['x']);
      expect(await store.get('e')).not.toBeNull();
      await sleep(1200);
      expect(await store.get('e')).toBeNull();
      expect(await store.history('e')).toBeNull();
      expect(await store.save('e', 1, 'late', 1, [])).toBe('missing');
    });

    it('answers ping', async () => {
      expect(await store.ping()).toBe(true);
    });

    it('games spread over every master (the hash tag is the game id, not a constant)', async () => {
      const ids = Array.from({ length: 60 }, (_, i) => `spread-${i}`);
      await Promise.all(ids.map((id) => store.create(id, 'x', 60, ['created'])));
      const response = { status: 200, body: '{}', version: 2 };
      await Promise.all(
        ids.map((id) => store.save(id, 1, 'y', 60, ['rolled'], { key: 'k', response, ttlSeconds: 60 })),
      );
      const keys = await keysPerMaster(cluster, `${prefix}:game:{spread-*`);
      expect(keys.reduce((a, b) => a + b, 0)).toBe(180); // per game: the record, its history, one idempotency record
      for (const n of keys) expect(n).toBeGreaterThan(0);
    });

    it('cache: set, get, expiry, spread over the masters', async () => {
      await cache.set('k1', 'v1', 60);
      expect(await cache.get('k1')).toBe('v1');
      expect(await cache.get('k2')).toBeNull();
      await cache.set('k3', 'v3', 1);
      await sleep(1200);
      expect(await cache.get('k3')).toBeNull();
      await Promise.all(Array.from({ length: 60 }, (_, i) => cache.set(`spread-${i}`, 'v', 60)));
      for (const n of await keysPerMaster(cluster, `${prefix}:cache:spread-*`)) expect(n).toBeGreaterThan(0);
    });

    it('sessions and the hot-position cache through the app on the cluster (in-process)', async () => {
      const app = await testApp({ services: buildServices({ store, cacheStore: cache }), redis: cluster });
      try {
        const created = await request(app.app)
          .post('/v1/games')
          .send({ variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } });
        expect(created.status).toBe(201);
        const rolled = await request(app.app)
          .post(`/v1/games/${created.body.id}/roll`)
          .set('authorization', `Bearer ${created.body.seats.white.token}`)
          .send({});
        expect(rolled.status).toBe(200);
        expect(rolled.body.version).toBe(created.body.state.version + 1);
        const body = { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [3, 1] };
        expect((await request(app.app).post('/v1/moves').send(body)).headers['x-cache']).toBe('MISS');
        expect((await request(app.app).post('/v1/moves').send(body)).headers['x-cache']).toBe('HIT');
        const ready = await request(app.app).get('/ready');
        expect(ready.status).toBe(200);
      } finally {
        await app.close();
      }
    });

    it('the per-client rate limit counts in the cluster: over the limit → 429', async () => {
      const app = await testApp({
        services: buildServices({ store, cacheStore: cache }),
        redis: cluster,
        rateLimit: { max: 5, windowSeconds: 60, prefix: `${prefix}-rl` },
      });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 8; i++) statuses.push((await request(app.app).get('/v1/variants')).status);
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      } finally {
        await app.close();
      }
    });
  });

  describe('two server processes on one Redis Cluster', () => {
    const entry = process.env.CLUSTER_SERVER_ENTRY ?? 'src/main.ts';
    const servers: { proc: ChildProcess; base: string; log: string[] }[] = [];
    let cluster: Cluster;

    async function startServer(): Promise<{ proc: ChildProcess; base: string; log: string[] }> {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        REDIS_CLUSTER_NODES: NODES,
        LOG_LEVEL: 'warn',
        GAME_TTL_SECONDS: '600',
        NODE_ENV: 'production',
      };
      delete env.REDIS_URL;
      // Ready, not only alive: a process warms up (WARM_UP_ROUNDS) before /ready answers 200.
      return startService(entry, env, '/ready', servers);
    }

    async function call(
      base: string,
      method: string,
      path: string,
      headers: Record<string, string> = {},
      body?: object,
    ) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as Record<string, never> };
    }

    const stop = stopProcess;

    beforeAll(async () => {
      cluster = await connect();
      await Promise.all([startServer(), startServer()]);
    });
    afterAll(async () => {
      for (const s of servers) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
      cluster.disconnect();
    });

    it('a game created on one process is played on the other and read back from the first', async () => {
      const [a, b] = servers;
      expect(a.base).not.toBe(b.base);
      expect((await call(a.base, 'GET', '/ready')).status).toBe(200);
      expect((await call(b.base, 'GET', '/ready')).status).toBe(200);

      const created = await call(
        a.base,
        'POST',
        '/v1/games',
        {},
        { variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } },
      );
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      const white = {
        authorization: `Bearer ${(created.body.seats as { white: { token: string } }).white.token}`,
      };
      const v0: number = (created.body.state as { version: number }).version;
      // The game lives in the cluster, under its hash-tagged key (not in a process).
      expect(await cluster.exists(`nardy:game:{${id}}`)).toBe(1);

      const rolled = await call(b.base, 'POST', `/v1/games/${id}/roll`, white);
      expect(rolled.status).toBe(200);
      expect(rolled.body.version).toBe(v0 + 1);

      const seenOnA = await call(a.base, 'GET', `/v1/games/${id}`);
      expect(seenOnA.status).toBe(200);
      expect(seenOnA.body.version).toBe(v0 + 1);
      expect(seenOnA.body.dice).toEqual(rolled.body.dice);

      // Play on A what B offered, with the same Idempotency-Key on both: one play, one answer.
      const turn = (rolled.body.legalTurns as { notation: string }[])[0];
      const headers = { ...white, 'idempotency-key': `play-${id}` };
      const first = await call(a.base, 'POST', `/v1/games/${id}/play`, headers, { notation: turn.notation });
      const replay = await call(b.base, 'POST', `/v1/games/${id}/play`, headers, { notation: turn.notation });
      expect(first.status).toBe(200);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      const history = await call(b.base, 'GET', `/v1/games/${id}/history`);
      expect((history.body.events as { type: string }[]).map((e) => e.type)).toEqual(['roll', 'play']);
    });

    it('20 concurrent rolls of one version spread over both processes: exactly one applies', async () => {
      const [a, b] = servers;
      const created = await call(
        a.base,
        'POST',
        '/v1/games',
        {},
        { variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } },
      );
      const id: string = created.body.id;
      const token = (created.body.seats as { white: { token: string } }).white.token;
      const version = (created.body.state as { version: number }).version;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i % 2 ? a.base : b.base, 'POST', `/v1/games/${id}/roll`, {
            authorization: `Bearer ${token}`,
            'if-match': `"${version}"`,
          }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    });

    it('both processes stop gracefully on SIGTERM (exit 0)', async () => {
      const codes = await Promise.all(servers.map((s) => stop(s.proc)));
      expect(codes).toEqual([0, 0]);
    });
  });
}
