import { loadavg } from 'os';
import { Dice } from '../src/engine/dice';
import { needsDice, newLongGame, winnerOf } from '../src/engine/long/game';
import { CLASSIC } from '../src/engine/long/rules';
import { LongState, legalLongTurns } from '../src/engine/long/turn';
import { SeededRandom } from '../src/engine/random';
import { Evaluator } from '../src/eval/evaluator';
import { isLongRace, isShortRace } from '../src/eval/race';
import { searchSettings } from '../src/eval/search-options';
import { ShortSearch } from '../src/eval/short/search';
import { ShortCorpus } from './short-movegen';

/** The load average (1, 5, 15 minutes), printed next to every figure. */
export function load(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

/** CPU milliseconds of `f` (this process: user + system). */
export function cpuMs(f: () => void): number {
  const t0 = process.cpuUsage();
  f();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
}

/** The value at quantile `q` of an ascending list. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * The backgammon positions of the search benchmarks (bench/search.ts,
 * bench/search-profile.ts, bench/search-answers.ts): the first `count`
 * gnubg oracle positions with contact and more than one play of their
 * roll, as indices into `corpus`.
 */
export function shortBenchPositions(corpus: ShortCorpus, evaluator: Evaluator, count: number): number[] {
  const chosen: number[] = [];
  const probe = new ShortSearch(evaluator);
  for (let i = 0; i < corpus.boards.length && chosen.length < count; i++) {
    if (isShortRace(corpus.boards[i])) continue;
    if (probe.rankTurns(corpus.boards[i], corpus.dice[i], searchSettings(0)).length > 1) chosen.push(i);
  }
  return chosen;
}

/**
 * Long nardy positions of the search benchmarks (bench/search.ts,
 * bench/root-filters.ts): `count` states of seeded random classic games,
 * contact, no stage pending, past both first turns, each with the roll
 * drawn for it, and the positions after every play of those rolls.
 */
export function longGames(count: number): { states: { state: LongState; dice: Dice }[]; plays: Int8Array[] } {
  const random = new SeededRandom(19);
  const states: { state: LongState; dice: Dice }[] = [];
  const plays: Int8Array[] = [];
  let state = newLongGame(CLASSIC, 'white');
  while (states.length < count) {
    if (winnerOf(state)) state = newLongGame(CLASSIC, 'white');
    const dice = random.dice();
    const ready = state.pending.length === 0 && !isLongRace(state.position.board) && !state.position.firstTurn[state.position.turn];
    const answer = legalLongTurns(CLASSIC, state, needsDice(state) ? dice : undefined);
    if (!answer.ok) throw new Error(answer.error.message);
    if (ready) {
      states.push({ state, dice });
      for (const t of answer.value.turns)
        if (t.state.pending.length === 0 && !winnerOf(t.state) && !isLongRace(t.state.position.board))
          plays.push(t.state.position.board);
    }
    state = random.pick(answer.value.turns).state;
  }
  return { states, plays };
}
