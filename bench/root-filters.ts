import { CLASSIC } from '../src/engine/long/rules';
import { LongSearch } from '../src/eval/long/search';
import { PRUNING_DEFAULTS } from '../src/eval/prune';
import { isShortRace } from '../src/eval/race';
import { INNER_FILTER, MoveFilter, ROOT_FILTER, STEP_FILTERS, SearchSettings, searchSettings } from '../src/eval/search-options';
import { ShortSearch } from '../src/eval/short/search';
import { net } from './nets';
import { pruned } from './prune';
import { cpuMs, load, longGames, quantile } from './search-positions';
import { loadShortCorpus } from './short-movegen';

/**
 * The root move filter of the best-turn search against a full-width root
 * (every legal turn searched at the full depth), on the positions of
 * bench/search.ts: for each filter, CPU time per best turn, how many best
 * turns differ from full width, and the equity the filtered choice gives up
 * as the full-width search values it (same depth; at 2 plies with the
 * inner filter of before, 2 within 0.04). At 2 plies also the cascade (`stepFilter`: the root candidates
 * at 1 ply first) and the inner filter of gnubg (each roll's play chosen
 * at 0 ply). Backgammon with the
 * service's reply pruning (PRUNING_DEFAULTS); long nardy full width inside.
 *
 *   npx tsx bench/root-filters.ts
 *   ROOT_POSITIONS=200 ROOT_POSITIONS_2PLY=100 npx tsx bench/root-filters.ts
 *   ROOT_SECTIONS=short2 npx tsx bench/root-filters.ts     # some of short1, long1, short2, long2
 *
 * The machine is shared: the load average is printed with the figures.
 */
interface Config {
  readonly label: string;
  readonly root: MoveFilter;
  readonly step: MoveFilter | null;
  /** The inner filter (default: INNER_FILTER). */
  readonly inner?: MoveFilter;
}

const FULL: MoveFilter = { keep: 1000, window: 1000 };
const f = (keep: number, window: number): MoveFilter => ({ keep, window });

const ONE_PLY: readonly Config[] = [
  { label: 'full width', root: FULL, step: null },
  { label: 'keep 8 within 0.16 (gnubg)', root: f(8, 0.16), step: null },
  { label: 'keep 5 within 0.12', root: f(5, 0.12), step: null },
  { label: 'keep 4 within 0.08', root: f(4, 0.08), step: null },
  { label: 'keep 3 within 0.06', root: f(3, 0.06), step: null },
  { label: 'keep 2 within 0.04', root: f(2, 0.04), step: null },
];

const WIDE_INNER: MoveFilter = f(2, 0.04);
/** Backgammon's default cascade, the one long nardy is compared with. */
const CASCADE_3: Config = { label: '8 within 0.16, 1 ply, then 3 within 0.06; inner 1 (backgammon default)', root: f(8, 0.16), step: f(3, 0.06), inner: f(1, 0) };
const TWO_PLY: readonly Config[] = [
  { label: 'full width (inner 2 within 0.04)', root: FULL, step: null, inner: WIDE_INNER },
  { label: '8 within 0.16, all at 2 plies; inner 2 within 0.04', root: f(8, 0.16), step: null, inner: WIDE_INNER },
  { label: '8 within 0.16, all at 2 plies; inner 1', root: f(8, 0.16), step: null, inner: f(1, 0) },
  { label: '8 within 0.16, 1 ply, then 6 within 0.12; inner 1', root: f(8, 0.16), step: f(6, 0.12), inner: f(1, 0) },
  { label: '8 within 0.16, 1 ply, then 5 within 0.10; inner 1', root: f(8, 0.16), step: f(5, 0.1), inner: f(1, 0) },
  { label: '8 within 0.16, 1 ply, then 4 within 0.08; inner 1', root: f(8, 0.16), step: f(4, 0.08), inner: f(1, 0) },
  CASCADE_3,
  { label: '8 within 0.16, 1 ply, then 3 within 0.06; inner 2 within 0.04', root: f(8, 0.16), step: f(3, 0.06), inner: WIDE_INNER },
  { label: '8 within 0.16, 1 ply, then 2 within 0.04; inner 1', root: f(8, 0.16), step: f(2, 0.04), inner: f(1, 0) },
];

const LONG_TWO_PLY: readonly Config[] = [
  TWO_PLY[0],
  TWO_PLY[1],
  { ...TWO_PLY[2], label: '8 within 0.16, all at 2 plies; inner 1 (long nardy default)' },
  { ...CASCADE_3, label: '8 within 0.16, 1 ply, then 3 within 0.06; inner 1' },
];

/** One ranking: the best turn's key, and every turn's equity by key. */
interface Ranking {
  readonly best: string;
  readonly equities: Map<string, number>;
}

