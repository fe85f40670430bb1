import { Evaluator, countingEvaluator } from '../src/eval/evaluator';
import { Analyzers, EvaluatorSet } from '../src/service/analysis/evaluators';
import { neuralEvaluators } from '../src/service/analysis/data';
import { AnalysisEngine } from '../src/service/analysis/engine';
import { samples } from './positions';

/**
 * `npx tsx bench/cost-model.ts`: the measurements behind the cost model of
 * src/service/analysis/cost.ts — network evaluations made by one evaluation
 * at 1 and 2 plies, by one legal turn of a roll (move lists), and by one
 * rollout trial, averaged over positions of seeded self-play games.
 */
let evaluations = 0;

const counting = (e: Evaluator): Evaluator => countingEvaluator(e, () => evaluations++);

function countingSet(set: EvaluatorSet): EvaluatorSet {
  return { kind: set.kind, short: (r) => counting(set.short(r)), long: (r, p) => counting(set.long(r, p)) };
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

function main(): void {
  const engine = new AnalysisEngine(new Analyzers(countingSet(neuralEvaluators())), { searchBudgetMs: 600_000 });
  const control = { deadline: Infinity, aborted: () => false };
  for (const variant of ['backgammon', 'long']) {
    const list = samples(variant, Number(process.env.COST_SAMPLES ?? 40), 20261204);
    const perPly: number[][] = [[], [], []];
    const perTurn: number[] = [];
    const perTrial: number[] = [];
    const plays: number[] = [];
    const perPlay: number[] = [];
    for (const [i, s] of list.entries()) {
      for (const plies of i < Number(process.env.COST_DEEP ?? 12) ? [1, 2] : [1]) {
        evaluations = 0;
        engine.prepare('evaluate', { ...s.input, plies }).run(control);
        perPly[plies].push(evaluations);
      }
      evaluations = 0;
      const best = engine.prepare('best', { ...s.input, dice: [...s.dice], plies: 0 }).run(control) as { count: number };
      perTurn.push(evaluations / Math.max(1, best.count));
      plays.push(best.count);
      evaluations = 0;
      engine.prepare('rollout', { ...s.input, trials: 36, seed: i, timeBudgetMs: 10_000 }).run(control);
      perTrial.push(evaluations / 36);
      evaluations = 0;
      engine.prepare('rollout', { ...s.input, trials: 36, seed: i, truncateAfter: 10, timeBudgetMs: 10_000 }).run(control);
      perPlay.push((evaluations / 36 - 1) / 10);
    }
    console.log(
      `${variant}: ${list.length} positions; evaluations at 1 ply ${mean(perPly[1]).toFixed(0)}, at 2 plies ${mean(perPly[2]).toFixed(0)} (${perPly[2].length} positions); ` +
        `per legal turn at 0 ply ${mean(perTurn).toFixed(2)}; legal turns per roll ${mean(plays).toFixed(1)}; per rollout trial ${mean(perTrial).toFixed(0)}, ` +
        `per play of a trial ${mean(perPlay).toFixed(1)} (so about ${(mean(perTrial) / mean(perPlay)).toFixed(0)} plays a trial)`,
    );
  }
}

main();
