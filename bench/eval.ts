import { readFileSync } from 'fs';
import { join } from 'path';
import { gunzipSync } from 'zlib';
import { Dice } from '../src/engine/dice';
import { needsDice, newLongGame, winnerOf } from '../src/engine/long/game';
import { LONG_PRESETS } from '../src/engine/long/rules';
import { LongState, legalLongTurns } from '../src/engine/long/turn';
import { SeededRandom } from '../src/engine/random';
import { initialShortPosition } from '../src/engine/short/position';
import { BearoffRuleSet } from '../src/eval/bearoff/build';
import { BearoffDatabase, loadBearoffDatabase } from '../src/eval/bearoff/database';
import { createLongEvaluator } from '../src/eval/long/evaluator';
import { LongSearch } from '../src/eval/long/search';
import { searchSettings } from '../src/eval/search-options';
import { createShortEvaluator } from '../src/eval/short/evaluator';
import { ShortSearch } from '../src/eval/short/search';

/**
 * Evaluation benchmarks (docs/benchmarks.md): static evaluations per
 * second and best-turn latency at 0, 1 and 2 plies for both families, on
 * positions from seeded self-play games of our own 0-ply bot.
 *
 *   npx tsx bench/eval.ts            (or compiled with tsconfig.bench.json)
 *
 * Benchmarks measure; they never pass or fail.
 */
const DATA = join(__dirname, '..', '..', 'data');

function database(ruleSet: BearoffRuleSet): BearoffDatabase {
  const file = ruleSet === 'standard' ? 'bearoff-standard.bin.gz' : 'bearoff-exact-only.bin.gz';
  for (const dir of [DATA, join(__dirname, '..', 'data')]) {
    try {
      const loaded = loadBearoffDatabase(gunzipSync(readFileSync(join(dir, file))));
      if (loaded.ok) return loaded.value;
    } catch {
      // try the next place (tsx runs from bench/, the compiled bench from dist-bench/bench/)
    }
  }
  throw new Error(`${file} not found under data/`);
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** Latencies in ms of `f` over the corpus; prints median and p90. */
function latency<T>(label: string, corpus: readonly T[], f: (item: T) => void): void {
  for (const item of corpus.slice(0, 5)) f(item); // warm-up
  const times: number[] = [];
  for (const item of corpus) {
    const t0 = process.hrtime.bigint();
    f(item);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(34)}: median ${fmt(quantile(times, 0.5), 3)} ms, p90 ${fmt(quantile(times, 0.9), 3)} ms, max ${fmt(times[times.length - 1], 1)} ms (${corpus.length} positions)`);
}

function evaluationsPerSecond(label: string, boards: readonly Int8Array[], evaluate: (b: Int8Array, out: Float64Array) => void): void {
  const out = new Float64Array(5);
  for (const b of boards) evaluate(b, out);
  let n = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < 1.5e9) {
    for (const b of boards) evaluate(b, out);
    n += boards.length;
    elapsed = Number(process.hrtime.bigint() - t0);
  }
  console.log(`${label.padEnd(34)}: ${fmt(n / (elapsed / 1e9))} evaluations/s (${boards.length} positions)`);
}

function shortCorpus(count: number, seed: number): { board: Int8Array; dice: Dice }[] {
  const evaluator = createShortEvaluator({ database: () => database('standard') });
  const search = new ShortSearch(evaluator);
  const random = new SeededRandom(seed);
  const out: { board: Int8Array; dice: Dice }[] = [];
  let board = initialShortPosition().board;
  while (out.length < count) {
    const dice = random.dice();
    out.push({ board, dice });
    const best = search.rankTurns(board, dice, searchSettings(0))[0];
    if (best.board[0] === 15) board = initialShortPosition().board;
    else {
      const next = new Int8Array(28);
      for (let p = 1; p <= 24; p++) next[25 - p] = -best.board[p];
      next[0] = best.board[27];
      next[27] = best.board[0];
      next[25] = best.board[26];
      next[26] = best.board[25];
      board = next;
    }
  }
  return out;
}

function longCorpus(count: number, seed: number): { state: LongState; dice: Dice }[] {
  const rules = LONG_PRESETS.long;
  const search = new LongSearch(rules, createLongEvaluator({ rules, database: () => database('standard') }));
  const random = new SeededRandom(seed);
  const out: { state: LongState; dice: Dice }[] = [];
  let state = newLongGame(rules, 'white');
  while (out.length < count) {
    if (winnerOf(state)) state = newLongGame(rules, 'white');
    const dice: Dice | undefined = needsDice(state) ? random.dice() : undefined;
    if (dice && state.pending.length === 0) out.push({ state, dice });
    const ranked = search.rankTurns(state, dice, searchSettings(0));
    if (!ranked.ok) throw new Error(ranked.error.message);
    state = ranked.value[0].state;
    void legalLongTurns;
  }
  return out;
}

function main(): void {
  console.log(`node ${process.version}, ${process.platform} ${process.arch}`);
  const shortEvaluator = createShortEvaluator({ database: () => database('standard') });
  const shortSearch = new ShortSearch(shortEvaluator);
  const rules = LONG_PRESETS.long;
  const longEvaluator = createLongEvaluator({ rules, database: () => database('standard') });
  const longSearch = new LongSearch(rules, longEvaluator);
  const sc = shortCorpus(600, 20261202);
  const lc = longCorpus(600, 20261202);

  console.log('\n== static evaluation (one core)');
  evaluationsPerSecond('backgammon evaluator', sc.map((x) => x.board), (b, out) => shortEvaluator.evaluateInto(b, out, 0));
  evaluationsPerSecond('long nardy evaluator', lc.map((x) => x.state.position.board), (b, out) => longEvaluator.evaluateInto(b, out, 0));

  console.log('\n== best-turn latency, in process (root filter: 8 within 0.16; inner: 2 within 0.04)');
  for (const plies of [0, 1, 2]) {
    const n = plies === 2 ? 40 : 300;
    latency(`backgammon ${plies}-ply best turn`, sc.slice(0, n), ({ board, dice }) => shortSearch.rankTurns(board, dice, searchSettings(plies)));
  }
  for (const plies of [0, 1, 2]) {
    const n = plies === 2 ? 20 : plies === 1 ? 150 : 300;
    latency(`long nardy ${plies}-ply best turn`, lc.slice(0, n), ({ state, dice }) => longSearch.rankTurns(state, dice, searchSettings(plies)));
  }
}

main();