type Ranker = (i: number, settings: SearchSettings) => Ranking;

/** Evaluations made so far: by the full network (transposition hits not counted) and by the pruning network. */
type Counter = () => { full: number; pruning: number };

function measure(family: string, count: number, plies: number, configs: readonly Config[], rank: Ranker, counter: Counter): void {
  console.log(`\n== ${family}, ${plies} ply, ${count} positions, load ${load()}`);
  const reference: Ranking[] = [];
  for (const config of configs) {
    const settings = searchSettings(plies, config.root, config.inner ?? INNER_FILTER, config.step);
    const times: number[] = [];
    let changed = 0;
    let lost = 0;
    let worst = 0;
    const before = counter();
    for (let i = 0; i < count; i++) {
      let r: Ranking | null = null;
      times.push(cpuMs(() => (r = rank(i, settings))));
      const got = r as unknown as Ranking;
      if (config.root === FULL) {
        reference.push(got);
        continue;
      }
      const ref = reference[i];
      if (got.best === ref.best) continue;
      changed++;
      const loss = (ref.equities.get(ref.best) ?? 0) - (ref.equities.get(got.best) ?? 0);
      lost += loss;
      worst = Math.max(worst, loss);
    }
    const after = counter();
    const full = (after.full - before.full) / count;
    const pruning = (after.pruning - before.pruning) / count;
    const sorted = times.sort((a, b) => a - b);
    const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
    console.log(
      `${config.label.padEnd(44)}: median ${quantile(sorted, 0.5).toFixed(2)} ms, p90 ${quantile(sorted, 0.9).toFixed(2)} ms, mean ${mean.toFixed(2)} ms CPU; ` +
        `${Math.round(full)} full + ${Math.round(pruning)} pruning evaluations; ` +
        `best turn changed ${changed} of ${count}, equity given up mean ${(lost / count).toFixed(5)} per position, max ${worst.toFixed(4)}`,
    );
  }
}

function main(): void {
  const count = Number(process.env.ROOT_POSITIONS ?? 200);
  const count2 = Number(process.env.ROOT_POSITIONS_2PLY ?? count);
  console.log(`node ${process.version}, one thread, CPU time; load average ${load()}`);
  console.log(`defaults: root ${JSON.stringify(ROOT_FILTER)}, step ${JSON.stringify(STEP_FILTERS)}, inner ${JSON.stringify(INNER_FILTER)}`);
  const corpus = loadShortCorpus();
  const shortNet = net('backgammon');
  const filter = PRUNING_DEFAULTS.short;
  const search = new ShortSearch(filter ? pruned(shortNet, 'backgammon', filter) : shortNet);
  const chosen: number[] = [];
  for (let i = 0; i < corpus.boards.length && chosen.length < Math.max(count, count2); i++) {
    if (isShortRace(corpus.boards[i])) continue;
    if (search.rankTurns(corpus.boards[i], corpus.dice[i], searchSettings(0)).length > 1) chosen.push(i);
  }
  const short: Ranker = (i, settings) => {
    const turns = search.rankTurns(corpus.boards[chosen[i]], corpus.dice[chosen[i]], settings);
    return { best: turns[0].board.join(','), equities: new Map(turns.map((t) => [t.board.join(','), t.equity])) };
  };
  const sections = (process.env.ROOT_SECTIONS ?? 'short1,long1,short2,long2').split(',');
  const shortCounter: Counter = () => ({ full: search.evaluations, pruning: search.pruner?.scored ?? 0 });
  if (sections.includes('short1')) measure('backgammon', count, 1, ONE_PLY, short, shortCounter);

  const longSet = longGames(count).states;
  const longSearch = new LongSearch(CLASSIC, net('long'));
  const long: Ranker = (i, settings) => {
    const r = longSearch.rankTurns(longSet[i].state, longSet[i].dice, settings);
    if (!r.ok) throw new Error(r.error.message);
    return { best: r.value[0].board.join(','), equities: new Map(r.value.map((t) => [t.board.join(','), t.equity])) };
  };
  if (sections.includes('long1')) measure('long nardy', count, 1, ONE_PLY, long, () => ({ full: longSearch.evaluations, pruning: 0 }));
  if (sections.includes('short2')) measure('backgammon', count2, 2, TWO_PLY, short, shortCounter);
  const longCount2 = Number(process.env.ROOT_POSITIONS_LONG_2PLY ?? Math.min(count2, 100));
  if (sections.includes('long2')) measure('long nardy', longCount2, 2, LONG_TWO_PLY, long, () => ({ full: longSearch.evaluations, pruning: 0 }));
  console.log(`\nload average after: ${load()}`);
}

main();
