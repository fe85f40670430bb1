import { setPriority } from 'os';
import { workerData } from 'worker_threads';
import { ServiceError } from '../errors';
import { planMatchAnalysis } from '../matches/analysis';
import { evaluatorsOf, sharedBearoffSource } from './data';
import { RunControl } from './engine';
import { Analyzers } from './evaluators';
import { MatchPlanSummary, PoolAnswer, PoolTask, WorkerSetup, isCancelled } from './pool-protocol';
import { AnalysisService } from './service';

/*
 * One analysis worker thread (pool.ts): its own engine, analyzers and
 * networks, the bear-off databases read in place from the memory the main
 * thread shares. A task is a request as the client sent it; the worker reads
 * it again (cheap beside the search) and answers the view or the error.
 */
const setup = workerData as WorkerSetup;
// On Linux a thread's nice value is its own: searches yield the cores to the request thread when both want them.
if (setup.nice > 0) {
  try {
    setPriority(setup.nice);
  } catch {
    // A platform that will not lower a thread's priority runs it at the process's.
  }
}
const evaluators = evaluatorsOf(setup.evaluator, setup.dataDir, sharedBearoffSource(setup.bearoff));
evaluators.preload?.();
// A service without pool or cache: its engine runs the searches, and it prices a match file as the request thread would.
const service = new AnalysisService(new Analyzers(evaluators), undefined, { searchBudgetMs: setup.searchBudgetMs });
const engine = service.engine;

export default function analyse(task: PoolTask): PoolAnswer {
  const startedAt = engine.clock();
  const control: RunControl = { deadline: task.deadline, aborted: () => isCancelled(task.flag) };
  try {
    if (isCancelled(task.flag)) return { ok: false, startedAt, error: { code: 'ANALYSIS_CANCELLED', message: 'the analysis was cancelled before it started' } };
    if (task.op === 'plan-match') {
      const { cost, decisions } = planMatchAnalysis(task.file, task.options, service);
      const value: MatchPlanSummary = { cost, decisions };
      return { ok: true, startedAt, value };
    }
    if (task.op === 'batch') {
      const items = task.inputs.map((input, i) => ({ index: task.indices[i], prepared: engine.prepare('evaluate', input) }));
      return { ok: true, startedAt, value: engine.runBatch(items, control) };
    }
    if (task.op === 'rollout-range') {
      const split = engine.prepare('rollout', task.input).split;
      if (!split) return { ok: false, startedAt, error: { code: 'INVALID_REQUEST', message: 'only the rollout of a whole position is played in ranges' } };
      const slice: RunControl = { ...control, deadline: Math.min(task.deadline, startedAt + task.sliceMs) };
      return { ok: true, startedAt, value: split.play({ firstTrial: task.firstTrial, trials: task.trials }, slice) };
    }
    return { ok: true, startedAt, value: engine.prepare(task.op, task.input).run(control) };
  } catch (e) {
    if (e instanceof ServiceError) return { ok: false, startedAt, error: e.body };
    throw e;
  }
}
