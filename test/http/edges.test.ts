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
