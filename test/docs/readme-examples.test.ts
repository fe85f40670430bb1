import { readFileSync } from 'fs';
import { resolve } from 'path';
import request from 'supertest';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';

/*
 * The README's curl examples answer as printed: each ```sh block holding a
 * `curl -s localhost:3000<path> … -d '<json>'` followed by a ```json block is
 * replayed against the real app and the answer compared.
 */

const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
const pattern = /```sh\n(curl -s localhost:3000(\S+)[^\n]*(?:\\\n[^\n]*)*?-d '([^']*)'[^\n]*)\n```\s*```json\n([\s\S]*?)\n```/g;
const examples = [...readme.matchAll(pattern)].map((m) => ({ path: m[2], body: m[3], expected: m[4] }));

let app: App;
beforeAll(async () => {
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

describe('README examples', () => {
  it('are found', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7);
  });

  it.each(examples.map((e, i) => [`${i + 1}: POST ${e.path}`, e] as const))('%s answers as printed', async (_label, e) => {
    const res = await request(app.app).post(e.path).set('content-type', 'application/json').send(e.body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(e.expected));
  });
});
