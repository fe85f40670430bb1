import { ChildProcess } from 'child_process';
import { randomBytes } from 'crypto';
import Redis from 'ioredis';
import { buildServices, Services } from '../../src/app';
import { BullJobQueue } from '../../src/service/jobs/bullmq';
import { JobView } from '../../src/service/jobs/types';
import { readOracleText } from '../support/oracles';
import { REDIS_TEST_URL } from '../support/redis';
import { startJobWorker } from '../support/processes';

/*
 * Jobs across processes on one Redis: this process submits a rollout job
 * and works nothing; a worker process (`src/worker.ts`, what `npm run
 * worker` runs) takes it up; killed in the middle of it (SIGKILL: no
 * goodbye), the job is not lost — a second worker process finishes it once
 * the first one's lock has lapsed.
 */

const PREFIX = `test-jobs-${randomBytes(5).toString('hex')}`;

const startWorker = (): Promise<ChildProcess> => startJobWorker(REDIS_TEST_URL, PREFIX, 2);

async function until(services: Services, id: string, accept: (view: JobView) => boolean): Promise<JobView> {
  for (let i = 0; i < 3000; i++) {
    const view = await services.jobQueue.get(id);
    if (view && accept(view)) return view;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} never got there`);
}

describe('jobs across processes', () => {
  const children: ChildProcess[] = [];
  let services: Services;
  beforeAll(() => {
    const queue = new BullJobQueue({ connect: () => new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: null }), ttlSeconds: 600, lockMs: 2000, prefix: PREFIX });
    services = buildServices({ jobs: { queue, work: false } });
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await services.jobQueue.close();
  });

  it('a worker process runs a job submitted here; killed mid-job, another worker finishes it', async () => {
    const first = await startWorker();
    children.push(first);
    const { view } = await services.jobs.submitRollout({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 2880, truncateAfter: 6, seed: 9, timeBudgetMs: 600_000 });
    const started = await until(services, view.id, (v) => v.status === 'running' && v.progress.done >= 360);
    expect(started.progress.total).toBe(2880);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const second = await startWorker();
    children.push(second);
    const done = await until(services, view.id, (v) => v.status === 'done' || v.status === 'failed');
    expect(done.status).toBe('done');
    expect((done.result as { estimate: { trials: number } }).estimate.trials).toBe(2880);
  }, 240_000);

  it('a 7-point match is analysed as a job by worker processes, with progress, surviving a killed worker', async () => {
    const first = await startWorker();
    children.push(first);
    const { view } = await services.jobs.submitMatchAnalysis({ format: 'mat', text: readOracleText('gnubg-matches/matches/m09-7pt.mat'), plies: 0 });
    expect(view.kind).toBe('match-analysis');
    const total = view.progress.total;
    expect(total).toBeGreaterThan(300);
    const seen: number[] = [];
    const stop = await services.jobQueue.watch(view.id, (v) => seen.push(v.progress.done));
    await until(services, view.id, (v) => v.status === 'running' && v.progress.done >= 20);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const second = await startWorker();
    children.push(second);
    const done = await until(services, view.id, (v) => v.status === 'done' || v.status === 'failed');
    stop();
    expect(done.status).toBe('done');
    const report = done.result as { players: Record<string, unknown>; games: { decisions: unknown[] }[] };
    expect(Object.keys(report.players).sort()).toEqual(['Deep2ply', 'Noisy02']);
    expect(report.games.length).toBe(7);
    expect(report.games.reduce((n, g) => n + g.decisions.length, 0)).toBe(total);
    expect(seen.some((done) => done > 0 && done < total)).toBe(true);
  }, 300_000);
});
