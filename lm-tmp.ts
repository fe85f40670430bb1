import { botOf, playPairedGame, presetRules, summarise, GameRecord } from './scripts/eval/long-match';
const rules = presetRules('long');
const a = botOf(process.argv[2], rules, 11), b = botOf(process.argv[3], rules, 22);
const recs: GameRecord[] = [];
const t0 = Date.now();
const n = Number(process.argv[4] ?? 100);
for (let g = 0; g < n; g++) recs.push(playPairedGame(rules, a, b, 1, g));
console.log(JSON.stringify(summarise(recs)), (Date.now()-t0)/n, 'ms/game', recs.reduce((s,r)=>s+r.stages,0)/n, 'stages');
