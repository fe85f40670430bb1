import { bestTurnSettings } from '../src/eval/search-options';
import { ShortSearch } from '../src/eval/short/search';
import { net } from './nets';
import { pruned } from './prune';
import { loadShortCorpus } from './short-movegen';
import { cpuMs, shortBenchPositions } from './search-positions';

/**
 * The backgammon best turn at 1 ply (bench/search.ts's positions and
 * search, the service's pruning) in rounds, for a CPU profile of where a
 * search's time goes, and the first layer's rows per evaluation:
 *
 *   npx tsc -p tsconfig.bench.json && ROUNDS=8 node --cpu-prof --cpu-prof-dir=/tmp/prof dist-bench/bench/search-profile.js
 *
 * (SEARCH_PLIES=2 for 2 plies.) Benchmarks measure; they never pass or fail.
 */
const short = net('backgammon');
const corpus = loadShortCorpus();
const chosen = shortBenchPositions(corpus, short, 200);
const search = new ShortSearch(pruned(short, 'backgammon'));
const settings = bestTurnSettings('short', Number(process.env.SEARCH_PLIES ?? 1));
const rounds = Number(process.env.ROUNDS ?? 10);
for (let r = 0; r < rounds; r++) {
  const times: number[] = [];
  for (const i of chosen) times.push(cpuMs(() => search.rankTurns(corpus.boards[i], corpus.dice[i], settings)));
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b) / times.length;
  console.log(`round ${r}: median ${times[times.length >> 1].toFixed(3)} ms, mean ${mean.toFixed(3)} ms CPU (${times.length} positions)`);
}
const rows0 = short.contact.rowsApplied;
search.evaluations = 0;
for (const i of chosen) search.rankTurns(corpus.boards[i], corpus.dice[i], settings);
const rows = short.contact.rowsApplied - rows0;
console.log(`network evaluations ${search.evaluations}, first-layer rows ${rows} (${(rows / search.evaluations).toFixed(1)} an evaluation)`);
