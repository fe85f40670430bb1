import request from 'supertest';
import { App } from '../../src/http/app';
import { contract } from '../../src/contract/openapi';
import { testApp } from '../support/app';

/* Answers at the edges of the REST contract: what a client learns from a refusal. */

let app: App;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

describe('405 answers', () => {
  it('name the methods the route takes in Allow', async () => {
    const moves = await request(app.app).delete('/v1/moves');
    expect(moves.status).toBe(405);
    expect(moves.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(moves.headers.allow).toBe('POST');
    const job = await request(app.app).post('/v1/rollouts/ro_1');
    expect(job.status).toBe(405);
    expect(job.headers.allow!.split(', ').sort()).toEqual(['DELETE', 'GET']);
  });
});

describe('a body that fits no alternative of its schema', () => {
  it('names the allowed values of a resignation level', async () => {
    const created = await request(app.app).post('/v1/games').send({ variant: 'backgammon' });
    const res = await request(app.app).post(`/v1/games/${created.body.id}/resign`).set('Authorization', `Bearer ${created.body.seats.white.token}`).send({ as: 'gammon' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'INVALID_REQUEST',
      field: 'as',
      message: 'as: must be equal to one of the allowed values: single, mars, koks, soviet-4, soviet-8, per-checker',
    });
  });

  it('still names an unknown field that no alternative knows', async () => {
    const created = await request(app.app).post('/v1/games').send({ variant: 'backgammon' });
    const res = await request(app.app).post(`/v1/games/${created.body.id}/resign`).set('Authorization', `Bearer ${created.body.seats.white.token}`).send({ level: 'mars' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'level' });
  });
});

describe('the name "nardy"', () => {
  it('is refused as ambiguous, naming long and backgammon, never read as backgammon', async () => {
    const res = await request(app.app).post('/v1/moves').send({ variant: 'nardy', positionId: '4HPwATDgc/ABMA', dice: [3, 1] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'UNKNOWN_VARIANT', field: 'variant' });
    expect(res.body.error.message).toContain('"long"');
    expect(res.body.error.message).toContain('"backgammon"');
    const variants = await request(app.app).get('/v1/variants');
    expect(variants.body.variants.flatMap((v: { aliases: string[] }) => v.aliases)).not.toContain('nardy');
  });
});

describe('Last-Event-ID past the last event', () => {
  const stream = (id: string, last: string) => request(app.app).get(`/v1/games/${id}/events`).set('Last-Event-ID', last).timeout(3000);

  it('is refused, naming the last event, on a game in progress and on a finished one', async () => {
    const created = await request(app.app).post('/v1/games').send({ variant: 'backgammon' });
    const playing = await stream(created.body.id, '99999');
    expect(playing.status).toBe(400);
    expect(playing.body.error).toMatchObject({ code: 'INVALID_REQUEST', field: 'Last-Event-ID' });
    expect(playing.body.error.message).toContain('99999');

    await request(app.app).post(`/v1/games/${created.body.id}/resign`).set('Authorization', `Bearer ${created.body.seats.white.token}`).send({});
    const history = await request(app.app).get(`/v1/games/${created.body.id}/history`);
    const last = history.body.events.length as number;
    const finished = await stream(created.body.id, '99999');
    expect(finished.status).toBe(400);
    expect(finished.body.error.message).toContain(`(${last})`);
    // Resuming from the last event itself still ends the stream at once.
    const resumed = await stream(created.body.id, String(last));
    expect(resumed.status).toBe(200);
    expect(resumed.text).toContain('event: end');
  });
});

describe('route labels of metrics and logs', () => {
  /** The request counts of a route by status, from /metrics. */
  async function counts(route: string): Promise<Record<string, number>> {
    const text = await app.metrics.registry.metrics();
    const out: Record<string, number> = {};
    for (const line of text.split('\n')) {
      const m = /^http_requests_total\{method="(\w+)",route="([^"]*)",status="(\d+)"\} (\d+)$/.exec(line);
      if (m && m[2] === route) out[`${m[1]} ${m[3]}`] = Number(m[4]);
    }
    return out;
  }

  it('are the same for an answer and a refusal of one route, nested routers included', async () => {
    await request(app.app).post('/v1/cube').send({ variant: 'backgammon' });
    await request(app.app).post('/v1/cube').send({ variant: 'nope' });
    const cube = await counts('/v1/cube');
    expect(Object.keys(cube).some((k) => k.startsWith('POST 4'))).toBe(true);
    expect(await counts('/cube')).toEqual({});
    const submitted = await request(app.app).post('/v1/rollouts').send({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 36, truncateAfter: 2, seed: 1 });
    expect(submitted.status).toBeLessThan(300);
    await request(app.app).get('/v1/rollouts/ro_0');
    expect(Object.keys(await counts('/v1/rollouts/{id}'))).toContain('GET 404');
    expect(Object.keys(await counts('/v1/rollouts'))).toContain(`POST ${submitted.status}`);
    expect(await counts('/:id')).toEqual({});
    expect(await counts('/')).toEqual({});
  });
});

describe('error field paths', () => {
  const position = (white: Record<string, number>) => ({
    turn: 'white',
    white: { points: white, off: 0 },
    black: { points: { '24': 15 }, off: 0 },
  });

  it('name a point of a position one way, whether the schema or the rules refuse it', async () => {
    const bySchema = await request(app.app).post('/v1/moves').send({ variant: 'long', position: position({ '24': -1 }), dice: [3, 1] });
    expect(bySchema.status).toBe(400);
    expect(bySchema.body.error.field).toBe('position.white.points.24');
    const byRules = await request(app.app).post('/v1/moves').send({ variant: 'long', position: position({ '24': 14, '30': 1 }), dice: [3, 1] });
    expect(byRules.status).toBe(400);
    expect(byRules.body.error.field).toBe('position.white.points.30');
    // Array items keep their index in brackets.
    const dice = await request(app.app).post('/v1/moves').send({ variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [3, 9] });
    expect(dice.body.error.field).toBe('dice[1]');
  });
});

describe('a long-nardy notation from the bar', () => {
  it('blames the notation the client sent, not a step it never wrote', async () => {
    for (const path of ['/v1/moves/validate']) {
      const res = await request(app.app).post(path).send({ variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 1], notation: 'bar/18' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_NOTATION', field: 'notation' });
      expect(res.body.error.message).toContain('no bar');
    }
    const gql = await request(app.app)
      .post('/graphql')
      .send({ query: '{ validateMove(input: {variant: long, positionId: "GAAA8_fAAAg__DA", dice: [6, 1], notation: "bar/18"}) { legal } }' });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'INVALID_NOTATION', field: 'notation' });
  });
});

describe('the docs page "Try it out" on GET /v1/diagram', () => {
  it('sends a request the service answers when every prefilled parameter is kept', async () => {
    // Swagger UI fills each parameter from its `example`; the request it builds must be a valid one.
    const document = contract().document as unknown as { paths: Record<string, Record<string, { parameters: { name: string; in: string; example?: unknown }[] }>> };
    const prefilled = document.paths['/v1/diagram'].get.parameters.filter((p) => p.in === 'query' && p.example !== undefined);
    const query = Object.fromEntries(prefilled.map((p) => [p.name, String(p.example)]));
    expect(Object.keys(query)).toContain('positionId');
    const res = await request(app.app).get('/v1/diagram').query(query);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });
});
