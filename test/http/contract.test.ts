import { constants as zlibConstants, gzipSync } from 'zlib';
import * as zlib from 'zlib';
import request from 'supertest';
import { parse as parseYaml } from 'yaml';
import { App, createApp } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { MemorySessionStore } from '../../src/service/store/memory';
import { StoreUnavailableError } from '../../src/service/store/types';
import { contractProblems, spec, specText } from '../support/contract';

/*
 * The contract as a client generator sees it. Every route is walked with
 * hostile input (wrong types, no body, a huge body, a wrong content type or
 * charset or encoding, unknown fields and query parameters, bad tokens and
 * versions, a store that is down, a rate limit that is hit): every answer's
 * status must be declared for its operation in openapi.yaml and its body must
 * match the declared schema (checked with Ajv, apart from the app's own
 * validator, which is off here so that nothing is masked as a 500).
 */

type Call = { method: 'get' | 'post' | 'delete'; path: string; send: (r: request.Test) => request.Test };

let app: App;
const problems: string[] = [];
const seen = new Map<string, Set<number>>();

async function walk(target: App, call: Call): Promise<request.Response> {
  const agent = request(target.app);
  const res = await call.send(agent[call.method](call.path));
  problems.push(...contractProblems(call.method, call.path, res));
  if (res.status >= 500 && res.status !== 503) problems.push(`${call.method.toUpperCase()} ${call.path} → ${res.status}: a server error`);
  const key = `${call.method.toUpperCase()} ${call.path.replace(/\/(games|rollouts|analyses)\/[^/]+/, '/$1/{id}').replace(/\?.*$/, '')}`;
  if (!seen.has(key)) seen.set(key, new Set());
  seen.get(key)!.add(res.status);
  return res;
}

const json = (body: unknown) => (r: request.Test) => r.set('content-type', 'application/json').send(JSON.stringify(body));
const raw = (contentType: string, body: string | Buffer, headers: Record<string, string> = {}) => (r: request.Test) => {
  for (const [k, v] of Object.entries(headers)) r.set(k, v);
  // As the bytes are: superagent would serialise a Buffer as JSON for a JSON content type.
  return r.set('content-type', contentType).serialize((data: unknown) => data as string).send(body as string);
};
const nothing = (r: request.Test) => r;

/** Hostile bodies for any JSON operation, besides its own examples. */
function hostileBodies(valid: Record<string, unknown>): ((r: request.Test) => request.Test)[] {
  const zstd = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';
  return [
    nothing,
    json({}),
    json([]),
    json('position'),
    json(7),
    json(null),
    raw('application/json', '{"variant": '),
    raw('application/json', '{"a":'.repeat(3000) + '1' + '}'.repeat(3000)),
    json({ ...valid, unknownField: 1 }),
    json({ ...valid, variant: 7 }),
    json({ ...valid, position: 'x', positionId: 5 }),
    json({ ...valid, dice: 'six' }),
    json({ ...valid, cube: 'x', match: { length: 'seven' } }),
    json({ ...valid, steps: [{ from: 'a' }], notation: 5, plies: -1 }),
    json({ ...valid, padding: 'x'.repeat(70_000) }),
    raw('text/plain', JSON.stringify(valid)),
    raw('application/x-www-form-urlencoded', 'variant=long'),
    raw('application/json; charset=latin1', JSON.stringify(valid)),
    raw('application/json', JSON.stringify(valid), { 'content-encoding': 'compress' }),
    ...(zstd ? [] : [raw('application/json', JSON.stringify(valid), { 'content-encoding': 'zstd' })]),
    raw('application/json', gzipSync(JSON.stringify(valid), { level: zlibConstants.Z_BEST_SPEED }), { 'content-encoding': 'gzip' }),
    raw('application/json', Buffer.from('not gzip'), { 'content-encoding': 'gzip' }),
  ];
}

/** Every request example of an operation, and a first valid-looking body. */
function examplesOf(path: string): Record<string, unknown>[] {
  const examples = spec.paths[path].post?.requestBody?.content['application/json'].examples ?? {};
  return Object.values(examples).map((e) => e.value as Record<string, unknown>);
}

