import { BestMovesRequest, EvaluateRequest, RolloutRequest } from '../../src/contract/requests';
import { Analyzers } from '../../src/service/analysis/evaluators';
import { neuralEvaluators } from '../../src/service/analysis/data';
import { buildServices, Services } from '../../src/app';
import { AnalysisService } from '../../src/service/analysis/service';
import { ServiceError } from '../../src/service/errors';
import { AnalysisPool } from '../../src/service/analysis/pool';
import { PoolRequest } from '../../src/service/analysis/pool-protocol';
import { planMatchAnalysis } from '../../src/service/matches/analysis';
import { readOracleText } from '../support/oracles';

/*
 * Analysis in worker threads with the committed networks: the pool answers
 * exactly what the request thread answers; a caller that goes away stops
 * its search; a full queue refuses at once with ANALYSIS_BUSY; a strict
 * request whose budget runs out gets ANALYSIS_TIMEOUT.
 */

const OPENING = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA' };
const LONG_START = { variant: 'long', positionId: 'GAAA8_fAAAg__DA' };
/** Thousands of trials in ten seconds: longer than any test waits, unless cancelled. */
const ENDLESS = { ...OPENING, trials: 5184, timeBudgetMs: 10_000, seed: 3 };

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error('expected the analysis to fail');
}

function pooled(workers: number, queueMax: number, analysisBudgetMs?: number): Services {
  return buildServices({ analysisPool: { workers, queueMax, evaluator: 'neural' }, analysisInlineCost: 0, analysisBudgetMs });
}

