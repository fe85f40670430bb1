import { Server, createServer } from 'http';
import { AddressInfo } from 'net';
import request from 'supertest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { attachSubscriptions } from '../../src/graphql/subscriptions';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { GameFeed } from '../../src/service/sessions/feed';
import { HistoryEvent } from '../../src/service/sessions/record';
import { MemorySessionStore } from '../../src/service/store/memory';
import { EventListener } from '../../src/service/store/types';
import { testApp } from '../support/app';
import { Created, playThroughRest } from '../support/sessions';
import { SseClient } from '../support/sse';

/* Event streams of games: server-sent events with Last-Event-ID, and the graphql-ws subscription. */

async function listen(app: App): Promise<{ server: Server; base: string }> {
  const server = createServer(app.app);
  attachSubscriptions(server, app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

let app: App;
let server: Server;
let base: string;
beforeAll(async () => {
  app = await testApp({ services: buildServices({ seeds: deterministicSeeds('events-tests') }), eventHeartbeatMs: 50 });
  ({ server, base } = await listen(app));
});
afterAll(async () => {
  app.closeStreams();
  await closeServer(server);
  await app.close();
});

async function create(body: object): Promise<Created> {
  const res = await request(app.app).post('/v1/games').send(body);
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Created;
}

async function historyOf(id: string): Promise<HistoryEvent[]> {
  return (await request(app.app).get(`/v1/games/${id}/history`)).body.events as HistoryEvent[];
}

async function act(created: Created, action: string, body: object = {}) {
  const state = (await request(app.app).get(`/v1/games/${created.id}`)).body;
  const seat = state.expects.seat as 'white' | 'black';
  const res = await request(app.app).post(`/v1/games/${created.id}/${action}`).set('authorization', `Bearer ${created.seats[seat].token}`).send(body);
  if (res.status !== 200) throw new Error(`${action} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Plays the expected action of the moment (the first legal turn when a play is due). */
async function step(created: Created): Promise<void> {
  const state = (await request(app.app).get(`/v1/games/${created.id}`)).body;
  if (state.expects.action === 'play') await act(created, 'play', { steps: state.legalTurns[0].steps });
  else await act(created, state.expects.action === 'respond' ? 'take' : state.expects.action);
}

describe('GET /v1/games/{id}/events (server-sent events)', () => {
  it('sends the history, then every new event live with its number as id, keep-alives while idle, and `end` when the game is over', async () => {
    const created = await create({ variant: 'long' });
    await step(created);
    const stream = await SseClient.open(`http://${base}/v1/games/${created.id}/events`);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    const before = await historyOf(created.id);
    await stream.until(() => stream.events().length === before.length);
    await stream.until(() => stream.comments > 0);
    await playThroughRest(app.app, { ...created, state: (await request(app.app).get(`/v1/games/${created.id}`)).body }, 3);
    await stream.until(() => stream.ended);
    const all = await historyOf(created.id);
    expect(stream.events()).toEqual(all);
    const data = stream.messages.filter((m) => m.event === 'message');
    expect(data.map((m) => m.id)).toEqual(all.map((e) => String(e.n)));
    expect(stream.messages.at(-1)).toEqual({ event: 'end', data: JSON.stringify({ last: all.length }) });
  });

  it('Last-Event-ID resumes after that event: across a disconnection nothing is lost and nothing repeated', async () => {
    const created = await create({ variant: 'backgammon', cube: true });
    const first = await SseClient.open(`http://${base}/v1/games/${created.id}/events`);
    for (let i = 0; i < 6; i++) await step(created);
    const sofar = (await historyOf(created.id)).length;
    await first.until(() => first.events().length === sofar);
    first.close();
    const lastId = Number(first.messages.at(-1)?.id);
    // Events saved while nobody listened…
    for (let i = 0; i < 5; i++) await step(created);
    const second = await SseClient.open(`http://${base}/v1/games/${created.id}/events`, lastId);
    // …and after the reconnection.
    for (let i = 0; i < 5; i++) await step(created);
    const all = await historyOf(created.id);
    await second.until(() => second.events().length === all.length - lastId);
    second.close();
    const joined = [...first.events(), ...second.events()];
    expect(joined).toEqual(all);
    expect(new Set(joined.map((e) => e.n)).size).toBe(joined.length);
    expect(second.events()[0].n).toBe(lastId + 1);
  });

  it('a finished game streams its whole history and ends; a resumption past the end gets only `end`', async () => {
    const created = await create({ variant: 'long' });
    await act(created, 'resign');
    const all = await historyOf(created.id);
    const whole = await SseClient.open(`http://${base}/v1/games/${created.id}/events`);
    await whole.until(() => whole.ended);
    expect(whole.events()).toEqual(all);
    const past = await SseClient.open(`http://${base}/v1/games/${created.id}/events`, all.length);
    await past.until(() => past.ended);
    expect(past.events()).toEqual([]);
    expect(past.messages.map((m) => m.event)).toEqual(['end']);
  });

  it('games are read by id without a token, but no read shows the seed of the game in progress or a token', async () => {
    const created = await create({ variant: 'backgammon', match: { length: 3 } });
    for (let i = 0; i < 4; i++) await step(created);
    const stored = await app.services.store.get(created.id);
    const seed = (JSON.parse(stored!.data) as { game: { seed: string } }).game.seed;
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    const stream = await SseClient.open(`http://${base}/v1/games/${created.id}/events`);
    const all = await historyOf(created.id);
    await stream.until(() => stream.events().length === all.length);
    stream.close();
    const reads = [
      (await request(app.app).get(`/v1/games/${created.id}`)).text,
      (await request(app.app).get(`/v1/games/${created.id}/history`)).text,
      (await request(app.app).get(`/v1/games/${created.id}/fairness`)).text,
      stream.body,
    ];
    for (const text of reads) {
      expect(text).not.toContain(seed);
      expect(text).not.toContain(created.seats.white.token);
      expect(text).not.toContain(created.seats.black.token);
    }
  });

  it('a bad Last-Event-ID is 400 with the field; an unknown game 404 (plain JSON, no stream)', async () => {
    const created = await create({ variant: 'long' });
    const bad = await request(app.app).get(`/v1/games/${created.id}/events`).set('last-event-id', 'seven');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_REQUEST', field: expect.stringMatching(/^last-event-id$/i) });
    const missing = await request(app.app).get('/v1/games/no-such-game/events');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('GAME_NOT_FOUND');
  });

  it('drain ends the open streams, so the HTTP server can close; new streams get 503', async () => {
    const own = await testApp({ services: buildServices({ seeds: deterministicSeeds('events-drain') }) });
    const { server: ownServer, base: ownBase } = await listen(own);
    const res = await request(own.app).post('/v1/games').send({ variant: 'long' });
    const stream = await SseClient.open(`http://${ownBase}/v1/games/${res.body.id}/events`);
    await stream.until(() => stream.events().length > 0);
    const closed = closeServer(ownServer);
    own.drain();
    ownServer.closeIdleConnections();
    await stream.until(() => stream.ended);
    await closed;
    const refused = await request(own.app).get(`/v1/games/${res.body.id}/events`);
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('SHUTTING_DOWN');
    await own.close();
  });
});

