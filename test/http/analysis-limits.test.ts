import { createHash } from 'crypto';
import request from 'supertest';
import { createFakeEvaluator } from '../../src/eval/fake';
import { Evaluator, countingEvaluator } from '../../src/eval/evaluator';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { EvaluatorSet } from '../../src/service/analysis/evaluators';
import { testApp } from '../support/app';

/*
 * What a caller sees of the analysis limits, on both transports: the cost
 * model's per-request cap (ANALYSIS_MAX_COST → 422 ANALYSIS_TOO_COSTLY,
 * before anything runs), the per-client budget of evaluations
 * (ANALYSIS_RATE_BUDGET → 429 with Retry-After) that leaves the rules
 * endpoints alone, API keys, and the metrics token. A counting fake
 * evaluator shows whether anything ran.
 */

let evaluations = 0;

const counting = (e: Evaluator): Evaluator => countingEvaluator(e, () => evaluations++);

const fakes: EvaluatorSet = {
  kind: 'fake',
  short: () => counting(createFakeEvaluator({ family: 'short' })),
  long: () => counting(createFakeEvaluator({ family: 'long' })),
};

const KEY = 'analyst-key-0123456789';
const SHA = createHash('sha256').update(KEY).digest('hex');

const OPENING = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA' };

async function appWith(options: Parameters<typeof buildServices>[0], deps: Parameters<typeof testApp>[0] = {}): Promise<App> {
  // A generous search budget: a busy machine must not cut answers short (they would not be cached).
  return testApp({ services: buildServices({ evaluators: fakes, analysisBudgetMs: 60_000, ...options }), ...deps });
}

describe('the cost cap (ANALYSIS_MAX_COST)', () => {
  let app: App;
  beforeAll(async () => {
    app = await appWith({});
  });
  afterAll(() => app.close());

  it('refuses a GraphQL document of six aliased 10 s rollouts before any of them runs', async () => {
    const fields = Array.from(
      { length: 6 },
      (_, i) => `r${i}: rollout(input: {variant: backgammon, positionId: "4HPwATDgc/ABMA", trials: 5184, timeBudgetMs: 10000}) { variant }`,
    );
    evaluations = 0;
    const res = await request(app.app).post('/graphql').send({ query: `{ ${fields.join(' ')} }` });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.code).toBe('ANALYSIS_TOO_COSTLY');
    expect(res.body.errors[0].message).toMatch(/would cost about \d+ network evaluations; the limit is 1000000/);
    expect(res.body.data).toBeUndefined();
    expect(evaluations).toBe(0);
  });

  it('lets the same document with one rollout run', async () => {
    const res = await request(app.app)
      .post('/graphql')
      .send({ query: '{ rollout(input: {variant: backgammon, positionId: "4HPwATDgc/ABMA", trials: 2, seed: 1, truncateAfter: 6, timeBudgetMs: 10000}) { estimate { trials } } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.rollout.estimate.trials).toBe(2);
  });

  it('refuses a single over-cost REST request with the estimate and the limit, and runs nothing', async () => {
    const small = await appWith({ analysisMaxCost: 1000 });
    evaluations = 0;
    const res = await request(small.app).post('/v1/evaluate').send({ ...OPENING, plies: 2 });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'ANALYSIS_TOO_COSTLY', estimate: 4326, limit: 1000 });
    const rollout = await request(small.app).post('/v1/rollout').send({ ...OPENING, trials: 100 });
    expect(rollout.status).toBe(422);
    expect(rollout.body.error.code).toBe('ANALYSIS_TOO_COSTLY');
    const batch = await request(small.app)
      .post('/v1/evaluate/batch')
      .send({ positions: [{ ...OPENING, plies: 1 }, { ...OPENING, plies: 1 }, { ...OPENING, plies: 1 }] });
    expect(batch.status).toBe(422);
    expect(batch.body.error).toMatchObject({ code: 'ANALYSIS_TOO_COSTLY', estimate: 3 * 470 });
    expect(evaluations).toBe(0);
    // A cheap request still runs.
    expect((await request(small.app).post('/v1/evaluate').send(OPENING)).status).toBe(200);
    await small.close();
  });
});

