import { Dice } from '../../engine/dice';
import { needsDice, newLongGame, winnerOf } from '../../engine/long/game';
import { LongRules } from '../../engine/long/rules';
import { LongState, LongTurn, legalLongTurns } from '../../engine/long/turn';
import { SeededRandom } from '../../engine/random';
import { OutcomeValues, equityAt, longOutcomeValues } from '../equity';
import { Evaluator } from '../evaluator';
import { LongSearch } from '../long/search';
import { flipInPlace } from '../probabilities';
import { isLongRace } from '../race';
import { tdTargets } from './training';

/**
 * Long-family play for training (scripts/train): 0-ply choice among the
 * legal plays of a stage, and TD(λ) self-play games.
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
  let state = newLongGame(rules as LongRules, random.below(2) === 0 ? 'white' : 'black');
  const boards: Int8Array[] = [];
  const movers: number[] = [];
  const after: number[] = [];
  let opening = true;
  let stages = 0;
  for (; stages < 5000; stages++) {
    if (winnerOf(state)) break;
    let dice: Dice | undefined;
    if (needsDice(state)) {
      dice = random.dice();
      if (opening && rules.openingRoll === 'useRollOffDice') while (dice[0] === dice[1]) dice = random.dice();
    }
    opening = false;
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
    state = turns[k].state;
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