describe('the feed behind the streams', () => {
  it('turns at-most-once delivery into exactly once: lost messages are read back from the history, in order', async () => {
    const store = new MemorySessionStore();
    // A store whose pub/sub loses every other message.
    let count = 0;
    const lossy = Object.create(store) as MemorySessionStore;
    lossy.subscribe = (id: string, listener: EventListener) => store.subscribe(id, (events) => (count++ % 2 === 0 ? undefined : listener(events)));
    const lossyApp = await testApp({ services: buildServices({ store: lossy, seeds: deterministicSeeds('events-lossy') }) });
    const created = (await request(lossyApp.app).post('/v1/games').send({ variant: 'short-soviet' })).body as Created;
    const feed: GameFeed = await lossyApp.services.sessions.follow(created.id, 0);
    const received: HistoryEvent[] = [];
    const reading = (async () => {
      for await (const event of feed) received.push(event);
    })();
    await playThroughRest(lossyApp.app, created, 9);
    await reading;
    const all = (await request(lossyApp.app).get(`/v1/games/${created.id}/history`)).body.events;
    expect(count).toBeGreaterThan(10);
    expect(received).toEqual(all);
    await lossyApp.close();
  });
});

describe('subscription gameEvents over graphql-ws', () => {
  it('a client receives every event of a whole game, then completes', async () => {
    const created = await create({ variant: 'nardgammon' });
    const client = createClient({ url: `ws://${base}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const received: { n: number; type: string; seat: string | null; dice: number[] | null }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      client.subscribe<{ gameEvents: (typeof received)[number] }>(
        { query: 'subscription($id: ID!) { gameEvents(id: $id) { n type seat dice } }', variables: { id: created.id } },
        {
          next: (message) => {
            if (message.errors) reject(new Error(JSON.stringify(message.errors)));
            else if (message.data) received.push(message.data.gameEvents);
          },
          error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
          complete: resolve,
        },
      );
    });
    await playThroughRest(app.app, created, 11);
    await done;
    await client.dispose();
    const all = await historyOf(created.id);
    expect(all.length).toBeGreaterThan(20);
    expect(received).toEqual(all.map((e) => ({ n: e.n, type: e.type, seat: e.seat, dice: e.dice ?? null })));
  });

  it('errors keep their codes: an unknown game is GAME_NOT_FOUND; the document limits of HTTP queries hold', async () => {
    const client = createClient({ url: `ws://${base}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const first = (query: string) =>
      new Promise<unknown>((resolve) => {
        client.subscribe({ query }, { next: (m) => resolve(m), error: (e) => resolve(e), complete: () => resolve('complete') });
      });
    expect(JSON.stringify(await first('subscription { gameEvents(id: "no-such-game") { n } }'))).toMatch(/GAME_NOT_FOUND/);
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: n`).join(' ');
    expect(JSON.stringify(await first(`subscription { gameEvents(id: "x") { ${aliases} } }`))).toMatch(/TOO_MANY_ALIASES/);
    await client.dispose();
  });
});
