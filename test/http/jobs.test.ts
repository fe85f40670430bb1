import { createHash } from 'crypto';
import { createServer } from 'http';
import { AddressInfo } from 'net';
import request from 'supertest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { attachSubscriptions } from '../../src/graphql/subscriptions';
import { createFakeEvaluator } from '../../src/eval/fake';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { testApp } from '../support/app';

/*
 * Rollout jobs over REST: submitted (202 with Location; the same request is
 * the same job), followed as server-sent events to the end, read back with
 * the merged rollout, cancelled; bad requests and unknown jobs answered
 * with their codes. A fake evaluator keeps the trials fast.
 */

let app: App;
beforeAll(async () => {
  app = await testApp({
    services: buildServices({
      evaluators: { kind: 'fake', short: () => createFakeEvaluator({ family: 'short' }), long: () => createFakeEvaluator({ family: 'long' }) },
    }),
  });
});
afterAll(() => app.close());

const JOB = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 720, truncateAfter: 4, seed: 5 };

/** Reads a server-sent event stream to its end: the events' names, ids and data. */
async function events(path: string): Promise<{ event: string; id: string; data: { status: string; progress: { done: number }; result?: unknown } }[]> {
  const res = await request(app.app).get(path).buffer(true).parse((response, done) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => done(null, text));
  });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  return (res.body as string)
    .split('\n\n')
    .filter((block) => block.includes('event:'))
    .map((block) => {
      const field = (name: string): string => (new RegExp(`^${name}: (.*)$`, 'm').exec(block) ?? [])[1] ?? '';
      return { event: field('event'), id: field('id'), data: JSON.parse(field('data')) };
    });
}

