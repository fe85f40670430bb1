import { LongRules } from '../../engine/long/rules';
import { LongState, LongTurn } from '../../engine/long/turn';
import { OutcomeValues, equityAt, longOutcomeValues } from '../equity';
import { Evaluator } from '../evaluator';
import { flipInPlace } from '../probabilities';

/**
 * A 0-ply choice among the legal plays of a long-family stage: the play
 * whose result the evaluator likes best under `values` (the rules' outcome
 * values unless given). Used by self-play, training bots and rollouts.
 */
export class LongChooser {
  private probs = new Float64Array(5 * 64);
  constructor(
    readonly rules: Readonly<LongRules>,
    readonly evaluator: Evaluator,
    private readonly values: OutcomeValues = longOutcomeValues(rules),
  ) {}

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
