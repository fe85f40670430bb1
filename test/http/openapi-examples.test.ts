import { readFileSync } from 'fs';
import { resolve } from 'path';
import request from 'supertest';
import { parse } from 'yaml';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';

/*
 * Every example in openapi.yaml is executed: each request example is sent to
 * the real app and must get the response example of the same name, status
 * and body alike.
 */

interface Example {
  value: unknown;
}
interface Operation {
  'x-example-check'?: 'shape';
  requestBody?: { content: { 'application/json': { examples?: Record<string, Example> } } };
  responses: Record<string, { content?: { 'application/json'?: { examples?: Record<string, Example> } } }>;
}

const spec = parse(readFileSync(resolve(__dirname, '../../openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

let app: App;
beforeAll(async () => {
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

const cases: { name: string; method: string; path: string; body: unknown; status: number; response: unknown; shape: boolean }[] = [];
for (const [path, operations] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(operations)) {
    const requests = op.requestBody?.content['application/json'].examples ?? {};
    for (const [name, example] of Object.entries(requests)) {
      const hit = Object.entries(op.responses).find(([, r]) => r.content?.['application/json']?.examples?.[name]);
      if (!hit) throw new Error(`openapi.yaml: request example ${method} ${path} ${name} has no response example`);
      const [status, response] = hit;
      cases.push({
        name,
        method,
        path,
        body: example.value,
        status: Number(status),
        response: response.content?.['application/json']?.examples?.[name].value,
        shape: op['x-example-check'] === 'shape',
      });
    }
    if (!op.requestBody) {
      const ok = op.responses['200']?.content?.['application/json']?.examples;
      for (const [name, example] of Object.entries(ok ?? {})) {
        cases.push({ name, method, path, body: undefined, status: 200, response: example.value, shape: op['x-example-check'] === 'shape' });
      }
    }
  }
}

/** The keys of a JSON value, recursively (values replaced by their type). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, k === 'points' ? 'points' : shapeOf((value as Record<string, unknown>)[k])]));
  }
  return value === null ? null : typeof value;
}

describe('openapi.yaml examples answer as documented', () => {
  it('has examples for every operation with a body', () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
  });

  it.each(cases.map((c) => [`${c.method.toUpperCase()} ${c.path} ${c.name}`, c] as const))('%s', async (_label, c) => {
    const agent = request(app.app);
    const res = c.method === 'get' ? await agent.get(c.path) : await agent.post(c.path).send(c.body as object);
    expect(res.status).toBe(c.status);
    // Examples with random parts (ids, tokens, dice) are checked for shape: the same keys, recursively.
    if (c.shape) expect(shapeOf(res.body)).toEqual(shapeOf(c.response));
    else expect(res.body).toEqual(c.response);
  });
});
