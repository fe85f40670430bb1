import { createHash } from 'crypto';
import { bestTurnSettings } from '../src/eval/search-options';
import { ShortSearch } from '../src/eval/short/search';
import { net } from './nets';
import { pruned } from './prune';
import { shortBenchPositions } from './search-positions';
import { loadShortCorpus } from './short-movegen';

/**
 * Fingerprints of the backgammon searches' answers, to show that a change
 * made for speed keeps them: SHA-256 over every ranked turn (its steps,
 * equity, plies and probabilities) of the best turn of bench/search.ts's
 * 200 positions at 0 and 1 ply and of the first 40 at 2 plies (the
 * service's pruning), and over the 0-ply evaluation of every oracle
 * position. Run it before and after the change and compare:
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/search-answers.js
 *
 * (PLIES=1 for one depth only.) Benchmarks measure; they never pass or fail.
 */
const short = net('backgammon');
const corpus = loadShortCorpus();
const chosen = shortBenchPositions(corpus, short, 200);
const search = new ShortSearch(pruned(short, 'backgammon'));
const h = createHash('sha256');
const plies = (process.env.PLIES ?? '0,1,2').split(',').map(Number);
for (const p of plies) {
  const n = p === 2 ? 40 : 200;
  const hp = createHash('sha256');
  for (const i of chosen.slice(0, n)) {
    const ranked = search.rankTurns(corpus.boards[i], corpus.dice[i], bestTurnSettings('short', p));
    const s = JSON.stringify(ranked.map((t) => [t.steps, t.equity, t.plies, t.probabilities]));
    h.update(s);
    hp.update(s);
  }
  console.log(`best turns at ${p} plies (${Math.min(n, chosen.length)} positions): ${hp.digest('hex')}`);
}
const all = createHash('sha256');
const out = new Float64Array(5);
for (let i = 0; i < corpus.boards.length; i++) {
  search.evaluatePosition(corpus.boards[i], 0, out, 0);
  all.update(new Uint8Array(out.buffer));
}
console.log(`0-ply evaluations of ${corpus.boards.length} positions: ${all.digest('hex')}`);
console.log(`best turns at every depth together: ${h.digest('hex')}`);
