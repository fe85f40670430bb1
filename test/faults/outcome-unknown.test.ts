import request from 'supertest';
import { buildServices } from '../../src/app';
import { App } from '../../src/http/app';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { RedisSessionStore, STORE_TIMEOUT_MS, createRedisClient, whenReady } from '../../src/service/store/redis';
import { testApp } from '../support/app';
import { OwnRedis } from '../support/own-redis';
import { Created } from '../support/sessions';

/*
 * A session action whose write the store does not confirm in time (Redis
 * pauses its writes past the command timeout, then applies them) is not
 * answered "nothing changed": it is 503 OUTCOME_UNKNOWN with the version
 * that would say it was applied, and the same Idempotency-Key answers it
 * once Redis is back. A write that was never sent (Redis gone) stays
 * 503 STORE_UNAVAILABLE, and nothing changed.
 */

let redis: OwnRedis;
let app: App;
let client: ReturnType<typeof createRedisClient>;

beforeAll(async () => {
  redis = await OwnRedis.start();
  client = createRedisClient(redis.url);
  await whenReady(client, 3000);
  app = await testApp({ services: buildServices({ store: new RedisSessionStore(client, 'faults-outcome'), seeds: deterministicSeeds('faults-outcome') }) });
});
afterAll(async () => {
  await app?.close();
  client?.disconnect();
  await redis?.stop();
});

async function create(): Promise<Created> {
  const res = await request(app.app).post('/v1/games').send({ variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } });
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Created;
}

const roll = (created: Created, key: string) =>
  request(app.app).post(`/v1/games/${created.id}/roll`).set('authorization', `Bearer ${created.seats.white.token}`).set('idempotency-key', key).send({}).timeout(STORE_TIMEOUT_MS * 5);

describe('a session action the store does not confirm', () => {
  it('is 503 OUTCOME_UNKNOWN with the version to look for, and the same Idempotency-Key answers it afterwards', async () => {
    const created = await create();
    const before = created.version;
    await redis.pause(STORE_TIMEOUT_MS + 1500, 'WRITE');
    const unknown = await roll(created, 'roll-1');
    expect(unknown.status).toBe(503);
    expect(unknown.body.error).toMatchObject({ code: 'OUTCOME_UNKNOWN', version: before + 1 });
    await new Promise((r) => setTimeout(r, 2000));
    // Redis applied the held write: the game is at the version the answer named.
    const game = await request(app.app).get(`/v1/games/${created.id}`);
    expect(game.body.version).toBe(before + 1);
    const retried = await roll(created, 'roll-1');
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body.version).toBe(before + 1);
  }, 30_000);

  it('a new game whose write is not confirmed is 503 OUTCOME_UNKNOWN with the id to look for, not STORE_UNAVAILABLE', async () => {
    await redis.pause(STORE_TIMEOUT_MS + 1500, 'WRITE');
    const unknown = await request(app.app).post('/v1/games').send({ variant: 'long' }).timeout(STORE_TIMEOUT_MS * 5);
    expect(unknown.status).toBe(503);
    expect(unknown.body.error).toMatchObject({ code: 'OUTCOME_UNKNOWN', version: 1 });
    const gameId = unknown.body.error.gameId as string;
    expect(typeof gameId).toBe('string');
    await new Promise((r) => setTimeout(r, 2000));
    // Redis applied the held creation: "nothing was written" would have been untrue.
    const game = await request(app.app).get(`/v1/games/${gameId}`);
    expect(game.status).toBe(200);
    expect(game.body.version).toBe(1);
  }, 30_000);

  it('a write never sent (Redis gone) is 503 STORE_UNAVAILABLE, and nothing changed', async () => {
    const created = await create();
    await redis.stop();
    const refused = await roll(created, 'roll-2');
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('STORE_UNAVAILABLE');
    await redis.start();
    // Started empty (no persistence): the game itself is gone, but nothing was written on the way.
    let status = 503;
    for (let i = 0; i < 50 && status === 503; i++) {
      status = (await request(app.app).get(`/v1/games/${created.id}`)).status;
      if (status === 503) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(404);
  }, 30_000);
});
