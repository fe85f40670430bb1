import request from 'supertest';
import { App } from '../../src/http/app';
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
