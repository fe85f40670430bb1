import request from 'supertest';
import { buildServices } from '../../src/app';
import { createFakeEvaluator } from '../../src/eval/fake';
import { App } from '../../src/http/app';
import { BullJobQueue, jobQueueConnection } from '../../src/service/jobs/bullmq';
import { STORE_TIMEOUT_MS } from '../../src/service/store/redis';
import { testApp } from '../support/app';
import { OwnRedis } from '../support/own-redis';

/*
 * The job endpoints while their Redis is away (a redis-server of this
 * test's own, killed and paused): every one answers 503 STORE_UNAVAILABLE
 * within the store timeout — never hangs — and a submission its client was
 * told 503 about is not queued when Redis answers again.
 */

const ROLLOUT = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 72, truncateAfter: 4 };
const MATCH = { format: 'mat', text: ' 1 point match\n\n Game 1\n White : 0                      Black : 0\n  1) 31: 8/5 6/5                     52: 13/11 13/8\n  2)                                 Wins 1 point\n', plies: 0 };
/** What "within the store timeout" allows for the answer to travel. */
const SLACK_MS = 1500;

let redis: OwnRedis;
let app: App;

beforeAll(async () => {
  redis = await OwnRedis.start();
  const queue = new BullJobQueue({ connect: (role) => jobQueueConnection({ url: redis.url }, role), ttlSeconds: 60, lockMs: 5000, prefix: 'faults-jobs' });
  app = await testApp({
    services: buildServices({
      evaluators: { kind: 'fake', short: () => createFakeEvaluator({ family: 'short' }), long: () => createFakeEvaluator({ family: 'long' }) },
      // Nobody works the queue: submitted jobs stay where a test can see them.
      jobs: { queue, work: false },
    }),
  });
});

afterAll(async () => {
  await app?.close();
  await redis?.stop();
});

/** Sends one request, bounded well past the store timeout, and measures how long its answer took. */
async function timed(send: (agent: ReturnType<typeof request>) => request.Test): Promise<{ status: number; code: unknown; ms: number; body: unknown }> {
  const started = Date.now();
  const res = await send(request(app.app)).timeout(STORE_TIMEOUT_MS * 5);
  const body = res.body as { error?: { code?: string }; errors?: { extensions?: { code?: string } }[] };
  return { status: res.status, code: body.error?.code ?? body.errors?.[0]?.extensions?.code, ms: Date.now() - started, body };
}

/** The id a rollout request gets (ids depend only on the request), from a queue of this process. */
async function idOf(body: typeof ROLLOUT & { seed: number }): Promise<string> {
  const services = buildServices({
    evaluators: { kind: 'fake', short: () => createFakeEvaluator({ family: 'short' }), long: () => createFakeEvaluator({ family: 'long' }) },
    jobs: { work: false },
  });
  const { view } = await services.jobs.submitRollout(body);
  await services.jobQueue.close();
  return view.id;
}

async function untilQueueAnswers(id: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const res = await request(app.app).get(`/v1/rollouts/${id}`);
    if (res.status !== 503) return res.status;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the job queue did not answer again within 10 s');
}

describe('job endpoints while Redis is away', () => {
  it('answer 503 STORE_UNAVAILABLE within the store timeout, and a refused submission is not queued when Redis returns', async () => {
    const queued = await request(app.app).post('/v1/rollouts').send({ ...ROLLOUT, seed: 1 });
    expect(queued.status).toBe(202);
    const id = queued.body.id as string;

    await redis.stop();
    const answers = {
      submitRollout: await timed((r) => r.post('/v1/rollouts').send({ ...ROLLOUT, seed: 2 })),
      getRollout: await timed((r) => r.get(`/v1/rollouts/${id}`)),
      cancelRollout: await timed((r) => r.delete(`/v1/rollouts/${id}`)),
      submitAnalysis: await timed((r) => r.post('/v1/analyses').send(MATCH)),
      getAnalysis: await timed((r) => r.get('/v1/analyses/ma_000000000000000000000000')),
      graphqlJob: await timed((r) => r.post('/graphql').send({ query: `{ job(id: "${id}") { id status } }` })),
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect({ name, code: answer.code }).toEqual({ name, code: 'STORE_UNAVAILABLE' });
      expect({ name, fast: answer.ms <= STORE_TIMEOUT_MS + SLACK_MS }).toEqual({ name, fast: true });
    }
    expect(answers.submitRollout.status).toBe(503);
    expect(answers.graphqlJob.status).toBe(200);
    console.log(`job endpoints with Redis away: ${Object.entries(answers).map(([n, a]) => `${n} ${a.ms} ms`).join(', ')}`);

    await redis.start();
    // The refused submission was not kept to be sent later: once the queue answers, Redis (started empty) holds no such job.
    expect(await untilQueueAnswers(id)).toBe(404);
    const refusedId = await idOf({ ...ROLLOUT, seed: 2 });
    await new Promise((r) => setTimeout(r, 500));
    expect((await request(app.app).get(`/v1/rollouts/${refusedId}`)).status).toBe(404);
  }, 60_000);

  it('a submission held by a paused Redis is answered 503 within the timeout and is not queued after the pause', async () => {
    const body = { ...ROLLOUT, seed: 3 };
    await redis.pause(STORE_TIMEOUT_MS + 1500, 'WRITE');
    const refused = await timed((r) => r.post('/v1/rollouts').send(body));
    expect(refused.status).toBe(503);
    expect(refused.code).toBe('STORE_UNAVAILABLE');
    expect(refused.ms).toBeLessThanOrEqual(STORE_TIMEOUT_MS + SLACK_MS);
    // After the pause (and any late write it held): the refused submission left no job behind.
    await new Promise((r) => setTimeout(r, 2500));
    const probe = await request(app.app).post('/graphql').send({ query: '{ __typename }' });
    expect(probe.status).toBe(200);
    const again = await request(app.app).post('/v1/rollouts').send(body);
    // A new job (202), not the refused one found queued (200).
    expect(again.status).toBe(202);
  }, 60_000);
});
