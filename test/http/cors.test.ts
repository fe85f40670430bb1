import { readFileSync } from 'fs';
import request from 'supertest';
import { parse } from 'yaml';
import { readConfig } from '../../src/config';
import { OPENAPI_PATH } from '../../src/http/app';
import { testApp } from '../support/app';

/*
 * A browser app on another origin may send every request header the API
 * documents (openapi.yaml's header parameters and security schemes, plus
 * the transport headers README documents: X-Request-Id, and
 * Apollo-Require-Preflight for GraphQL GETs), and read every response header
 * it documents. CORS_ORIGINS picks the origins.
 */

type Parameter = { name: string; in: string };
type Document = {
  paths: Record<string, Record<string, { parameters?: (Parameter | { $ref: string })[]; responses?: Record<string, { headers?: Record<string, unknown> }> }>>;
  components: { responses: Record<string, { headers?: Record<string, unknown> }>; securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }> };
};
const document = parse(readFileSync(OPENAPI_PATH, 'utf8')) as Document;
const operations = Object.values(document.paths).flatMap((path) => Object.values(path));

const documentedRequestHeaders = [
  ...operations.flatMap((op) => (op.parameters ?? []).filter((p): p is Parameter => 'in' in p && p.in === 'header').map((p) => p.name)),
  ...Object.values(document.components.securitySchemes).map((s) => (s.type === 'http' ? 'Authorization' : s.in === 'header' ? s.name! : '')),
  'Content-Type',
  'X-Request-Id',
  'Apollo-Require-Preflight',
].filter((name) => name !== '');
const documentedResponseHeaders = [...operations.flatMap((op) => Object.values(op.responses ?? {})), ...Object.values(document.components.responses)].flatMap((r) => Object.keys(r.headers ?? {}));

const list = (value: string | undefined): string[] => (value ?? '').split(',').map((s) => s.trim().toLowerCase());

describe('CORS', () => {
  it('documents X-API-Key, and allows every documented request header in a preflight', async () => {
    expect(documentedRequestHeaders).toEqual(expect.arrayContaining(['X-API-Key', 'Idempotency-Key', 'If-Match', 'Last-Event-ID', 'Authorization']));
    const app = await testApp();
    for (const path of ['/v1/games/g/roll', '/graphql']) {
      const res = await request(app.app)
        .options(path)
        .set('Origin', 'https://elsewhere.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', documentedRequestHeaders.join(', '));
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(list(res.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(documentedRequestHeaders.map((h) => h.toLowerCase())));
    }
    await app.close();
  });

  it('exposes every documented response header', async () => {
    expect(documentedResponseHeaders).toEqual(expect.arrayContaining(['ETag', 'Retry-After', 'X-Cache']));
    const app = await testApp();
    const res = await request(app.app).get('/health').set('Origin', 'https://elsewhere.example');
    expect(list(res.headers['access-control-expose-headers'])).toEqual(expect.arrayContaining([...new Set(documentedResponseHeaders.map((h) => h.toLowerCase()))]));
    await app.close();
  });

  it('answers only the origins of CORS_ORIGINS when it lists some', async () => {
    const config = readConfig({ CORS_ORIGINS: 'https://a.example, https://b.example' });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(readConfig({}).corsOrigins).toBe('*');
    const app = await testApp({ corsOrigins: config.corsOrigins });
    const listed = await request(app.app).get('/health').set('Origin', 'https://b.example');
    expect(listed.headers['access-control-allow-origin']).toBe('https://b.example');
    expect(listed.headers.vary).toMatch(/origin/i);
    const other = await request(app.app).get('/health').set('Origin', 'https://c.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    await app.close();
  });
});