/** Every POST of the document with a JSON body and no path parameter: walked through its examples and hostile bodies. */
const STATELESS = Object.entries(spec.paths)
  .filter(([path, ops]) => path.startsWith('/v1/') && !path.includes('{') && ops.post?.requestBody)
  .map(([path]) => path);

beforeAll(async () => {
  // Jobs are queued but not worked: the walk submits them, it does not wait for them.
  app = await createApp({ validateResponses: false, services: buildServices({ jobs: { work: false } }) });
});
afterAll(async () => {
  await app.close();
});
beforeEach(() => {
  problems.length = 0;
});

describe('openapi.yaml as clients read it', () => {
  it('has a relative server, so that /docs "Try it out" calls the host the page came from', async () => {
    const res = await request(app.app).get('/openapi.yaml');
    expect(res.status).toBe(200);
    const served = parseYaml(res.text) as { servers: { url: string }[] };
    expect(served.servers.length).toBeGreaterThan(0);
    for (const server of served.servers) expect(server.url).toMatch(/^\//);
    const page = await request(app.app).get('/docs/');
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/upgrade-insecure-requests/);
  });

  it('reads the same under YAML 1.1 (PyYAML): no key or value turns into a boolean', () => {
    expect(parseYaml(specText(), { version: '1.1' })).toEqual(parseYaml(specText()));
  });

  it('gives every object schema its properties, its additional properties or a $ref', () => {
    const bare: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (o.type === 'object' && !o.properties && o.additionalProperties === undefined && !o.allOf && !o.oneOf && !o.anyOf) bare.push(where);
      for (const [k, v] of Object.entries(o)) if (k !== 'examples' && k !== 'example') visit(v, `${where}/${k}`);
    };
    visit(spec, '#');
    expect(bare).toEqual([]);
  });

  it('has no request-side default (generated types would make the field required)', () => {
    const defaults: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
        if (k === 'default' && where.includes('Request')) defaults.push(where);
        if (k !== 'examples') visit(v, `${where}/${k}`);
      }
    };
    for (const [name, schema] of Object.entries(spec.components.schemas)) visit(schema, name);
    expect(defaults).toEqual([]);
  });
});

