import { CLASSIC } from '../src/engine/long/rules';
import { LongSearch } from '../src/eval/long/search';
import { bestTurnSettings } from '../src/eval/search-options';
import { net } from './nets';
import { pruned } from './prune';
import { cpuMs, load, longGames, quantile } from './search-positions';

/**
 * Long nardy best turn at 1 and 2 plies, the service's search (full width)
 * and the same with the long pruning network (data/nets/long-prune, keep 5
 * within 0.2): CPU time per best turn, and how many best turns 2 plies
 * change against 1 ply and pruning changes at 2 plies
 * (docs/strength.md, "Long nardy: 2 plies against 1 ply").
 *
 *   BENCH_POSITIONS=60 npx tsx bench/long-depth.ts
 */
function main(): void {
  const count = Number(process.env.BENCH_POSITIONS ?? 60);
  const long = net('long');
  const wide = new LongSearch(CLASSIC, long);
  const prunedSearch = new LongSearch(CLASSIC, pruned(long, 'long'));
  const states = longGames(count).states;
  console.log(`long nardy best turn, ${states.length} positions of seeded random classic games, load ${load()}`);
  // One untimed pass at 1 ply, so that the figures are of compiled code.
  for (const s of states) wide.rankTurns(s.state, s.dice, bestTurnSettings('long', 1));
  const best: Record<string, string[]> = {};
  const run = (label: string, search: LongSearch, plies: number): void => {
    const settings = bestTurnSettings('long', plies);
    const answers: string[] = [];
    const times = states
      .map((s) =>
        cpuMs(() => {
          const ranked = search.rankTurns(s.state, s.dice, settings);
          if (!ranked.ok) throw new Error(ranked.error.message);
          answers.push(ranked.value[0].board.join(','));
        }),
      )
      .sort((x, y) => x - y);
    best[label] = answers;
    const mean = times.reduce((s, t) => s + t, 0) / times.length;
    console.log(
      `${label}: median ${quantile(times, 0.5).toFixed(2)} ms, p90 ${quantile(times, 0.9).toFixed(2)} ms, mean ${mean.toFixed(2)} ms, max ${times[times.length - 1].toFixed(1)} ms (CPU, one thread), load ${load()}`,
    );
  };
  run('1 ply, full width', wide, 1);
  run('2 plies, full width (the service)', wide, 2);
  run('2 plies, pruned', prunedSearch, 2);
  const differ = (a: string, b: string): number => best[a].filter((x, i) => x !== best[b][i]).length;
  console.log(`best turns that 2 plies change against 1 ply: ${differ('1 ply, full width', '2 plies, full width (the service)')} of ${states.length}`);
  console.log(`best turns that pruning changes at 2 plies: ${differ('2 plies, full width (the service)', '2 plies, pruned')} of ${states.length}`);
}

main();