describe('rollout jobs', () => {
  it('refuses a job that costs more than ANALYSIS_JOB_MAX_COST, queueing nothing', async () => {
    const small = await testApp({ services: buildServices({ jobs: { maxCost: 10_000, work: false } }) });
    const res = await request(small.app).post('/v1/rollouts').send({ ...JOB, truncateAfter: undefined, trials: 100_000 });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'ANALYSIS_TOO_COSTLY', limit: 10_000 });
    expect(await small.services.jobQueue.get(res.body.error.id ?? 'none')).toBeNull();
    await small.close();
  });

  it('refuses a caller without an API key a job costing more than ANALYSIS_JOB_ANONYMOUS_MAX_COST; a keyed caller may queue it', async () => {
    // Given the default limits and one API key, with no worker taking jobs
    const key = 'lab-secret';
    const limited = await testApp({
      services: buildServices({ jobs: { work: false } }),
      apiKeys: [{ name: 'lab', sha256: createHash('sha256').update(key).digest('hex'), budget: null }],
    });
    const hour = { ...JOB, truncateAfter: undefined, trials: 1_296_000, timeBudgetMs: 3_600_000 };
    // When a caller without a key asks for an hour of rollout
    const anonymous = await request(limited.app).post('/v1/rollouts').send(hour);
    // Then it is refused with the estimate and the anonymous limit, and nothing is queued
    expect(anonymous.status).toBe(422);
    expect(anonymous.body.error).toMatchObject({ code: 'ANALYSIS_TOO_COSTLY', limit: 5_000_000 });
    expect(anonymous.body.error.estimate).toBeGreaterThan(5_000_000);
    expect(anonymous.body.error.message).toContain('ANALYSIS_JOB_ANONYMOUS_MAX_COST');
    expect(await limited.services.jobQueue.counts()).toEqual({ waiting: 0, running: 0 });
    // The same over GraphQL
    const graphql = await request(limited.app)
      .post('/graphql')
      .send({ query: 'mutation($input: RolloutJobInput!) { submitRollout(input: $input) { id } }', variables: { input: hour } });
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'ANALYSIS_TOO_COSTLY', limit: 5_000_000 });
    // A small job of the same caller is queued
    expect((await request(limited.app).post('/v1/rollouts').send(JOB)).status).toBe(202);
    // And a caller with a key is held only to ANALYSIS_JOB_MAX_COST
    const keyed = await request(limited.app).post('/v1/rollouts').set('X-API-Key', key).send(hour);
    expect(keyed.status).toBe(202);
    expect(await limited.services.jobQueue.counts()).toEqual({ waiting: 2, running: 0 });
    await limited.close();
  });

  it("queues a client's second job behind another client's first: clients are told apart by API key or address", async () => {
    // Given a keyed client's two jobs and then an anonymous client's one, queued before any worker runs
    const key = 'lab-secret';
    const queued = await testApp({
      services: buildServices({ jobs: { work: false } }),
      apiKeys: [{ name: 'lab', sha256: createHash('sha256').update(key).digest('hex'), budget: null }],
    });
    const keyedFirst = await request(queued.app).post('/v1/rollouts').set('X-API-Key', key).send({ ...JOB, seed: 101 });
    const keyedSecond = await request(queued.app).post('/v1/rollouts').set('X-API-Key', key).send({ ...JOB, seed: 102 });
    const anonymous = await request(queued.app).post('/v1/rollouts').send({ ...JOB, seed: 103 });
    expect([keyedFirst.status, keyedSecond.status, anonymous.status]).toEqual([202, 202, 202]);
    // When a worker takes them one at a time
    const order: number[] = [];
    queued.services.jobQueue.work(async (job) => {
      order.push((job.payload as { request: { seed: number } }).request.seed);
      return null;
    }, 1);
    for (let i = 0; i < 200 && order.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    // Then the anonymous client's job runs before the keyed client's second
    expect(order).toEqual([101, 103, 102]);
    await queued.close();
  });

  it('runs a job to the end, streaming its progress, and answers the merged rollout', async () => {
    const submitted = await request(app.app).post('/v1/rollouts').send(JOB);
    expect(submitted.status).toBe(202);
    const id = submitted.body.id as string;
    expect(submitted.headers.location).toBe(`/v1/rollouts/${id}`);
    expect(submitted.body).toMatchObject({ kind: 'rollout', progress: { total: 720 } });
    const stream = await events(`/v1/rollouts/${id}/events`);
    const last = stream[stream.length - 1];
    expect(last.event).toBe('done');
    expect(stream.slice(0, -1).every((e) => e.event === 'progress')).toBe(true);
    expect(stream.map((e) => Number(e.id))).toEqual(stream.map((_, i) => i + 1));
    const job = await request(app.app).get(`/v1/rollouts/${id}`);
    expect(job.status).toBe(200);
    expect(job.body.status).toBe('done');
    expect(job.body.result.estimate.trials).toBe(720);
    expect(job.body.result.settings).toMatchObject({ trials: 720, seed: 5 });
    // The same request is the same job.
    const again = await request(app.app).post('/v1/rollouts').send(JOB);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(id);
  });

  it('fails a strict job whose time budget runs out before its trials (ANALYSIS_TIMEOUT)', async () => {
    const submitted = await request(app.app).post('/v1/rollouts').send({ ...JOB, trials: 1_296_000, timeBudgetMs: 1000, seed: 13, strict: true });
    expect(submitted.status).toBe(202);
    const stream = await events(`/v1/rollouts/${submitted.body.id}/events`);
    const last = stream[stream.length - 1];
    expect(last.event).toBe('failed');
    expect((last.data as unknown as { error: { code: string } }).error.code).toBe('ANALYSIS_TIMEOUT');
  });

  it('cancels a running job', async () => {
    const submitted = await request(app.app).post('/v1/rollouts').send({ ...JOB, trials: 1_296_000, seed: 6 });
    const id = submitted.body.id as string;
    const cancelled = await request(app.app).delete(`/v1/rollouts/${id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const stream = await events(`/v1/rollouts/${id}/events`);
    expect(stream[stream.length - 1].event).toBe('cancelled');
  });

  it('answers bad requests and unknown jobs with their codes', async () => {
    const bad = await request(app.app).post('/v1/rollouts').send({ ...JOB, trials: 0 });
    expect(bad.status).toBe(400);
    const unknown = await request(app.app).post('/v1/rollouts').send({ ...JOB, plies: 2 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'plies' });
    const missing = await request(app.app).get('/v1/rollouts/ro_000000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('JOB_NOT_FOUND');
    expect((await request(app.app).get('/v1/rollouts/ro_000000000000000000000000/events')).status).toBe(404);
    expect((await request(app.app).delete('/v1/rollouts/ro_000000000000000000000000')).status).toBe(404);
  });

  it('works the same over GraphQL: submit, read, cancel', async () => {
    const submit = await request(app.app)
      .post('/graphql')
      .send({ query: 'mutation($input: RolloutJobInput!) { submitRollout(input: $input) { id kind status progress { total } } }', variables: { input: { ...JOB, seed: 8 } } });
    expect(submit.status).toBe(200);
    const job = submit.body.data.submitRollout;
    expect(job).toMatchObject({ kind: 'rollout', progress: { total: 720 } });
    let status = job.status as string;
    for (let i = 0; i < 500 && status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const read = await request(app.app).post('/graphql').send({ query: `{ job(id: "${job.id}") { status result } }` });
      status = read.body.data.job.status;
      if (status === 'done') expect(read.body.data.job.result.estimate.trials).toBe(720);
    }
    expect(status).toBe('done');
    const cancel = await request(app.app).post('/graphql').send({ query: `mutation { cancelJob(id: "${job.id}") { status } }` });
    expect(cancel.body.data.cancelJob.status).toBe('done');
    const missing = await request(app.app).post('/graphql').send({ query: '{ job(id: "ro_0") { status } }' });
    expect(missing.body.errors[0].extensions.code).toBe('JOB_NOT_FOUND');
  });

  it('streams a job over the jobProgress subscription (graphql-ws) to its end', async () => {
    const server = createServer(app.app);
    attachSubscriptions(server, app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const submitted = await request(app.app).post('/v1/rollouts').send({ ...JOB, seed: 12 });
    const client = createClient({ url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const seen: { status: string; progress: { done: number } }[] = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe<{ jobProgress: (typeof seen)[number] }>(
        { query: 'subscription($id: ID!) { jobProgress(id: $id) { status progress { done } } }', variables: { id: submitted.body.id } },
        {
          next: (message) => (message.errors ? reject(new Error(JSON.stringify(message.errors))) : seen.push(message.data!.jobProgress)),
          error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
          complete: resolve,
        },
      );
    });
    await client.dispose();
    await new Promise((resolve) => server.close(resolve));
    expect(seen[seen.length - 1]).toEqual({ status: 'done', progress: { done: 720 } });
    const dones = seen.map((v) => v.progress.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
  });
});
