import { readFileSync } from 'fs';
import { buildBearoffTables } from './src/eval/bearoff/build';
import { BearoffDatabase } from './src/eval/bearoff/database';
import { createRaceEvaluator, isShortRace } from './src/eval/race';
import { cubelessEquity } from './src/eval/equity';
const db = BearoffDatabase.fromTables(buildBearoffTables('standard'));
const ev = createRaceEvaluator({ family: 'short', database: () => db, triple: 'backgammon' });
let tot=0, n=0;
for (const line of readFileSync('/work/shared/oracles/gnubg/cases-eval.jsonl','utf8').split('\n')) {
  if (!line) continue;
  const c = JSON.parse(line);
  if (!['race','bearoff1','bearoff2'].includes(c.positionClass)) continue;
  const b = new Int8Array(28);
  c.board.points.forEach((v:number,i:number)=> b[i+1]=v);
  b[25]=c.board.bar[0]; b[26]=c.board.bar[1]; b[0]=c.board.off[0]; b[27]=c.board.off[1];
  if (!isShortRace(b)) { console.log('not race?', c.id); continue; }
  const p = ev.evaluate(b);
  const g = c.evaluations[0].probs;
  const e = cubelessEquity(p), ge = c.evaluations[0].cubelessMoneyEquity;
  tot += Math.abs(e-ge); n++;
  console.log(c.id, c.positionClass, [p.win,p.winMars,p.winKoks,p.loseMars,p.loseKoks].map(x=>x.toFixed(3)).join(' '), '|', g.map((x:number)=>x.toFixed(3)).join(' '), (e-ge).toFixed(3));
}
console.log('MAE', tot/n, n);
