import { cubeDecision } from './src/eval/cube/decision';
import { createShortEvaluator } from './src/eval/short/evaluator';
import { readBearoffDatabase } from './scripts/eval/data';
import { readEvalCases, shortBoardOf } from './scripts/eval/gnubg-cases';
import { situationOf } from './scripts/eval/eval-error';
const ev = createShortEvaluator({ database: () => readBearoffDatabase('standard') });
for (const c of readEvalCases()) {
  if (!['bearoff1','bearoff2','race'].includes(c.positionClass)) continue;
  const p = ev.evaluate(shortBoardOf(c.board));
  const d = cubeDecision(p, situationOf(c.cube));
  const g = c.evaluations[0];
  console.log(c.id, c.positionClass, JSON.stringify(c.cube.matchLength? [c.cube.matchLength, c.cube.score, c.cube.crawford, c.cube.owner, c.cube.value] : [c.cube.owner, c.cube.value]), 'w', p.win.toFixed(3), '| ours', d.action, d.noDouble.toFixed(3), d.doubleTake.toFixed(3), '| gnubg', g.action.decision, g.cubeful.noDouble.toFixed(3), g.cubeful.doubleTake.toFixed(3));
}
