import { Dice } from '../../src/engine/dice';
import { LongRules } from '../../src/engine/long/rules';
import { LongState, LongTurn, legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { OutcomeValues, equityAt, longOutcomeValues } from '../../src/eval/equity';
import { Evaluator } from '../../src/eval/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { flipInPlace } from '../../src/eval/probabilities';
import { isLongRace } from '../../src/eval/race';
import { searchSettings } from '../../src/eval/search-options';
import { tdTargets } from '../../src/eval/neural/training';
import type { LongBot } from '../eval/long-match';
import { DEFAULT_NET, readLongNet } from './nets';
import { LongSelfPlay } from './self-play';

/**
 * Long-family play for training: 0-ply choice among the legal plays of a
 * stage, TD(λ) self-play games, and bots for paired matches.
 */
export class LongChooser {
  private probs = new Float64Array(5 * 64);
  private readonly values: OutcomeValues;

  constructor(
    readonly rules: Readonly<LongRules>,
    readonly evaluator: Evaluator,
  ) {
    this.values = longOutcomeValues(rules);
  }

  /**
   * Index of the best play for the side to move of `state` at 0 ply; its
   * probabilities (for that side) are left in `valueOf(k)`.
   */
  best(state: LongState, turns: readonly LongTurn[]): number {
    const n = turns.length;
    if (this.probs.length < 5 * n) this.probs = new Float64Array(10 * n);
    const mover = state.position.turn;
    let best = 0;
    let bestEquity = -Infinity;
    for (let k = 0; k < n; k++) {
      const next = turns[k].state.position;
      this.evaluator.evaluateInto(next.board, this.probs, 5 * k);
      if (next.turn !== mover) flipInPlace(this.probs, 5 * k);
      const e = equityAt(this.probs, 5 * k, this.values);
      if (e > bestEquity) {
        bestEquity = e;
        best = k;
      }
    }
    return best;
  }

  /** Probabilities (for the side that chose) of play k of the last `best`. */
  valueOf(k: number): Float64Array {
    return this.probs.subarray(5 * k, 5 * k + 5);
  }
}

/** Positions and λ-return targets of one self-play game. */
export interface TdGame {
  /** Boards before the roll (seen from the side to move), `26 × positions`. */
  readonly boards: Int8Array;
  /** λ-return targets for the side to move of each board, `5 × positions`. */
  readonly targets: Float64Array;
  readonly positions: number;
  readonly stages: number;
}

/**
 * Plays one seeded self-play game at 0 ply and returns its contact
 * positions before a roll (nothing pending) with their TD(λ) targets
 * (`tdTargets`): the value after each chosen play is the one-step
 * bootstrap, the final result closes the chain. With `lookahead`, a contact
 * position's bootstrap is instead its 1-ply value over all 21 rolls (the
 * expectation of the one-step value, without the noise of the roll that came).
 */
export function playTdGame(
  rules: Readonly<LongRules>,
  chooser: LongChooser,
  random: SeededRandom,
  lambda: number,
  epsilon = 0,
  lookahead?: LongSearch,
): TdGame {
  // The game flow is the reducer's; every long preset rolls off and lets the winner roll again (LN-START-1).
  const game = new LongSelfPlay(rules, random.below(2) === 0 ? 'white' : 'black');
  const boards: Int8Array[] = [];
  const movers: number[] = [];
  const after: number[] = [];
  let stages = 0;
  for (; stages < 5000; stages++) {
    if (game.result) break;
    const state = game.position;
    const dice: Dice | undefined = game.needsRoll ? random.dice() : undefined;
    const answer = legalLongTurns(rules as LongRules, state, dice);
    if (!answer.ok) throw new Error(`self-play: ${answer.error.code} ${answer.error.message}`);
    const turns = answer.value.turns;
    let k = chooser.best(state, turns);
    const value = chooser.valueOf(k);
    const record = state.pending.length === 0 && dice !== undefined;
    if (record) {
      boards.push(state.position.board.slice());
      movers.push(state.position.turn === 'white' ? 0 : 1);
      if (lookahead && !isLongRace(state.position.board)) {
        // The 1-ply value of the position before the roll: the mean over the 21 rolls of the value of
        // the 0-ply choice, whose sample for the roll that came is `value` (expected TD).
        const p = lookahead.evaluateState(state, 1);
        after.push(p.win, p.winMars, p.winKoks, p.loseMars, p.loseKoks);
      } else for (let i = 0; i < 5; i++) after.push(value[i]);
    }
    if (epsilon > 0 && random.next() < epsilon) k = random.below(turns.length);
    const forced = game.step(dice, turns[k]);
    // Stages the reducer played without a choice (no legal play, MAX-5) are stages of the game too;
    // exploration draws for them as for any other, so the seeded stream stays the same.
    for (let f = 0; f < forced; f++) {
      stages++;
      if (epsilon > 0 && random.next() < epsilon) random.below(1);
    }
  }
  const n = boards.length;
  const targets = tdTargets(Float64Array.from(after), Int8Array.from(movers), lambda);
  // Races belong to the race evaluator: keep contact positions only.
  const keep: number[] = [];
  for (let t = 0; t < n; t++) if (!isLongRace(boards[t])) keep.push(t);
  const outBoards = new Int8Array(26 * keep.length);
  const outTargets = new Float64Array(5 * keep.length);
  keep.forEach((t, i) => {
    outBoards.set(boards[t], 26 * i);
    outTargets.set(targets.subarray(5 * t, 5 * t + 5), 5 * i);
  });
  return { boards: outBoards, targets: outTargets, positions: keep.length, stages };
}

/** A bot for long-match.ts's paired games: an evaluator through `LongSearch.rankTurns` at `plies`. */
export function evaluatorBot(
  rules: Readonly<LongRules>,
  evaluator: Evaluator,
  plies: number,
  label: string,
): LongBot {
  // One stage per turn (doubles = standard): the 0-ply choice is exactly
  // the search's, without its second move generation.
  const chooser = plies === 0 && rules.doubles === 'standard' ? new LongChooser(rules, evaluator) : null;
  const search = new LongSearch(rules, evaluator);
  const settings = searchSettings(plies);
  return {
    name: `${label}@${plies}`,
    choose(state, dice, turns) {
      if (turns.length === 1) return 0;
      if (chooser) return chooser.best(state, turns);
      const ranked = search.rankTurns(state, dice, settings);
      if (!ranked.ok) throw new Error(ranked.error.message);
      const best = ranked.value[0].board;
      const k = turns.findIndex((t) => t.board.every((v, i) => v === best[i]));
      return k >= 0 ? k : 0;
    },
  };
}

/**
 * A committed long-family network (`data/nets/<name>`, default the service's
 * `long`) as a bot at `plies`, labelled `net` or by its name.
 */
export function longNetBot(rules: Readonly<LongRules>, plies: number, name?: string): LongBot {
  return evaluatorBot(rules, readLongNet(rules, name ?? DEFAULT_NET.long), plies, name ?? 'net');
}
