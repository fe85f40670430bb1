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

/** One of the 21 distinct rolls with its die-units (COM-7) and its chance. */
export interface DistinctRoll {
  readonly dice: Dice;
  readonly units: readonly number[];
  /** 1/36 for a double, 2/36 for any other roll. */
  readonly weight: number;
}

/** The 21 distinct rolls: the 15 non-doubles first (2-1, 3-1, 3-2 … 6-5), then the doubles 1-1 … 6-6. */
export const DISTINCT_ROLLS: readonly DistinctRoll[] = Object.freeze(
  [
    ...[2, 3, 4, 5, 6].flatMap((a) => Array.from({ length: a - 1 }, (_, i): Dice => [a, i + 1])),
    ...[1, 2, 3, 4, 5, 6].map((a): Dice => [a, a]),
  ].map((dice) => Object.freeze({ dice, units: Object.freeze(unitsOfRoll(dice)), weight: dice[0] === dice[1] ? 1 / 36 : 2 / 36 })),
);
