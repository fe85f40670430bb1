import { createHash, createHmac } from 'crypto';
import request from 'supertest';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { MemorySessionStore } from '../../src/service/store/memory';
import { testApp } from '../support/app';
import { Created, GameState, playThroughRest } from '../support/sessions';

/* Game sessions over REST against the in-memory store (the Redis runs are in sessions-redis.test.ts). */

const PRESETS = ['long', 'nardgammon', 'crazy', 'gulbar', 'crazy-gulbar', 'khachapuri', 'fevga', 'giul', 'gulbara-intl', 'backgammon', 'short-soviet'];

let app: App;
beforeAll(async () => {
  app = await testApp({ services: buildServices({ seeds: deterministicSeeds('rest-tests') }) });
});
afterAll(async () => {
  await app.close();
});

async function create(body: object): Promise<Created> {
  const res = await request(app.app).post('/v1/games').send(body);
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Created;
}

describe('sessions over REST', () => {
  it.each(PRESETS)('%s: two players play a complete seeded game', async (variant) => {
    const created = await create({ variant });
    expect(created.state.status).toBe('playing');
    const { state, actions } = await playThroughRest(app.app, created, 17);
    expect(state.status).toBe('finished');
    expect(state.expects).toBeNull();
    expect(state.result?.winner).toMatch(/white|black/);
    expect(state.result?.points).toBeGreaterThan(0);
    expect(actions).toBeGreaterThan(10);
    const history = await request(app.app).get(`/v1/games/${created.id}/history`);
    expect(history.body.events.at(-1).type).toBe('game-over');
  });

  it('a match to 5 with the cube (doubles, takes, drops) runs to a match winner; the points add up', async () => {
    const created = await create({ variant: 'long', match: { length: 5 }, cube: true });
    const { state, doubles } = await playThroughRest(app.app, created, 5, 20000, { doubleChance: 0.05, dropChance: 0.3 });
    expect(state.status).toBe('finished');
    expect(doubles).toBeGreaterThan(0);
    const history = (await request(app.app).get(`/v1/games/${created.id}/history`)).body.events as { type: string; result?: { points: number } }[];
    const games = history.filter((e) => e.type === 'game-over');
    expect(games.length).toBeGreaterThan(1);
    const total = games.reduce((sum, e) => sum + (e.result?.points ?? 0), 0);
    expect(total).toBe((state.match?.score.white ?? 0) + (state.match?.score.black ?? 0));
    expect(state.match?.winner).toMatch(/white|black/);
    const winner = state.match?.winner as 'white' | 'black';
    expect(state.match?.score[winner]).toBeGreaterThanOrEqual(3);
  });

  it('create rejects bad input with a field', async () => {
    for (const [body, code, field] of [
      [{ variant: 'chess' }, 'UNKNOWN_VARIANT', 'variant'],
      [{ variant: 'long', colour: 'red' }, 'UNKNOWN_FIELD', 'colour'],
      [{ variant: 'long', match: { length: 0 } }, 'INVALID_MATCH', 'match.length'],
      [{ variant: 'fevga', cube: true }, 'INVALID_RULES', 'cube'],
      [{ variant: 'long', rules: { sixBlock: 'x' } }, 'INVALID_RULES', 'rules.sixBlock'],
    ] as const) {
      const res = await request(app.app).post('/v1/games').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code, field });
    }
  });

  it('actions need the seat token: none → 401, the other seat → 403, nothing changes', async () => {
    const created = await create({ variant: 'long' });
    const seat = created.state.expects?.seat as 'white' | 'black';
    const other = seat === 'white' ? 'black' : 'white';
    const path = `/v1/games/${created.id}/roll`;
    const none = await request(app.app).post(path).send({});
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const forged = await request(app.app).post(path).set('authorization', 'Bearer not-a-token').send({});
    expect(forged.status).toBe(401);
    const wrong = await request(app.app).post(path).set('authorization', `Bearer ${created.seats[other].token}`).send({});
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('NOT_YOUR_TURN');
    const after = await request(app.app).get(`/v1/games/${created.id}`);
    expect(after.body.version).toBe(1);
    expect(after.headers.etag).toBe('"1"');
  });

  it('reading a game reveals neither tokens nor the unrevealed seed', async () => {
    const created = await create({ variant: 'long' });
    for (const path of ['', '/history', '/fairness']) {
      const res = await request(app.app).get(`/v1/games/${created.id}${path}`);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(created.seats.white.token);
      expect(text).not.toContain(created.seats.black.token);
      expect(text).not.toMatch(/tokenHash/);
    }
    const fairness = await request(app.app).get(`/v1/games/${created.id}/fairness`);
    expect(fairness.body.games[0].seed).toBeNull();
    expect(fairness.body.games[0].commitment).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tokens are not derivable from the id: distinct random strings of 256 bits', async () => {
    const a = await create({ variant: 'long' });
    const b = await create({ variant: 'long' });
    for (const t of [a.seats.white.token, a.seats.black.token]) {
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
      expect(t).not.toContain(a.id);
    }
    expect(new Set([a.id, b.id, a.seats.white.token, b.seats.white.token]).size).toBe(4);
  });

  it('the revealed seed recomputes every roll of a finished game (commit–reveal)', async () => {
    const created = await create({ variant: 'crazy' });
    await playThroughRest(app.app, created, 9);
    const fairness = (await request(app.app).get(`/v1/games/${created.id}/fairness`)).body;
    const game = fairness.games[0];
    const seed = Buffer.from(game.seed, 'hex');
    expect(createHash('sha256').update(seed).digest('hex')).toBe(game.commitment);
    expect(game.commitment).toBe(created.state.fairness && (created.state.fairness as { commitment: string }).commitment);
    for (const roll of game.rolls) {
      // An independent re-implementation of the documented derivation.
      const dice: number[] = [];
      for (let k = 0; dice.length < 2; k++) {
        const bytes = createHmac('sha256', seed).update(k === 0 ? `roll:${roll.index}` : `roll:${roll.index}:${k}`).digest();
        for (const byte of bytes) if (byte < 252 && dice.length < 2) dice.push((byte % 6) + 1);
      }
      expect(roll.dice).toEqual(dice);
    }
    const history = (await request(app.app).get(`/v1/games/${created.id}/history`)).body.events;
    const rolled = history.filter((e: { type: string }) => e.type === 'roll' || e.type === 'roll-off').map((e: { dice: number[] }) => e.dice);
    expect(rolled).toEqual(game.rolls.map((r: { dice: number[] }) => r.dice));
  });

  it('If-Match with a stale version → 409 with the current version; ETag follows the version', async () => {
    const created = await create({ variant: 'long' });
    const seat = created.state.expects?.seat as 'white' | 'black';
    const token = created.seats[seat].token;
    const stale = await request(app.app)
      .post(`/v1/games/${created.id}/roll`)
      .set('authorization', `Bearer ${token}`)
      .set('if-match', '"7"')
      .send({});
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'VERSION_CONFLICT', version: 1 });
    const ok = await request(app.app)
      .post(`/v1/games/${created.id}/roll`)
      .set('authorization', `Bearer ${token}`)
      .set('if-match', '"1"')
      .send({});
    expect(ok.status).toBe(200);
    expect(ok.headers.etag).toBe('"2"');
  });

  it('a retried action with the same Idempotency-Key returns the first answer and applies once', async () => {
    const created = await create({ variant: 'long' });
    const seat = created.state.expects?.seat as 'white' | 'black';
    const send = () =>
      request(app.app)
        .post(`/v1/games/${created.id}/roll`)
        .set('authorization', `Bearer ${created.seats[seat].token}`)
        .set('idempotency-key', 'retry-1')
        .send({});
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const history = (await request(app.app).get(`/v1/games/${created.id}/history`)).body.events;
    expect(history.filter((e: { type: string }) => e.type === 'roll')).toHaveLength(1);
  });

  it('an Idempotency-Key of 0 or more than 200 characters → 400 INVALID_REQUEST naming the header, nothing applied', async () => {
    const created = await create({ variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } });
    const path = `/v1/games/${created.id}`;
    const white = `Bearer ${created.seats.white.token}`;
    for (const key of ['', 'k'.repeat(201)]) {
      const res = await request(app.app).post(`${path}/roll`).set('authorization', white).set('idempotency-key', key).send({});
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_REQUEST', field: 'Idempotency-Key' });
    }
    expect((await request(app.app).get(path)).body.version).toBe(created.version);
    const accepted = await request(app.app).post(`${path}/roll`).set('authorization', white).set('idempotency-key', 'k'.repeat(200)).send({});
    expect(accepted.status).toBe(200);
  });

  it('an Idempotency-Key is bound to seat, action and body: reused otherwise → 422 IDEMPOTENCY_KEY_REUSED, nothing applied', async () => {
    const created = await create({ variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } });
    const path = `/v1/games/${created.id}`;
    const white = `Bearer ${created.seats.white.token}`;
    const black = `Bearer ${created.seats.black.token}`;
    const rolled = await request(app.app).post(`${path}/roll`).set('authorization', white).set('idempotency-key', 'k-1').send({});
    expect(rolled.status).toBe(200);
    const turns = rolled.body.legalTurns as { steps: object[]; notation: string }[];
    const played = await request(app.app).post(`${path}/play`).set('authorization', white).set('idempotency-key', 'k-2').send({ steps: turns[0].steps });
    expect(played.status).toBe(200);
    expect(played.body.expects).toEqual({ seat: 'black', action: 'roll' });
    // Black's roll under White's key: refused, and Black has not rolled.
    const stolen = await request(app.app).post(`${path}/roll`).set('authorization', black).set('idempotency-key', 'k-1').send({});
    expect(stolen.status).toBe(422);
    expect(stolen.body.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'Idempotency-Key' });
    // The same seat with another action or another body under a used key: refused too.
    const otherAction = await request(app.app).post(`${path}/resign`).set('authorization', white).set('idempotency-key', 'k-2').send({});
    expect(otherAction.status).toBe(422);
    expect(otherAction.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    if (turns.length > 1) {
      const otherBody = await request(app.app).post(`${path}/play`).set('authorization', white).set('idempotency-key', 'k-2').send({ steps: turns[1].steps });
      expect(otherBody.status).toBe(422);
      expect(otherBody.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    }
    // The same request again is a replay.
    const replay = await request(app.app).post(`${path}/play`).set('authorization', white).set('idempotency-key', 'k-2').send({ steps: turns[0].steps });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(played.body);
    const state = (await request(app.app).get(path)).body;
    expect(state.version).toBe(3);
    expect(state.expects).toEqual({ seat: 'black', action: 'roll' });
    expect(state.allowed).toEqual({ white: ['resign'], black: ['roll', 'resign'] });
  });

  it('illegal and incomplete plays are 422 with the rule; nothing changes', async () => {
    const created = await create({ variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } });
    const token = created.seats.white.token;
    const rolled = (await request(app.app).post(`/v1/games/${created.id}/roll`).set('authorization', `Bearer ${token}`).send({})).body as GameState;
    if (rolled.expects?.action !== 'play') return; // every opening roll can be played; a guard for the type
    const die = (rolled.dice as number[])[0];
    const illegal = await request(app.app)
      .post(`/v1/games/${created.id}/play`)
      .set('authorization', `Bearer ${token}`)
      .send({ steps: [{ from: 23, to: 23 - die }] });
    expect(illegal.status).toBe(422);
    expect(illegal.body.error.code).toBe('ILLEGAL_PLAY');
    expect(illegal.body.error.violation.code).toBe('NO_CHECKER');
    const steps = rolled.legalTurns?.[0].steps ?? [];
    if (steps.length > 1) {
      const partial = await request(app.app)
        .post(`/v1/games/${created.id}/play`)
        .set('authorization', `Bearer ${token}`)
        .send({ steps: steps.slice(0, 1) });
      expect(partial.status).toBe(422);
      expect(partial.body.error.code).toBe('INCOMPLETE_PLAY');
    }
    const after = (await request(app.app).get(`/v1/games/${created.id}`)).body;
    expect(after.version).toBe(2);
  });

  it('the other seat acting is 403 NOT_YOUR_TURN whatever it sends (Black plays when White must roll); nothing changes', async () => {
    const created = await create({ variant: 'long' });
    const seat = created.state.expects?.seat as 'white' | 'black';
    const other = seat === 'white' ? 'black' : 'white';
    const play = await request(app.app).post(`/v1/games/${created.id}/play`).set('authorization', `Bearer ${created.seats[other].token}`).send({ notation: '24/18' });
    expect(play.status).toBe(403);
    expect(play.body.error).toMatchObject({ code: 'NOT_YOUR_TURN', expects: { seat, action: 'roll' }, allowed: ['resign'], version: 1 });
    const after = await request(app.app).get(`/v1/games/${created.id}`);
    expect(after.body.version).toBe(1);
  });

  it('an action that is not expected is 409; an unknown action 404; an unknown game 404', async () => {
    const created = await create({ variant: 'long' });
    const seat = created.state.expects?.seat as 'white' | 'black';
    const token = created.seats[seat].token;
    const play = await request(app.app).post(`/v1/games/${created.id}/play`).set('authorization', `Bearer ${token}`).send({ notation: '24/18' });
    expect(play.status).toBe(409);
    expect(play.body.error).toMatchObject({ code: 'ACTION_NOT_EXPECTED', allowed: ['roll', 'resign'], version: 1 });
    const unknown = await request(app.app).post(`/v1/games/${created.id}/jump`).set('authorization', `Bearer ${token}`).send({});
    expect(unknown.status).toBe(404);
    const missing = await request(app.app).get('/v1/games/does-not-exist');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('GAME_NOT_FOUND');
    const double = await request(app.app).post(`/v1/games/${created.id}/double`).set('authorization', `Bearer ${token}`).send({});
    expect(double.status).toBe(422);
    expect(double.body.error.code).toBe('CUBE_DISABLED');
  });

  it('resigning ends the game with the scoring answer', async () => {
    const created = await create({ variant: 'long' });
    const seat = created.state.expects?.seat as 'white' | 'black';
    const res = await request(app.app)
      .post(`/v1/games/${created.id}/resign`)
      .set('authorization', `Bearer ${created.seats[seat].token}`)
      .send({ as: 'mars' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('finished');
    expect(res.body.result).toMatchObject({ winner: seat === 'white' ? 'black' : 'white', result: 'resign-mars', points: 2 });
  });

  it('the doubling cube: double, take, then a drop ends the game for the pre-offer value', async () => {
    const created = await create({ variant: 'long', cube: true, rules: { openingRoll: 'fixedFirstSeat' } });
    const t = created.seats;
    const path = `/v1/games/${created.id}`;
    // White plays his opening roll (no double during the opening move, CUBE-2).
    const early = await request(app.app).post(`${path}/double`).set('authorization', `Bearer ${t.white.token}`).send({});
    expect(early.status).toBe(422);
    expect(early.body.error.code).toBe('NOT_BEFORE_ROLL');
    let state = (await request(app.app).post(`${path}/roll`).set('authorization', `Bearer ${t.white.token}`).send({})).body as GameState;
    state = (await request(app.app).post(`${path}/play`).set('authorization', `Bearer ${t.white.token}`).send({ steps: state.legalTurns?.[0].steps })).body as GameState;
    expect(state.expects).toEqual({ seat: 'black', action: 'roll' });
    state = (await request(app.app).post(`${path}/double`).set('authorization', `Bearer ${t.black.token}`).send({})).body as GameState;
    expect(state.expects).toEqual({ seat: 'white', action: 'respond' });
    state = (await request(app.app).post(`${path}/take`).set('authorization', `Bearer ${t.white.token}`).send({})).body as GameState;
    expect(state.cube).toMatchObject({ value: 2, owner: 'white' });
    expect(state.expects).toEqual({ seat: 'black', action: 'roll' });
    const again = await request(app.app).post(`${path}/double`).set('authorization', `Bearer ${t.black.token}`).send({});
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('CUBE_NOT_OWNED');
    state = (await request(app.app).post(`${path}/roll`).set('authorization', `Bearer ${t.black.token}`).send({})).body as GameState;
    if (state.expects?.action === 'play') {
      state = (await request(app.app).post(`${path}/play`).set('authorization', `Bearer ${t.black.token}`).send({ steps: state.legalTurns?.[0].steps })).body as GameState;
    }
    state = (await request(app.app).post(`${path}/double`).set('authorization', `Bearer ${t.white.token}`).send({})).body as GameState;
    state = (await request(app.app).post(`${path}/drop`).set('authorization', `Bearer ${t.black.token}`).send({})).body as GameState;
    expect(state.status).toBe('finished');
    expect(state.result).toMatchObject({ winner: 'white', result: 'dropped-cube', points: 2 });
  });

  it('games expire after the TTL → 404', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = new MemorySessionStore(() => now);
    const short = await testApp({ services: buildServices({ store, gameTtlSeconds: 60, now: () => new Date(now) }) });
    const res = await request(short.app).post('/v1/games').send({ variant: 'long' });
    expect((await request(short.app).get(`/v1/games/${res.body.id}`)).status).toBe(200);
    now += 61_000;
    expect((await request(short.app).get(`/v1/games/${res.body.id}`)).status).toBe(404);
    await short.close();
  });
});
