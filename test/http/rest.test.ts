import request from 'supertest';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';

/* REST behaviour against the real app: contract shapes and every class of bad input. */

let app: App;
beforeAll(async () => {
  app = await testApp({ bodyLimit: '8kb' });
});
afterAll(async () => {
  await app.close();
});

const start = { turn: 'white', white: { points: { '24': 15 } }, black: { points: { '24': 15 } } };

describe('REST', () => {
  it('GET /health', async () => {
    const res = await request(app.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /v1/variants lists every long preset with options and defaults', async () => {
    const res = await request(app.app).get('/v1/variants');
    expect(res.status).toBe(200);
    const names = res.body.variants.map((v: { name: string }) => v.name);
    expect(names).toEqual(
      expect.arrayContaining(['long', 'nardgammon', 'crazy', 'gulbar', 'crazy-gulbar', 'khachapuri', 'fevga', 'giul', 'backgammon', 'short-soviet']),
    );
    const bg = res.body.variants.find((v: { name: string }) => v.name === 'backgammon');
    expect(bg.options.find((o: { key: string }) => o.key === 'cube').default).toBe(true);
    const crazy = res.body.variants.find((v: { name: string }) => v.name === 'crazy');
    expect(crazy.russian).toBe('Бешеные');
    expect(crazy.options.find((o: { key: string }) => o.key === 'doubles').default).toBe('cascade');
  });

  it('POST /v1/moves answers the contract shape; the resulting position has the next side to move', async () => {
    const res = await request(app.app).post('/v1/moves').send({ variant: 'long', position: start, dice: [6, 5] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ variant: 'long', dice: [6, 5], diceUsed: 2, count: 1 });
    expect(res.body.turns[0]).toMatchObject({
      steps: [
        { from: 24, to: 18 },
        { from: 18, to: 13 },
      ],
      notation: '24/18/13',
      position: { turn: 'black', white: { points: { '24': 14, '13': 1 }, off: 0 }, firstTurn: { white: false, black: true } },
    });
  });

  it('a positionId answers like the position it encodes', async () => {
    const byJson = await request(app.app).post('/v1/moves').send({ variant: 'long', position: start, dice: [4, 2] });
    const id = (await request(app.app).post('/v1/moves').send({ variant: 'long', position: start, dice: [1, 2] })).body.turns[0].positionId;
    expect(typeof id).toBe('string');
    const byId = await request(app.app).post('/v1/moves').send({ variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [4, 2] });
    expect(byId.body).toEqual(byJson.body);
  });

  it('rule overrides apply per request', async () => {
    const res = await request(app.app)
      .post('/v1/moves')
      .send({ variant: 'long', rules: { firstTurnHeadException: 'anyDouble' }, position: start, dice: [2, 2] });
    expect(res.body.count).toBe(3);
  });

  it.each([
    ['malformed JSON', '{"variant":', 400, 'INVALID_JSON', undefined],
    ['not an object', '[1,2]', 400, 'INVALID_REQUEST', undefined],
    ['unknown field', { variant: 'long', position: start, dice: [6, 5], extra: 1 }, 400, 'UNKNOWN_FIELD', 'extra'],
    ['unknown variant', { variant: 'chess', position: start, dice: [6, 5] }, 400, 'UNKNOWN_VARIANT', 'variant'],
    ['16 checkers', { variant: 'long', position: { ...start, white: { points: { '24': 15, '1': 1 } } }, dice: [6, 5] }, 400, 'WRONG_CHECKER_COUNT', 'position.white'],
    ['a point held by both', { variant: 'long', position: { ...start, white: { points: { '12': 15 } } }, dice: [6, 5] }, 400, 'POINT_HELD_BY_BOTH', 'position.black.points.24'],
    ['dice out of range', { variant: 'long', position: start, dice: [0, 7] }, 400, 'INVALID_DICE', 'dice[0]'],
    ['three dice', { variant: 'long', position: start, dice: [1, 2, 3] }, 400, 'INVALID_DICE', 'dice'],
    ['missing dice', { variant: 'long', position: start }, 400, 'INVALID_DICE', 'dice'],
    ['point key out of range', { variant: 'long', position: { ...start, white: { points: { '25': 15 } } }, dice: [6, 5] }, 400, 'INVALID_POSITION', 'position.white.points.25'],
    ['unknown rule option', { variant: 'long', rules: { speed: 'fast' }, position: start, dice: [6, 5] }, 400, 'INVALID_RULES', 'rules.speed'],
    ['bad rule value', { variant: 'long', rules: { sixBlock: 'sometimes' }, position: start, dice: [6, 5] }, 400, 'INVALID_RULES', 'rules.sixBlock'],
    ['both position and id', { variant: 'long', position: start, positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] }, 400, 'INVALID_REQUEST', 'positionId'],
    ['bad position id', { variant: 'long', positionId: '!!', dice: [6, 5] }, 400, 'INVALID_POSITION_ID', 'positionId'],
    ['pending in a classic game', { variant: 'long', position: { ...start, pending: [{ actor: 'white', origin: 'cascade', units: [2, 2, 2, 2] }] } }, 400, 'INVALID_PENDING', 'position.pending[0]'],
    ['prototype key', JSON.parse('{"variant":"long","__proto__":{"x":1},"position":{"turn":"white","white":{"points":{"24":15}},"black":{"points":{"24":15}}},"dice":[6,5]}'), 400, 'UNKNOWN_FIELD', '__proto__'],
  ])('%s → %i %s', async (_label, body, status, code, field) => {
    const req = request(app.app).post('/v1/moves').set('content-type', 'application/json');
    const res = await req.send(typeof body === 'string' ? body : JSON.stringify(body));
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    if (field !== undefined) expect(res.body.error.field).toBe(field);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('a body over the limit is 413', async () => {
    const res = await request(app.app)
      .post('/v1/moves')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ variant: 'long', padding: 'x'.repeat(20000) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a body that is not JSON is 415', async () => {
    const res = await request(app.app).post('/v1/moves').set('content-type', 'text/plain').send('variant=long');
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await request(app.app).get('/v1/nothing');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('dice while a debt is pending → 422 STAGE_MISMATCH', async () => {
    const position = { ...start, pending: [{ actor: 'white', origin: 'debt', units: [4, 4] }] };
    const res = await request(app.app).post('/v1/moves').send({ variant: 'gulbar', position, dice: [6, 5] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'STAGE_MISMATCH', field: 'dice' });
  });

  it('validate: steps and notation agree; both or neither is a 400', async () => {
    const a = await request(app.app).post('/v1/moves/validate').send({ variant: 'long', position: start, dice: [6, 5], notation: '24/18/13' });
    const b = await request(app.app)
      .post('/v1/moves/validate')
      .send({ variant: 'long', position: start, dice: [6, 5], steps: [{ from: 24, to: 19 }, { from: 19, to: 13 }] });
    expect(a.body.legal && a.body.complete).toBe(true);
    expect(b.body.positionId).toBe(a.body.positionId);
    const neither = await request(app.app).post('/v1/moves/validate').send({ variant: 'long', position: start, dice: [6, 5] });
    expect(neither.status).toBe(400);
    const badNotation = await request(app.app).post('/v1/moves/validate').send({ variant: 'long', position: start, dice: [6, 5], notation: 'x/y' });
    expect(badNotation.body.error.code).toBe('INVALID_NOTATION');
    const badStep = await request(app.app).post('/v1/moves/validate').send({ variant: 'long', position: start, dice: [6, 5], steps: [{ from: 30, to: 1 }] });
    expect(badStep.status).toBe(400);
    expect(badStep.body.error).toMatchObject({ code: 'INVALID_STEPS', field: 'steps[0].from' });
  });
});
