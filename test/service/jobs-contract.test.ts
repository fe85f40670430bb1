import Redis from 'ioredis';
import { randomBytes } from 'crypto';
import { ServiceError } from '../../src/service/errors';
import { BullJobQueue } from '../../src/service/jobs/bullmq';
import { MemoryJobQueue } from '../../src/service/jobs/memory';
import { JobProcessor, JobQueue, JobView } from '../../src/service/jobs/types';
import { REDIS_TEST_URL } from '../support/redis';

/*
 * The job queue contract, run against both queues (BullMQ on the test
 * Redis, and the in-process one): jobs run and report progress to
 * watchers, the same id is the same job, failures carry their error body,
 * a failed job is replaced on resubmission, a client's further jobs wait
 * behind other clients' first ones, and both queued and running jobs can
 * be cancelled.
 */

/** Runs of `counting` that have not returned yet. */
let active = 0;

/** A processor that counts to `total` in steps of 10 ms, fails on request, and stops when cancelled. */
const counting: JobProcessor = async (request, hooks) => {
  active++;
  try {
    const p = request.payload as { fail?: boolean; label: string };
    for (let done = 1; done <= request.total; done++) {
      if (hooks.aborted()) throw new ServiceError({ code: 'ANALYSIS_CANCELLED', message: 'cancelled' });
      await new Promise((r) => setTimeout(r, 10));
      hooks.progress({ done, total: request.total });
    }
    if (p.fail) throw new ServiceError({ code: 'INVALID_REQUEST', message: `bad ${p.label}`, field: 'text' });
    return { label: p.label, counted: request.total };
  } finally {
    active--;
  }
};

async function until(queue: JobQueue, id: string, statuses: JobView['status'][]): Promise<JobView> {
  for (let i = 0; i < 1000; i++) {
    const view = await queue.get(id);
    if (view && statuses.includes(view.status)) return view;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${id} never reached ${statuses.join('|')}`);
}

const unique = (): string => `t${randomBytes(6).toString('hex')}`;

describe.each([
  ['in process', () => new MemoryJobQueue(60)],
  ['BullMQ', () => new BullJobQueue({ connect: () => new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: null }), ttlSeconds: 60, lockMs: 5000, prefix: unique() })],
] as const)('the %s job queue', (_name, make) => {
  let queue: JobQueue;
  beforeAll(() => {
    queue = make();
    queue.work(counting, 1);
  });
  afterAll(async () => {
    // A cancelled run stops at its next step once the queue has told it; closed before that, the queue can no
    // longer tell it (BullMQ's cancel poll reads Redis), and the run would count on after the tests end.
    for (let i = 0; i < 250 && active > 0; i++) await new Promise((r) => setTimeout(r, 20));
    await queue.close();
  });

  it('runs a job, telling its watcher every step, and answers the same id with the same job', async () => {
    const id = unique();
    const seen: JobView[] = [];
    const stop = await queue.watch(id, (view) => seen.push(view));
    const { view, created } = await queue.submit(id, { kind: 'rollout', payload: { label: 'a' }, total: 5 });
    expect(created).toBe(true);
    expect(view).toMatchObject({ id, kind: 'rollout', progress: { done: 0, total: 5 } });
    const done = await until(queue, id, ['done']);
    expect(done.result).toEqual({ label: 'a', counted: 5 });
    expect(done.progress).toMatchObject({ done: 5, total: 5 });
    expect(done.finishedAt).toBeDefined();
    await new Promise((r) => setTimeout(r, 200));
    stop();
    expect(seen.some((v) => v.status === 'done')).toBe(true);
    const again = await queue.submit(id, { kind: 'rollout', payload: { label: 'a' }, total: 5 });
    expect(again.created).toBe(false);
    expect(again.view.status).toBe('done');
  });

  it('keeps a failure\'s error body, and replaces a failed job when it is submitted again', async () => {
    const id = unique();
    await queue.submit(id, { kind: 'match-analysis', payload: { label: 'b', fail: true }, total: 2 });
    const failed = await until(queue, id, ['failed']);
    expect(failed.error).toEqual({ code: 'INVALID_REQUEST', message: 'bad b', field: 'text' });
    const again = await queue.submit(id, { kind: 'match-analysis', payload: { label: 'b', fail: true }, total: 2 });
    expect(again.created).toBe(true);
    expect((await until(queue, id, ['failed'])).error?.code).toBe('INVALID_REQUEST');
  });

  it("queues a client's further jobs behind other clients' first ones", async () => {
    // Given client a's job running and two more of a's waiting
    const [a1, a2, a3, b1] = [unique(), unique(), unique(), unique()];
    await queue.submit(a1, { kind: 'rollout', payload: { label: 'a1' }, total: 20, client: 'ip:a' });
    await until(queue, a1, ['running']);
    await queue.submit(a2, { kind: 'rollout', payload: { label: 'a2' }, total: 5, client: 'ip:a' });
    await queue.submit(a3, { kind: 'rollout', payload: { label: 'a3' }, total: 5, client: 'ip:a' });
    // When client b submits its first job
    await queue.submit(b1, { kind: 'rollout', payload: { label: 'b1' }, total: 5, client: 'ip:b' });
    // Then b's job runs next, before a's waiting ones, which keep their order
    const finished = await Promise.all([a1, b1, a2, a3].map(async (id) => Date.parse((await until(queue, id, ['done'])).finishedAt!)));
    expect(finished).toEqual([...finished].sort((x, y) => x - y));
    expect(new Set(finished).size).toBe(4);
  });

  it('cancels a running job and a queued one', async () => {
    const running = unique();
    const queued = unique();
    await queue.submit(running, { kind: 'rollout', payload: { label: 'c' }, total: 500 });
    await queue.submit(queued, { kind: 'rollout', payload: { label: 'd' }, total: 5 });
    await until(queue, running, ['running']);
    expect((await queue.cancel(queued))?.status).toBe('cancelled');
    expect((await queue.cancel(running))?.status).toBe('cancelled');
    const stopped = await until(queue, running, ['cancelled']);
    expect(stopped.error?.code).toBe('ANALYSIS_CANCELLED');
    expect((await queue.get(queued))?.status).toBe('cancelled');
    expect(await queue.cancel(unique())).toBeNull();
    expect(await queue.get(unique())).toBeNull();
  });
});
