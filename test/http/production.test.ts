import { spawn } from 'child_process';
import request from 'supertest';
import { ConfigError, readConfig } from '../../src/config';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';
import { nodeArguments } from '../support/processes';

/* Observability, limits and hardening of the HTTP layer. */

let app: App;
beforeAll(async () => {
  app = await testApp({
    rateLimit: { max: 1000, windowSeconds: 60 },
    graphqlLimits: { maxDepth: 6, maxAliases: 5, maxComplexity: 50 },
  });
});
afterAll(async () => {
  await app.close();
});

describe('observability', () => {
  it('propagates X-Request-Id, or makes one', async () => {
    const given = await request(app.app).get('/health').set('x-request-id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await request(app.app).get('/health');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await request(app.app).get('/health').set('x-request-id', 'bad id with spaces');
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('/metrics has per-route counts and latency, cache counters, move-generation and analysis timings and store state', async () => {
    await request(app.app)
      .post('/v1/moves')
      .send({ variant: 'long', position: { turn: 'white', white: { points: { '24': 15 } }, black: { points: { '24': 15 } } }, dice: [5, 2] });
    await request(app.app).post('/v1/evaluate').send({ variant: 'long', positionId: 'GAAA8_fAAAg__DA', plies: 1 });
    const res = await request(app.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_requests_total{method="POST",route="/v1/moves",status="200"}');
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toContain('nardy_cache_misses_total');
    expect(res.text).toContain('nardy_movegen_duration_seconds_count{variant="long"}');
    expect(res.text).toContain('nardy_store_up 1');
    expect(res.text).toContain('nardy_evaluation_duration_seconds_count{evaluator="neural",operation="evaluate"}');
  });

  it('counts every request of a route once per status', async () => {
    const count = async (): Promise<number> => {
      const text = (await request(app.app).get('/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith('http_requests_total{method="GET",route="/v1/variants",status="200"}'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await count();
    for (let i = 0; i < 3; i++) expect((await request(app.app).get('/v1/variants')).status).toBe(200);
    expect(await count()).toBe(before + 3);
  });

  it('stateless answers carry no ETag: the only ETags are session versions', async () => {
    const res = await request(app.app).get('/v1/variants');
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
  });

  it('/ready answers 200, and 503 once the app drains', async () => {
    const other = await testApp();
    expect((await request(other.app).get('/ready')).status).toBe(200);
    other.drain();
    const res = await request(other.app).get('/ready');
    expect(res.status).toBe(503);
    expect(res.body.draining).toBe(true);
    await other.close();
  });

  it('serves the API docs at /docs and the contract at /openapi.yaml', async () => {
    const docs = await request(app.app).get('/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger-ui');
    const spec = await request(app.app).get('/openapi.yaml');
    expect(spec.text).toContain('openapi: 3.1.0');
  });
});

describe('limits and hardening', () => {
  it('security headers are set (helmet) and CORS answers preflights', async () => {
    const res = await request(app.app).get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    const preflight = await request(app.app)
      .options('/v1/moves')
      .set('origin', 'https://client.example')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'content-type, authorization');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('rate limiting per client: 429 RATE_LIMITED with Retry-After', async () => {
    const limited = await testApp({ rateLimit: { max: 3, windowSeconds: 60 } });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await request(limited.app).get('/v1/variants');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(last?.body.error.code).toBe('RATE_LIMITED');
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    // Probes are not limited.
    expect((await request(limited.app).get('/health')).status).toBe(200);
    await limited.close();
  });

  it('GraphQL: depth, aliases, complexity and batching are limited with clear errors, never a 500', async () => {
    const deep = await request(app.app)
      .post('/graphql')
      .send({ query: '{ variants { options { key } name } a: health { status } }' });
    expect(deep.status).toBe(200);
    // Ordinary fields nested deeper than the limit (3 in this app).
    const shallow = await testApp({ graphqlLimits: { maxDepth: 3, maxAliases: 5, maxComplexity: 50 } });
    const tooDeep = await request(shallow.app).post('/graphql').send({
      query: '{ moves(input: {variant: long, positionId: "GAAA8_fAAAg__DA", dice: [1, 2]}) { turns { next { kind } } } }',
    });
    await shallow.close();
    expect(tooDeep.status).toBe(400);
    expect(JSON.stringify(tooDeep.body.errors)).toContain('QUERY_TOO_DEEP');
    // Introspection is measured on its own (the standard query nests ~15 levels), but not unbounded.
    const deepIntrospection = await request(app.app).post('/graphql').send({
      query: `{ __schema { types { fields { type ${'{ ofType '.repeat(18)}{ name }${' }'.repeat(18)} } } } }`,
    });
    expect(deepIntrospection.status).toBe(400);
    expect(JSON.stringify(deepIntrospection.body.errors)).toContain('QUERY_TOO_DEEP');
    expect(JSON.stringify(deepIntrospection.body.errors)).toContain('introspection');
    const introspectionBesideQuery = await request(app.app).post('/graphql').send({
      query: 'query { moves(input: {variant: long, positionId: "GAAA8_fAAAg__DA", dice: [1, 2]}) { turns { next { kind } steps { from } } stage { units } } __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }',
    });
    expect(introspectionBesideQuery.status).toBe(200);
    const aliases = await request(app.app)
      .post('/graphql')
      .send({ query: `{ ${Array.from({ length: 8 }, (_, i) => `h${i}: health { status }`).join(' ')} }` });
    expect(aliases.status).toBe(400);
    expect(JSON.stringify(aliases.body.errors)).toContain('TOO_MANY_ALIASES');
    const complex = await request(app.app)
      .post('/graphql')
      .send({ query: `{ ${Array.from({ length: 4 }, (_, i) => `v${i}: variants { name title russian description specSection aliases options { key type values min max default rule description } }`).join(' ')} }` });
    expect(complex.status).toBe(400);
    expect(JSON.stringify(complex.body.errors)).toContain('QUERY_TOO_COMPLEX');
    const batch = await request(app.app).post('/graphql').send([{ query: '{ health { status } }' }, { query: '{ health { status } }' }]);
    expect(batch.status).toBeGreaterThanOrEqual(400);
    expect(batch.status).toBeLessThan(500);
  });

  it('no stack traces or internal messages in answers', async () => {
    const res = await request(app.app).post('/v1/moves').set('content-type', 'application/json').send('{"variant": "long", "position": ');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toMatch(/node_modules|at [A-Za-z]+ \(|\.ts:\d+/);
  });
});

describe('configuration', () => {
  it('reads every setting with defaults', () => {
    const c = readConfig({});
    expect(c).toMatchObject({ port: 3000, redisUrl: null, gameTtlSeconds: 604800, logLevel: 'info', corsOrigins: '*', rateLimitMax: 0, analysisMaxCost: 1_000_000, analysisQueueMax: 32, apiKeys: [], metricsToken: null });
    const cluster = readConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001' });
    expect(cluster.redisClusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b', port: 7001 },
    ]);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ CORS_ORIGINS: 'not an origin' }, /CORS_ORIGINS/],
    [{ REDIS_CLUSTER_NODES: 'nohostport' }, /REDIS_CLUSTER_NODES/],
    [{ BODY_LIMIT: 'huge' }, /BODY_LIMIT/],
  ])('rejects %j with a message naming the variable', (env, pattern) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(pattern);
  });

  it('the server refuses to start on a bad setting, with exit code 2 and a clear message', async () => {
    const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, nodeArguments('src/main.ts'), {
        env: { ...process.env, PORT: 'nope' },
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => done({ code, stderr }));
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PORT must be an integer');
  });
});