describe('the analysis worker pool', () => {
  const inline = new AnalysisService(new Analyzers(neuralEvaluators()), undefined, { searchBudgetMs: 60_000 });
  let pool: Services;
  beforeAll(() => {
    pool = pooled(2, 8, 60_000);
  });
  afterAll(() => pool.analysis.close());

  it('answers as the request thread does: evaluation, ranked plays, rollout and batch', async () => {
    const evaluate: EvaluateRequest = { ...OPENING, plies: 1, cube: { value: 1, owner: 'center' } };
    expect((await pool.analysis.evaluate(evaluate)).value).toEqual((await inline.evaluate(evaluate)).value);
    const best = { ...LONG_START, position: undefined, positionId: 'GAAA8_fAAAg__DA', dice: [3, 1], plies: 1 };
    expect((await pool.analysis.bestMoves(best)).value).toEqual((await inline.bestMoves(best)).value);
    const rollout = { ...OPENING, dice: [4, 2], trials: 8, truncateAfter: 6, seed: 11, timeBudgetMs: 10_000 };
    expect(await pool.analysis.rollout(rollout)).toEqual(await inline.rollout(rollout));
    const batch = { positions: [{ ...LONG_START, plies: 1 }, { ...OPENING, plies: 3 }, OPENING] };
    expect(await pool.analysis.evaluateBatch(batch)).toEqual(await inline.evaluateBatch(batch));
    expect(pool.analysis.stats()).toEqual({ workers: 2, busy: 0, queued: 0 });
  });

  it('splits a whole-position rollout over the idle workers and merges it to exactly the one-thread answer (both families)', async () => {
    const run = jest.spyOn(AnalysisPool.prototype, 'run');
    try {
      for (const input of [
        { ...OPENING, trials: 180, truncateAfter: 7, seed: 17, timeBudgetMs: 10_000 },
        { ...LONG_START, trials: 144, truncateAfter: 10, settleRaces: true, seed: 23, timeBudgetMs: 10_000 },
        // Games to the end: ranges long enough that slices (250 ms) may hand trials back to the list.
        { ...OPENING, trials: 216, seed: 31, timeBudgetMs: 10_000 },
      ]) {
        run.mockClear();
        const split = await pool.analysis.rollout(input);
        const ranges = run.mock.calls.map(([task]) => task as PoolRequest).filter((task) => task.op === 'rollout-range');
        expect(ranges.length).toBeGreaterThan(2);
        expect(ranges.every((task) => task.op === 'rollout-range' && (task.input as { seed: number }).seed === input.seed)).toBe(true);
        expect(split.estimate!.trials).toBe(input.trials);
        expect(split.estimate!.stoppedBy).toBe('trials');
        expect(split).toEqual(await inline.rollout(input));
      }
      // Without a seed, the one drawn is reported and the answer is the one-thread rollout of that seed.
      const drawn = await pool.analysis.rollout({ ...OPENING, trials: 108, truncateAfter: 5 });
      expect(drawn).toEqual(await inline.rollout({ ...OPENING, trials: 108, truncateAfter: 5, seed: drawn.settings.seed }));
    } finally {
      run.mockRestore();
    }
    expect(pool.analysis.stats()).toEqual({ workers: 2, busy: 0, queued: 0 });
  });

  it('answers a split rollout cut by its budget with the serial rollout of its first trials', async () => {
    const input = { ...OPENING, trials: 5184, timeBudgetMs: 300, seed: 29 };
    const cut = await pool.analysis.rollout(input);
    const estimate = cut.estimate!;
    expect(estimate.stoppedBy).toBe('time');
    expect(estimate.trials).toBeGreaterThan(0);
    expect(estimate.trials).toBeLessThan(5184);
    const serial = await inline.rollout({ ...input, trials: estimate.trials, timeBudgetMs: 10_000 });
    expect(cut.estimate).toEqual({ ...serial.estimate, stoppedBy: 'time' });
  });

  it('serves a request that arrives during a split rollout before the rollout ends', async () => {
    const controller = new AbortController();
    let rolloutDone = false;
    const rollout = pool.analysis.rollout(ENDLESS, { client: 'test', signal: controller.signal }).finally(() => {
      rolloutDone = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.analysis.stats().busy).toBe(2);
    // Both workers hold ranges of the rollout; the newcomer waits for one range only.
    const answer = await pool.analysis.bestMoves({ ...OPENING, dice: [3, 1], plies: 1 });
    expect(answer.value!.turns.length).toBeGreaterThan(0);
    expect(rolloutDone).toBe(false);
    controller.abort();
    expect((await rejection(rollout)).body.code).toBe('ANALYSIS_CANCELLED');
    expect(pool.analysis.stats().busy).toBe(0);
  });

  it('stops a rollout and a 2-ply search whose caller went away', async () => {
    for (const [run, input] of [
      [pool.analysis.rollout.bind(pool.analysis), ENDLESS],
      [pool.analysis.bestMoves.bind(pool.analysis), { ...OPENING, positionId: '4HPwATDgc/ABMA', dice: [6, 4], plies: 2, limit: 1 }],
    ] as const) {
      const controller = new AbortController();
      const answer = run(input as RolloutRequest & BestMovesRequest, { client: 'test', signal: controller.signal });
      // Soon after it reaches a worker: the opening's 2-ply search takes only about 45 ms now.
      setTimeout(() => controller.abort(), 5);
      const error = await rejection(answer);
      expect(error.body.code).toBe('ANALYSIS_CANCELLED');
    }
    expect(pool.analysis.stats().busy).toBe(0);
  });
});

describe('backpressure and strict answers', () => {
  it('refuses past the queue bound with ANALYSIS_BUSY and a Retry-After, running nothing more', async () => {
    const services = pooled(1, 1);
    const controller = new AbortController();
    const caller = { client: 'test', signal: controller.signal };
    const running = services.analysis.rollout(ENDLESS, caller);
    const waiting = services.analysis.rollout({ ...ENDLESS, seed: 4 }, caller);
    const busy = await rejection(services.analysis.rollout({ ...ENDLESS, seed: 5 }, caller));
    expect(busy.body).toMatchObject({ code: 'ANALYSIS_BUSY' });
    expect(busy.body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(services.analysis.stats()).toEqual({ workers: 1, busy: 1, queued: 1 });
    controller.abort();
    expect((await rejection(running)).body.code).toBe('ANALYSIS_CANCELLED');
    expect((await rejection(waiting)).body.code).toBe('ANALYSIS_CANCELLED');
    await services.analysis.close();
  });

  it('answers ANALYSIS_TIMEOUT to a strict request whose budget ran out, a shallower answer otherwise', async () => {
    const services = pooled(1, 4, 10);
    const deep = { ...OPENING, dice: [6, 4], plies: 2 };
    const shallow = (await services.analysis.bestMoves(deep)).value!;
    expect(shallow.evaluator.requestedPlies).toBe(2);
    expect(shallow.evaluator.plies).toBeLessThan(2);
    const strict = await rejection(services.analysis.bestMoves({ ...deep, strict: true }));
    expect(strict.body).toMatchObject({ code: 'ANALYSIS_TIMEOUT', field: 'strict' });
    const rollout = await rejection(services.analysis.rollout({ ...ENDLESS, timeBudgetMs: 20, strict: true }));
    expect(rollout.body.code).toBe('ANALYSIS_TIMEOUT');
    await services.analysis.close();
  });
});

describe('match-analysis submissions', () => {
  /** gnubg's analysed 7-point match, 569 kB of SGF: reading and replaying it took 0.26–0.66 s on the request thread. */
  const BIG = readOracleText('gnubg-matches/matches/m09-7pt.analysed.sgf');
  const MAT = readOracleText('gnubg-matches/matches/m02-1pt.mat');

  it('read, replay and price the file in a worker: the event loop keeps ticking, and the plan is the one the request thread makes', async () => {
    const services = buildServices({ analysisPool: { workers: 1, queueMax: 4, evaluator: 'neural' }, jobs: { work: false } });
    const inline = new AnalysisService(new Analyzers(neuralEvaluators()));
    const run = jest.spyOn(AnalysisPool.prototype, 'run');
    try {
      // A small file first: the worker has started and this thread's modules are loaded (Jest transforms them on first use).
      await services.jobs.submitMatchAnalysis({ format: 'mat', text: MAT, plies: 0 });
      run.mockClear();
      let last = performance.now();
      let longest = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 1);
      const { view, created } = await services.jobs.submitMatchAnalysis({ format: 'sgf', text: BIG, plies: 1 }, { client: 'test', keyed: true });
      // One tick after the answer: a loop held from the call to its answer shows as that tick's gap (without it, a call that
      // never yields would end before the first tick and leave the longest gap at 0).
      await new Promise((resolve) => setTimeout(resolve, 20));
      clearInterval(ticker);
      console.log(`longest event-loop gap while a 569 kB file was submitted: ${longest.toFixed(0)} ms`);
      // Generous: the old in-thread planning held the loop for the whole replay (0.26–0.66 s on an idle two-core machine).
      expect(longest).toBeLessThan(200);
      const tasks = run.mock.calls.map(([task]) => task.op);
      expect(tasks).toEqual(['plan-match']);
      const expected = planMatchAnalysis({ format: 'sgf', text: BIG }, { plies: 1 }, inline);
      expect(await run.mock.results[0].value).toEqual({ cost: expected.cost, decisions: expected.decisions });
      expect(created).toBe(true);
      expect(view.progress.total).toBe(expected.decisions);
      // The same file again is the standing job, answered without another plan.
      expect((await services.jobs.submitMatchAnalysis({ format: 'sgf', text: BIG, plies: 1 }, { client: 'test', keyed: true })).created).toBe(false);
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      run.mockRestore();
      await services.analysis.close();
    }
  });

  it('refuse a bad file from the worker with the code, message and status the request thread gives', async () => {
    const services = buildServices({ analysisPool: { workers: 1, queueMax: 4, evaluator: 'neural' }, jobs: { work: false } });
    const inline = buildServices({ jobs: { work: false } });
    try {
      const broken = { format: 'mat' as const, text: MAT.replace(/ 1\) (\d\d): [^\s]+/, ' 1) $1: 24/1') };
      const pooledError = await rejection(services.jobs.submitMatchAnalysis(broken));
      const inlineError = await rejection(inline.jobs.submitMatchAnalysis(broken));
      expect(pooledError.body.code).toBe('INVALID_MATCH_FILE');
      expect(pooledError.body.message).toMatch(/game 1, move 1/);
      expect(pooledError.body).toEqual(inlineError.body);
      expect(pooledError.status).toBe(inlineError.status);
    } finally {
      await services.analysis.close();
    }
  });
});
