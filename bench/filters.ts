import { loadShortCorpus } from './short-movegen';
import { net } from './nets';
import { cubelessEquity } from '../src/eval/equity';
import { isShortRace } from '../src/eval/race';
import { MoveFilter } from '../src/eval/search-options';
import { ShortSearch } from '../src/eval/short/search';

/**
 * The inner move filter of the 2-ply search measured against a full-width
 * inner search (every play of every roll searched at 1 ply): the 2-ply
 * value of backgammon positions (gnubg oracle positions with contact) under
 * several filters, the mean and largest equity difference from full width,
 * and the evaluations each costs.
 *
 *   FILTER_POSITIONS=12 npx tsx bench/filters.ts
 */
const FILTERS: readonly (readonly [string, MoveFilter])[] = [
  ['full width', { keep: 1000, window: 1000 }],
  ['keep 3 within 0.08', { keep: 3, window: 0.08 }],
  ['keep 2 within 0.04 (default)', { keep: 2, window: 0.04 }],
  ['keep 1 (gnubg: each roll played at 0 ply)', { keep: 1, window: 0 }],
];

function main(): void {
  const count = Number(process.env.FILTER_POSITIONS ?? 12);
  const search = new ShortSearch(net('backgammon'));
  const corpus = loadShortCorpus();
  const boards = corpus.boards.filter((b) => !isShortRace(b)).filter((_, i) => i % 25 === 7).slice(0, count);
  const equities = FILTERS.map(() => [] as number[]);
  const evaluations = FILTERS.map(() => 0);
  for (const board of boards) {
    FILTERS.forEach(([, filter], f) => {
      const before = search.evaluations;
      equities[f].push(cubelessEquity(search.evaluate(board, 2, filter)));
      evaluations[f] += search.evaluations - before;
    });
  }
  console.log(`2-ply position values, ${boards.length} backgammon positions`);
  FILTERS.forEach(([label], f) => {
    const diffs = equities[f].map((e, i) => Math.abs(e - equities[0][i]));
    const mean = diffs.reduce((s, d) => s + d, 0) / diffs.length;
    console.log(
      `${label.padEnd(44)}: ${Math.round(evaluations[f] / boards.length).toLocaleString('en-US')} evaluations, |Δ equity| from full width mean ${mean.toFixed(4)}, max ${Math.max(...diffs).toFixed(4)}`,
    );
  });
}

main();
