import request from 'supertest';
import { App } from '../../src/http/app';
import { buildBoard } from '../../scripts/build/board';
import { testApp } from '../support/app';

/* The analysis board's static files, as the service serves them (the browser test drives the page itself). */

let app: App;
beforeAll(async () => {
  buildBoard();
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

describe('/board', () => {
  it('redirects /board to the page, which loads its script and style from self only (no inline script)', async () => {
    const redirect = await request(app.app).get('/board');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/board/');
    const page = await request(app.app).get('/board/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[1].trim())).toEqual(['src="/board/board.js" defer']);
    expect(scripts.every((m) => m[2].trim() === '')).toBe(true);
    const script = await request(app.app).get('/board/board.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect((await request(app.app).get('/board/board.css')).status).toBe(200);
  });

  it('answers 404 in the usual shape for a file that is not there', async () => {
    const res = await request(app.app).get('/board/nope.js');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
