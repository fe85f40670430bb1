import { Result, err, ok } from './result';
import { RulesError, rulesError } from './errors';

/** Two dice as rolled (COM-6). Each value is 1..6. */
export type Dice = readonly [number, number];

export function isDieValue(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 6;
}

/** Checks a JSON dice value: exactly two integers in 1..6. */
export function parseDice(input: unknown): Result<Dice, RulesError> {
  if (!Array.isArray(input) || input.length !== 2) {
    return err(rulesError('INVALID_DICE', 'dice must be an array of two integers in 1..6', { field: 'dice' }));
  }
  for (let i = 0; i < 2; i++) {
    if (!isDieValue(input[i])) {
      return err(rulesError('INVALID_DICE', `dice[${i}] must be an integer in 1..6`, { field: `dice[${i}]` }));
    }
  }
  return ok([input[0] as number, input[1] as number]);
}

export function isDouble(dice: Dice): boolean {
  return dice[0] === dice[1];
}

/**
 * Die-units of a roll (COM-7): a double gives four units of its value, any
 * other roll its two values, larger first.
 */
export function unitsOfRoll(dice: Dice): number[] {
  if (dice[0] === dice[1]) return [dice[0], dice[0], dice[0], dice[0]];
  return dice[0] > dice[1] ? [dice[0], dice[1]] : [dice[1], dice[0]];
}
