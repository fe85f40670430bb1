import { Dice } from '../src/engine/dice';
import { needsDice, newLongGame, winnerOf } from '../src/engine/long/game';
import { CLASSIC } from '../src/engine/long/rules';
import { LongState, legalLongTurns } from '../src/engine/long/turn';
import { SeededRandom } from '../src/engine/random';
import { initialShortPosition } from '../src/engine/short/position';
import { SHORT_STANDARD } from '../src/engine/short/rules';
import { legalShortTurns } from '../src/engine/short/turn';
import { LongSearch } from '../src/eval/long/search';
import { net } from './nets';
import { sparseInput } from '../src/eval/neural/network';
import { rollout } from '../src/eval/neural/rollout';
import { isLongRace, isShortRace } from '../src/eval/race';
import { searchSettings } from '../src/eval/search-options';
import { ShortSearch } from '../src/eval/short/search';

/**
 * Neural evaluator benchmarks (docs/neural.md): network evaluations per
 * second on one core (encoding + forward pass, and through the evaluator),
 * best-turn latency at 0 and 1 ply, and rollout speed, on contact positions
 * of seeded random-play games.
 *
 *   npx tsx bench/neural.ts
 *
 * Benchmarks measure; they never pass or fail.
 */
function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Calls per second of `f` over the corpus, repeated for about `ms`. */
function rate<T>(label: string, corpus: readonly T[], f: (item: T) => void, ms = 1500): void {
  for (const item of corpus) f(item); // warm-up
  let calls = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < ms) {
    for (const item of corpus) f(item);
    calls += corpus.length;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  console.log(
    `${label.padEnd(44)}: ${fmt((calls / elapsed) * 1000)} /s (${fmt((elapsed * 1000) / calls, 2)} µs each)`,
  );
}

function latency<T>(label: string, corpus: readonly T[], f: (item: T) => void): void {
  for (const item of corpus.slice(0, 5)) f(item);
  const times: number[] = [];
  for (const item of corpus) {
    const t0 = process.hrtime.bigint();
    f(item);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)}: median ${fmt(quantile(times, 0.5), 3)} ms, p90 ${fmt(quantile(times, 0.9), 3)} ms (${corpus.length} positions)`,
  );
}

function shortCorpus(count: number): { board: Int8Array; dice: Dice }[] {
  const random = new SeededRandom(17);
  const out: { board: Int8Array; dice: Dice }[] = [];
  let position = initialShortPosition('white');
  while (out.length < count) {
    const dice = random.dice();
    if (!isShortRace(position.board)) out.push({ board: position.board, dice });
    const answer = legalShortTurns(SHORT_STANDARD, position, dice);
    if (!answer.ok) throw new Error(answer.error.message);
    const turn = random.pick(answer.value.turns);
    position =
      turn.gameOver || isShortRace(turn.position.board) ? initialShortPosition('white') : turn.position;
  }
  return out;
}

function longCorpus(count: number): { state: LongState; dice: Dice }[] {
  const random = new SeededRandom(19);
  const out: { state: LongState; dice: Dice }[] = [];
  let state = newLongGame(CLASSIC, 'white');
  while (out.length < count) {
    if (winnerOf(state)) state = newLongGame(CLASSIC, 'white');
    const dice = random.dice();
    if (
      state.pending.length === 0 &&
      !isLongRace(state.position.board) &&
      !state.position.firstTurn[state.position.turn]
    )
      out.push({ state, dice });
    const answer = legalLongTurns(CLASSIC, state, needsDice(state) ? dice : undefined);
    if (!answer.ok) throw new Error(answer.error.message);
    state = random.pick(answer.value.turns).state;
  }
  return out;
}

function main(): void {
  console.log(`node ${process.version}, one thread\n`);
  const short = net('backgammon');
  const long = net('long');
  const shorts = shortCorpus(400);
  const longs = longCorpus(400);
  const out = new Float64Array(5);
  for (const [label, evaluator, boards] of [
    ['backgammon', short, shorts.map((s) => s.board)],
    ['long', long, longs.map((s) => s.state.position.board)],
  ] as const) {
    const p = evaluator.contact;
    const input = sparseInput(evaluator.encoding.inputs);
    console.log(
      `${label}: ${evaluator.name} ${evaluator.version.split('+')[0]}, ${p.inputs} inputs × ${p.hidden} hidden × 5`,
    );
    rate(`  encoding only`, boards, (b) => evaluator.encoding.encode(b, input));
    rate(`  network evaluations (encode + forward)`, boards, (b) => {
      evaluator.encoding.encode(b, input);
      p.forward(input, out, 0);
    });
    rate(`  evaluator.evaluateInto (contact positions)`, boards, (b) => evaluator.evaluateInto(b, out, 0));
  }
  console.log('');
  const shortSearch = new ShortSearch(short);
  latency('backgammon best turn, 0 ply', shorts.slice(0, 200), (s) =>
    shortSearch.rankTurns(s.board, s.dice, searchSettings(0)),
  );
  latency('backgammon best turn, 1 ply', shorts.slice(0, 100), (s) =>
    shortSearch.rankTurns(s.board, s.dice, searchSettings(1)),
  );
  const longSearch = new LongSearch(CLASSIC, long);
  latency('long best turn, 0 ply', longs.slice(0, 200), (s) =>
    longSearch.rankTurns(s.state, s.dice, searchSettings(0)),
  );
  latency('long best turn, 1 ply', longs.slice(0, 60), (s) =>
    longSearch.rankTurns(s.state, s.dice, searchSettings(1)),
  );
  console.log('');
  latency('backgammon rollout, 36 trials to the end', shorts.slice(0, 10), (s) =>
    rollout({ family: 'short', board: s.board }, short, { trials: 36, seed: 1 }),
  );
  latency('long rollout, 36 trials to the end', longs.slice(0, 5), (s) =>
    rollout({ family: 'long', rules: CLASSIC, state: s.state }, long, { trials: 36, seed: 1 }),
  );
}

main();