describe('every answer to hostile input is declared in openapi.yaml', () => {
  it('stateless operations: examples, wrong types, no body, huge body, bad content type, charset and encoding', async () => {
    for (const path of STATELESS) {
      const examples = examplesOf(path);
      const valid = examples[0] ?? { variant: 'long' };
      for (const example of examples) await walk(app, { method: 'post', path, send: json(example) });
      for (const send of hostileBodies(valid)) await walk(app, { method: 'post', path, send });
    }
    // An API key the service does not know: 401 UNKNOWN_API_KEY on every route behind the caller check.
    for (const path of [...STATELESS, '/graphql']) {
      const unknownKey = await walk(app, { method: 'post', path, send: (r) => json(examplesOf(path)[0] ?? { query: '{ health { status } }' })(r.set('x-api-key', 'not-a-key')) });
      expect(unknownKey.body.error?.code).toBe('UNKNOWN_API_KEY');
    }
    // Only the side on roll may double (CUBE-2): a rule the request breaks, 422 NOT_YOUR_TURN.
    const notOnRoll = await walk(app, { method: 'post', path: '/v1/cube', send: json({ variant: 'long', context: { onRoll: 'white' }, action: { type: 'double', by: 'black' } }) });
    expect(notOnRoll.status).toBe(422);
    expect(notOnRoll.body.error.code).toBe('NOT_YOUR_TURN');
    expect(problems).toEqual([]);
  });

  it('415 for a charset other than UTF-8 and an encoding the service cannot read answers UNSUPPORTED_MEDIA_TYPE', async () => {
    const body = JSON.stringify({ variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] });
    const zstd = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';
    const cases = [
      raw('application/json; charset=latin1', body),
      raw('application/json', body, { 'content-encoding': 'compress' }),
      raw('text/plain', body),
      ...(zstd ? [] : [raw('application/json', body, { 'content-encoding': 'zstd' })]),
    ];
    for (const send of cases) {
      const res = await walk(app, { method: 'post', path: '/v1/moves', send });
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const gzipped = await walk(app, { method: 'post', path: '/v1/moves', send: raw('application/json', gzipSync(body), { 'content-encoding': 'gzip' }) });
    expect(gzipped.status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('GET operations: unknown query parameters and ids', async () => {
    const created = await request(app.app).post('/v1/games').send({ variant: 'long' });
    const id = created.body.id as string;
    for (const path of ['/v1/variants', `/v1/games/${id}`, `/v1/games/${id}/history`, `/v1/games/${id}/fairness`, `/v1/games/${id}/export`]) {
      await walk(app, { method: 'get', path, send: nothing });
      await walk(app, { method: 'get', path: `${path}?unknown=1`, send: nothing });
    }
    for (const path of ['/v1/variants', `/v1/games/${id}`]) await walk(app, { method: 'get', path, send: (r) => r.set('x-api-key', 'not-a-key') });
    for (const bad of ['nope', 'x'.repeat(65), '__proto__', '%00']) {
      for (const tail of ['', '/history', '/fairness', '/export']) await walk(app, { method: 'get', path: `/v1/games/${bad}${tail}`, send: nothing });
    }
    expect(problems).toEqual([]);
  });

  it('session actions: every action with no, wrong and right tokens, bad versions and bodies', async () => {
    const created = await request(app.app).post('/v1/games').send({ variant: 'backgammon', match: { length: 3 }, cube: true });
    const id = created.body.id as string;
    const seats = created.body.seats as Record<'white' | 'black', { token: string }>;
    const onRoll = created.body.state.expects.seat as 'white' | 'black';
    const other = onRoll === 'white' ? 'black' : 'white';
    const actions = ['roll', 'play', 'double', 'take', 'drop', 'beaver', 'raccoon', 'resign', 'next-game', 'fly'];
    const bodies = [nothing, json({}), json({ steps: [{ from: 24, to: 18 }] }), json({ notation: 5 }), json({ as: 'everything' }), json([]), json({ padding: 'x'.repeat(70_000) }), raw('text/plain', '{}')];
    for (const action of actions) {
      const path = `/v1/games/${id}/${action}`;
      for (const token of [undefined, 'wrong', seats[other].token, seats[onRoll].token]) {
        for (const send of bodies) {
          await walk(app, { method: 'post', path, send: (r) => send(token ? r.set('authorization', `Bearer ${token}`) : r) });
        }
      }
      const asMover = (r: request.Test) => r.set('authorization', `Bearer ${seats[onRoll].token}`);
      await walk(app, { method: 'post', path, send: (r) => asMover(r).set('if-match', '"999"') });
      await walk(app, { method: 'post', path, send: (r) => asMover(r).set('if-match', 'seven') });
      await walk(app, { method: 'post', path, send: (r) => asMover(r).set('idempotency-key', 'k'.repeat(201)) });
      await walk(app, { method: 'post', path: `/v1/games/nope/${action}`, send: asMover });
    }
    // Event streams: unknown games, a bad Last-Event-ID; a finished game's stream ends by itself.
    for (const bad of ['nope', 'x'.repeat(65)]) await walk(app, { method: 'get', path: `/v1/games/${bad}/events`, send: nothing });
    await walk(app, { method: 'get', path: `/v1/games/${id}/events`, send: (r) => r.set('last-event-id', 'seven') });
    const over = await request(app.app).post('/v1/games').send({ variant: 'long' });
    const resigner = over.body.state.expects.seat as 'white' | 'black';
    await request(app.app).post(`/v1/games/${over.body.id}/resign`).set('authorization', `Bearer ${over.body.seats[resigner].token}`).send({});
    const stream = await walk(app, { method: 'get', path: `/v1/games/${over.body.id}/events`, send: nothing });
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('event: end');
    // A played-out roll, then plays: illegal, incomplete, and legal.
    const rolled = await walk(app, { method: 'post', path: `/v1/games/${id}/roll`, send: (r) => r.set('authorization', `Bearer ${seats[onRoll].token}`) });
    if (rolled.status === 200) {
      const mover = rolled.body.expects.seat as 'white' | 'black';
      const asMover = (r: request.Test) => r.set('authorization', `Bearer ${seats[mover].token}`);
      const legal = rolled.body.legalTurns?.[0]?.steps as { from: number; to: number }[] | undefined;
      await walk(app, { method: 'post', path: `/v1/games/${id}/play`, send: (r) => json({ steps: [{ from: 1, to: 0 }] })(asMover(r)) });
      if (legal && legal.length > 1) await walk(app, { method: 'post', path: `/v1/games/${id}/play`, send: (r) => json({ steps: legal.slice(0, 1) })(asMover(r)) });
      if (legal) await walk(app, { method: 'post', path: `/v1/games/${id}/play`, send: (r) => json({ steps: legal })(asMover(r)) });
    }
    expect(problems).toEqual([]);
  });

  it('analysis jobs: submit, read, cancel, follow; unknown jobs and query parameters', async () => {
    const job = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 2, seed: 1 };
    const submitted = await walk(app, { method: 'post', path: '/v1/rollouts', send: json(job) });
    expect(submitted.status).toBe(202);
    expect((await walk(app, { method: 'post', path: '/v1/rollouts', send: json(job) })).status).toBe(200);
    const path = `/v1/rollouts/${submitted.body.id}`;
    await walk(app, { method: 'get', path, send: nothing });
    await walk(app, { method: 'get', path: `${path}?unknown=1`, send: nothing });
    expect((await walk(app, { method: 'delete', path, send: nothing })).status).toBe(200);
    // A cancelled job's stream sends its last event and ends.
    const stream = await walk(app, { method: 'get', path: `${path}/events`, send: nothing });
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('event: cancelled');
    for (const kind of ['rollouts', 'analyses']) {
      for (const bad of ['nope', 'x'.repeat(200), '%00']) {
        await walk(app, { method: 'get', path: `/v1/${kind}/${bad}`, send: nothing });
        await walk(app, { method: 'get', path: `/v1/${kind}/${bad}?unknown=1`, send: nothing });
        await walk(app, { method: 'delete', path: `/v1/${kind}/${bad}`, send: nothing });
        await walk(app, { method: 'get', path: `/v1/${kind}/${bad}/events`, send: nothing });
      }
    }
    expect(problems).toEqual([]);
  });

  it('diagrams: SVG, PNG, a cached image, bad and unknown query parameters, an illegal move', async () => {
    const svg = await walk(app, { method: 'get', path: '/v1/diagram?variant=long', send: nothing });
    expect(svg.status).toBe(200);
    const etag = String(svg.headers.etag);
    expect((await walk(app, { method: 'get', path: '/v1/diagram?variant=long', send: (r) => r.set('if-none-match', etag) })).status).toBe(304);
    await walk(app, { method: 'get', path: '/v1/diagram?variant=backgammon&format=png', send: nothing });
    await walk(app, { method: 'get', path: '/v1/diagram?variant=backgammon', send: (r) => r.set('accept', 'image/png') });
    for (const query of ['', 'variant=chess', 'variant=long&size=99999', 'variant=long&dice=7,1', 'variant=long&positionId=%00', 'variant=long&unknown=1', 'variant=long&dice=6,5&move=24/1', `variant=long&move=${'x'.repeat(300)}`]) {
      await walk(app, { method: 'get', path: `/v1/diagram?${query}`, send: nothing });
    }
    await walk(app, { method: 'get', path: '/v1/diagram?variant=long', send: (r) => r.set('x-api-key', 'not-a-key') });
    expect(problems).toEqual([]);
  });

  it('meta routes and GraphQL', async () => {
    for (const path of ['/health', '/ready', '/metrics', '/openapi.yaml', '/docs', '/board']) await walk(app, { method: 'get', path, send: nothing });
    await walk(app, { method: 'post', path: '/graphql', send: json({ query: '{ health { status } }' }) });
    await walk(app, { method: 'post', path: '/graphql', send: json({ query: '{ nope }' }) });
    await walk(app, { method: 'post', path: '/graphql', send: json({ query: 7 }) });
    await walk(app, { method: 'post', path: '/graphql', send: raw('application/json', '{"query": ') });
    await walk(app, { method: 'post', path: '/graphql', send: raw('text/plain', '{ health { status } }') });
    await walk(app, { method: 'post', path: '/graphql', send: json({ query: '{ health { status } }', padding: 'x'.repeat(70_000) }) });
    await walk(app, { method: 'get', path: '/graphql?query=%7Bhealth%7Bstatus%7D%7D', send: nothing });
    await walk(app, { method: 'get', path: '/graphql?query=%7Bhealth%7Bstatus%7D%7D', send: (r) => r.set('apollo-require-preflight', 'true') });
    await walk(app, { method: 'get', path: '/graphql?query=mutation%7BcreateGame(input%3A%7Bvariant%3A%22long%22%7D)%7Bid%7D%7D', send: (r) => r.set('apollo-require-preflight', 'true') });
    const guarded = await createApp({ validateResponses: false, metricsToken: 'secret', services: buildServices() });
    expect((await walk(guarded, { method: 'get', path: '/metrics', send: nothing })).status).toBe(401);
    expect((await walk(guarded, { method: 'get', path: '/metrics', send: (r) => r.set('authorization', 'Bearer secret') })).status).toBe(200);
    await guarded.close();
    app.drain();
    const draining = await walk(app, { method: 'get', path: '/ready', send: nothing });
    expect(draining.status).toBe(503);
    expect(problems).toEqual([]);
  });

  it('a session store that is down: 503 STORE_UNAVAILABLE where declared', async () => {
    class DownStore extends MemorySessionStore {
      override async create(): Promise<boolean> {
        throw new StoreUnavailableError('down');
      }
      override async get(): Promise<null> {
        throw new StoreUnavailableError('down');
      }
      override async history(): Promise<null> {
        throw new StoreUnavailableError('down');
      }
      override async ping(): Promise<boolean> {
        return false;
      }
    }
    const down = await createApp({ validateResponses: false, services: buildServices({ store: new DownStore() }) });
    const created = await walk(down, { method: 'post', path: '/v1/games', send: json({ variant: 'long' }) });
    expect(created.status).toBe(503);
    expect(created.body.error.code).toBe('STORE_UNAVAILABLE');
    for (const tail of ['', '/history', '/fairness']) await walk(down, { method: 'get', path: `/v1/games/abc${tail}`, send: nothing });
    await walk(down, { method: 'post', path: '/v1/games/abc/roll', send: (r) => r.set('authorization', 'Bearer t') });
    expect((await walk(down, { method: 'get', path: '/ready', send: nothing })).status).toBe(503);
    await down.close();
    expect(problems).toEqual([]);
  });

  it('a client over the rate limit: 429 RATE_LIMITED where declared', async () => {
    const limited = await createApp({ validateResponses: false, rateLimit: { max: 1, windowSeconds: 60 }, services: buildServices() });
    await request(limited.app).get('/v1/variants');
    const calls: Call[] = [
      { method: 'get', path: '/v1/variants', send: nothing },
      { method: 'get', path: '/v1/games/abc', send: nothing },
      { method: 'post', path: '/graphql', send: json({ query: '{ health { status } }' }) },
      ...STATELESS.map((path): Call => ({ method: 'post', path, send: json(examplesOf(path)[0] ?? {}) })),
      { method: 'post', path: '/v1/games/abc/roll', send: nothing },
    ];
    for (const call of calls) expect((await walk(limited, call)).status).toBe(429);
    await limited.close();
    expect(problems).toEqual([]);
  });

  it('walked every operation of the document', () => {
    const operations = Object.entries(spec.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const walked = new Set([...seen.keys()].map((k) => k.replace('/games/{id}/fly', '/games/{id}/{action}').replace(/\/games\/\{id\}\/(roll|play|double|take|drop|beaver|raccoon|resign|next-game)$/, '/games/{id}/{action}')));
    expect(operations.filter((op) => !walked.has(op))).toEqual([]);
    // The figures for the closing note: requests per status over the whole walk.
    const statuses = new Set([...seen.values()].flatMap((s) => [...s]));
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 201, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503]));
  });
});
