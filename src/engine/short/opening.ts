import { Dice, isDieValue } from '../dice';
import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { PerSide, Side } from '../side';
import { ShortRules } from './rules';

/** What a roll-off decides (SH-START-1). */
export type ShortOpening =
  /** Equal dice: roll again; `automaticDouble` — the stake doubles first (CUBE-5 `automaticDoubles`). */
  | { readonly kind: 'reroll'; readonly automaticDouble: boolean }
  /** `starter` moves first: with `dice` (the roll-off dice, his first) or, when `null`, with a roll of his own. */
  | { readonly kind: 'start'; readonly starter: Side; readonly dice: Dice | null };

/**
 * SH-START-1: who opens a game and with which dice.
 * - `useRollOffDice`: each side rolls one die, the higher plays both as his
 *   first move, so the opening move is never a double;
 * - `rerollByWinner`: the higher roller starts with a roll of his own;
 * - `fixedFirstSeat`: white starts with a roll of his own; no roll-off.
 * Equal roll-off dice are rolled again; with `automaticDoubles` (money play
 * with a cube only) the first `automaticDoubles` ties double the stake.
 * @param rollOff each side's roll-off die (ignored under `fixedFirstSeat`)
 * @param automaticDoublesSoFar ties that already doubled the stake in this game
 */
export function shortOpening(
  rules: ShortRules,
  rollOff: PerSide<number> | null,
  automaticDoublesSoFar = 0,
): Result<ShortOpening, RulesError> {
  if (rules.openingRoll === 'fixedFirstSeat') return ok({ kind: 'start', starter: 'white', dice: null });
  if (!rollOff || !isDieValue(rollOff.white) || !isDieValue(rollOff.black)) {
    return err(
      rulesError('INVALID_DICE', 'the roll-off is one die 1..6 per side', {
        field: 'rollOff',
        rule: 'SH-START-1',
      }),
    );
  }
  if (rollOff.white === rollOff.black) {
    return ok({
      kind: 'reroll',
      automaticDouble: rules.cube && automaticDoublesSoFar < rules.automaticDoubles,
    });
  }
  const starter: Side = rollOff.white > rollOff.black ? 'white' : 'black';
  if (rules.openingRoll === 'rerollByWinner') return ok({ kind: 'start', starter, dice: null });
  const dice: Dice = starter === 'white' ? [rollOff.white, rollOff.black] : [rollOff.black, rollOff.white];
  return ok({ kind: 'start', starter, dice });
}

/**
 * SH-START-2: who starts the next game of a match — the previous winner
 * (`previousWinner`, he rolls normally), or `null` for a new roll-off.
 */
export function nextShortGameStarter(rules: ShortRules, previousWinner: Side): Side | null {
  return rules.nextGameStarter === 'previousWinner' ? previousWinner : null;
}
