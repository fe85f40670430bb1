import { Server, createServer } from 'http';
import { AddressInfo } from 'net';
import request from 'supertest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { attachSubscriptions } from '../../src/graphql/subscriptions';
import { buildServices } from '../../src/app';
import { App } from '../../src/http/app';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { MemorySessionStore } from '../../src/service/store/memory';
import { EventListener, SaveArgs, SessionStore, StoreUnavailableError } from '../../src/service/store/types';
import { testApp } from '../support/app';
import { Created } from '../support/sessions';
import { SseClient } from '../support/sse';

/*
 * A game's event stream ends (`event: end`) only when the game is over: a
 * history read that fails — as the feed catches up after a game-over or a
 * gap — is tried again, and a store that stays away closes the connection
 * without `end`, so the client resumes from its Last-Event-ID.
 */

/** The in-memory store, whose next `failures` history reads fail as Redis's would. */
class FlakyStore implements SessionStore {
  failures = 0;
  failed = 0;
  constructor(private readonly inner = new MemorySessionStore()) {}
  create(...args: Parameters<SessionStore['create']>) {
    return this.inner.create(...args);
  }
  get(id: string) {
    return this.inner.get(id);
  }
  save(...args: SaveArgs) {
    return this.inner.save(...args);
  }
  async history(id: string) {
    if (this.failures > 0) {
      this.failures--;
      this.failed++;
      throw new StoreUnavailableError(new Error('Command timed out'));
    }
    return this.inner.history(id);
  }
  subscribe(id: string, listener: EventListener) {
    return this.inner.subscribe(id, listener);
  }
  idempotent(id: string, key: string) {
    return this.inner.idempotent(id, key);
  }
  ping() {
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}

const store = new FlakyStore();
let app: App;
let server: Server;
let base: string;

beforeAll(async () => {
  app = await testApp({ services: buildServices({ store, seeds: deterministicSeeds('feed-faults') }), eventHeartbeatMs: 50 });
  server = createServer(app.app);
  attachSubscriptions(server, app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  app.closeStreams();
  await new Promise((resolve) => server.close(resolve));
  await app.close();
});

beforeEach(() => {
  store.failures = 0;
  store.failed = 0;
});

async function create(): Promise<Created> {
  const res = await request(app.app).post('/v1/games').send({ variant: 'long' });
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Created;
}

async function act(created: Created, action: string): Promise<void> {
  const state = (await request(app.app).get(`/v1/games/${created.id}`)).body;
  const res = await request(app.app).post(`/v1/games/${created.id}/${action}`).set('authorization', `Bearer ${created.seats[state.expects.seat as 'white' | 'black'].token}`).send({});
  if (res.status !== 200) throw new Error(`${action} → ${res.status} ${JSON.stringify(res.body)}`);
}

const historyLength = async (id: string): Promise<number> => ((await request(app.app).get(`/v1/games/${id}/history`)).body.events as unknown[]).length;

describe('the event stream of a game when a store read fails', () => {
  it('a history read that fails once is tried again: the stream sends the history and stays open', async () => {
    const created = await create();
    const stored = await historyLength(created.id);
    store.failures = 1;
    const stream = await SseClient.open(`${base}/v1/games/${created.id}/events`);
    await stream.until(() => stream.events().length === stored || stream.ended);
    expect(store.failed).toBe(1);
    expect(stream.messages.map((m) => m.event)).not.toContain('end');
    await stream.until(() => stream.comments >= 3);
    expect(stream.ended).toBe(false);
    await act(created, 'roll');
    await stream.until(() => stream.events().length > stored);
    expect(stream.messages.map((m) => m.event)).not.toContain('end');
    stream.close();
  });

  it('a game-over whose catch-up read fails once is still sent, and only then `end`', async () => {
    const created = await create();
    const stream = await SseClient.open(`${base}/v1/games/${created.id}/events`);
    const stored = await historyLength(created.id);
    await stream.until(() => stream.events().length === stored);
    store.failures = 1;
    await act(created, 'resign');
    await stream.until(() => stream.ended);
    expect(store.failed).toBe(1);
    expect(stream.events().at(-1)?.type).toBe('game-over');
    expect(stream.messages.at(-1)?.event).toBe('end');
  });

  it('a store that stays away closes the stream without `end`; the client resumes from its Last-Event-ID', async () => {
    const created = await create();
    const stream = await SseClient.open(`${base}/v1/games/${created.id}/events`);
    const stored = await historyLength(created.id);
    await stream.until(() => stream.events().length === stored);
    store.failures = 1000;
    await act(created, 'resign');
    await stream.until(() => stream.ended, 15_000);
    expect(store.failed).toBeGreaterThan(1);
    expect(stream.messages.map((m) => m.event)).not.toContain('end');
    const last = Number(stream.messages.at(-1)?.id);
    expect(last).toBeGreaterThanOrEqual(stored);
    expect(stream.events().map((e) => e.type)).not.toContain('game-over');

    store.failures = 0;
    const resumed = await SseClient.open(`${base}/v1/games/${created.id}/events`, last);
    await resumed.until(() => resumed.ended);
    expect(resumed.events()[0].n).toBe(last + 1);
    expect(resumed.events().at(-1)?.type).toBe('game-over');
    expect([...stream.events(), ...resumed.events()].map((e) => e.n)).toEqual(Array.from({ length: await historyLength(created.id) }, (_, i) => i + 1));
    expect(resumed.messages.at(-1)?.event).toBe('end');
  });
});

describe('the subscription gameEvents when the store stays away', () => {
  it('reports STORE_UNAVAILABLE instead of completing', async () => {
    const created = await create();
    const client = createClient({ url: `${base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const received: { n: number; type: string }[] = [];
    const outcome = new Promise<string>((resolve) => {
      client.subscribe<{ gameEvents: { n: number; type: string } }>(
        { query: 'subscription($id: ID!) { gameEvents(id: $id) { n type } }', variables: { id: created.id } },
        {
          next: (message) => {
            if (message.data) received.push(message.data.gameEvents);
          },
          error: (e) => resolve(`error ${JSON.stringify(e)}`),
          complete: () => resolve('complete'),
        },
      );
    });
    const stored = await historyLength(created.id);
    for (let i = 0; i < 100 && received.length < stored; i++) await new Promise((r) => setTimeout(r, 20));
    store.failures = 1000;
    await act(created, 'resign');
    const result = await outcome;
    await client.dispose();
    expect(result).toMatch(/^error .*STORE_UNAVAILABLE/);
    expect(received.map((e) => e.type)).not.toContain('game-over');
  });
});