describe('the per-client evaluation budget (ANALYSIS_RATE_BUDGET)', () => {
  it('answers 429 with Retry-After once a client has spent its budget, never for the rules endpoints', async () => {
    const app = await appWith({ analysisRateBudget: { perWindow: 1000, windowSeconds: 60 } });
    const first = await request(app.app).post('/v1/evaluate').send({ ...OPENING, plies: 1 });
    expect(first.status).toBe(200);
    const second = await request(app.app).post('/v1/evaluate').send({ variant: 'long', positionId: 'GAAA8_fAAAg__DA', plies: 1 });
    expect(second.status).toBe(200);
    const third = await request(app.app).post('/v1/evaluate').send({ ...OPENING, positionId: '4PPgASDgc/ABMA', plies: 1 });
    expect(third.status).toBe(429);
    expect(third.body.error).toMatchObject({ code: 'RATE_LIMITED', estimate: 470, limit: 1000 });
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // A cached answer costs nothing.
    expect((await request(app.app).post('/v1/evaluate').send({ ...OPENING, plies: 1 })).status).toBe(200);
    // The rules endpoints are not throttled by default.
    for (let i = 0; i < 30; i++) {
      const moves = await request(app.app).post('/v1/moves').send({ ...OPENING, dice: [3, 1] });
      expect(moves.status).toBe(200);
    }
    await app.close();
  });

  it('counts an API key apart from its address, with the key\'s own budget', async () => {
    const app = await appWith(
      { analysisRateBudget: { perWindow: 100, windowSeconds: 60 } },
      { apiKeys: [{ name: 'analyst', sha256: SHA, budget: 100_000 }] },
    );
    const anonymous = await request(app.app).post('/v1/evaluate').send({ ...OPENING, plies: 1 });
    // 470 evaluations can never fit a window of 100: no Retry-After, the request itself is too costly.
    expect(anonymous.status).toBe(422);
    const keyed = await request(app.app).post('/v1/evaluate').set('X-API-Key', KEY).send({ ...OPENING, plies: 1 });
    expect(keyed.status).toBe(200);
    await app.close();
  });

  it('refuses with 422 ANALYSIS_TOO_COSTLY, not 429, a request that costs more than the whole window of its key', async () => {
    const app = await appWith({ analysisRateBudget: { perWindow: 100_000, windowSeconds: 60 } }, { apiKeys: [{ name: 'analyst', sha256: SHA, budget: 100 }] });
    const before = evaluations;
    const res = await request(app.app).post('/v1/evaluate').set('X-API-Key', KEY).send({ ...OPENING, plies: 1 });
    expect(res.status).toBe(422);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.body.error).toMatchObject({ code: 'ANALYSIS_TOO_COSTLY', estimate: 470, limit: 100 });
    expect(res.body.error.message).toContain('per window');
    expect(evaluations).toBe(before);
    // One that fits the window still runs.
    expect((await request(app.app).post('/v1/evaluate').set('X-API-Key', KEY).send({ ...OPENING, plies: 0 })).status).toBe(200);
    await app.close();
  });
});

describe('API keys and the metrics token', () => {
  let app: App;
  beforeAll(async () => {
    app = await appWith({}, { apiKeys: [{ name: 'analyst', sha256: SHA, budget: null }], metricsToken: 'scrape-me' });
  });
  afterAll(() => app.close());

  it('refuses an unknown key with 401 UNKNOWN_API_KEY on both transports; no key is fine', async () => {
    const res = await request(app.app).post('/v1/moves').set('X-API-Key', 'guess').send({ ...OPENING, dice: [3, 1] });
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'UNKNOWN_API_KEY', message: 'the API key is not known to this service', field: 'X-API-Key' });
    const g = await request(app.app).post('/graphql').set('X-API-Key', 'guess').send({ query: '{ variants { name } }' });
    expect(g.status).toBe(401);
    expect((await request(app.app).post('/v1/moves').send({ ...OPENING, dice: [3, 1] })).status).toBe(200);
    expect((await request(app.app).post('/v1/moves').set('X-API-Key', KEY).send({ ...OPENING, dice: [3, 1] })).status).toBe(200);
  });

  it('serves /metrics only with the bearer token, with the pool metrics', async () => {
    expect((await request(app.app).get('/metrics')).status).toBe(401);
    expect((await request(app.app).get('/metrics').set('Authorization', 'Bearer wrong')).status).toBe(401);
    const ok = await request(app.app).get('/metrics').set('Authorization', 'Bearer scrape-me');
    expect(ok.status).toBe(200);
    for (const name of ['nardy_analysis_queue_depth', 'nardy_analysis_busy_workers', 'nardy_analysis_queue_wait_seconds', 'nardy_analysis_refused_total']) {
      expect(ok.text).toContain(name);
    }
    expect((await request(app.app).get('/health')).status).toBe(200);
  });
});
