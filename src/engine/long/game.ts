import { Dice } from '../dice';
import { SeededRandom } from '../random';
import { Side, otherSide } from '../side';
import { CHECKERS, MOVER_OFF, OPPONENT_OFF } from './board';
import { initialLongPosition } from './position';
import { LongRules } from './rules';
import { LongStageSolver } from './stage';
import { LongState, LongTurn, legalLongTurns } from './turn';

/** A new game with `firstMover` to roll (LN-INIT-1, KH-1). */
export function newLongGame(rules: LongRules, firstMover: Side): LongState {
  const position = initialLongPosition(rules.initialPosition, firstMover);
  return rules.cascadeFromTurn > 1 ? { position, pending: [], rollsPlayed: { white: 0, black: 0 } } : { position, pending: [] };
}

/** The winner, if a side has borne off all 15 (LN-END-1). */
export function winnerOf(state: LongState): Side | null {
  const b = state.position.board;
  if (b[MOVER_OFF] === CHECKERS) return state.position.turn;
  if (b[OPPONENT_OFF] === CHECKERS) return otherSide(state.position.turn);
  return null;
}

/** Does the current stage need dice (a roll or re-roll), or are its units known (cascade, debt)? */
export function needsDice(state: LongState): boolean {
  const first = state.pending[0];
  return !first || !first.units;
}

export interface SelfPlayStep {
  readonly before: LongState;
  readonly dice: Dice | undefined;
  readonly turns: readonly LongTurn[];
  readonly chosen: LongTurn;
}

/**
 * Plays one seeded game to the end, choosing among the legal plays with
 * `choose` (uniformly at random by default) and calling `visit` after every
 * stage. Stops after `maxStages` stages (a safety bound; games end long
 * before it). Returns the winner, or null if the bound was hit.
 */
export function playLongGame(
  rules: LongRules,
  random: SeededRandom,
  visit: (step: SelfPlayStep) => void = () => undefined,
  choose: (turns: readonly LongTurn[], state: LongState) => LongTurn = (turns) => random.pick(turns),
  maxStages = 5000,
): Side | null {
  let state = newLongGame(rules, random.below(2) === 0 ? 'white' : 'black');
  let opening = true;
  const solver = new LongStageSolver();
  for (let n = 0; n < maxStages; n++) {
    const winner = winnerOf(state);
    if (winner) return winner;
    let dice: Dice | undefined;
    if (needsDice(state)) {
      dice = random.dice();
      // LN-START-2 `useRollOffDice`: the opening roll is the roll-off, never a double.
      if (opening && rules.openingRoll === 'useRollOffDice') while (dice[0] === dice[1]) dice = random.dice();
    }
    opening = false;
    const answer = legalLongTurns(rules, state, dice, {}, solver);
    if (!answer.ok) throw new Error(`self-play: ${answer.error.code} ${answer.error.message}`);
    const chosen = choose(answer.value.turns, state);
    visit({ before: state, dice, turns: answer.value.turns, chosen });
    state = chosen.state;
  }
  return null;
}
