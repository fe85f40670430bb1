import { RulesError, rulesError } from './errors';

/**
 * The errors of the maximum rules, shared by both families' validators:
 * a play that leaves playable units unused (MAX-1, MAX-4), or plays the
 * smaller die when only one can be played and the larger one can (MAX-2).
 * `what` names the dice being played ('stage' in long nardy, 'roll' in short).
 */
export function unusedUnitsError(isPair: boolean, maxUnits: number, stepIndex: number, what: 'stage' | 'roll'): RulesError {
  if (isPair && maxUnits === 2) {
    return rulesError('MUST_USE_BOTH_DICE', 'both dice can be played, so both must be (MAX-1, MAX-4)', { stepIndex, rule: 'MAX-1' });
  }
  return rulesError('MUST_PLAY_MAXIMUM', `${maxUnits} units of this ${what} can be played, so they must be`, { stepIndex, rule: 'MAX-1' });
}

/** MAX-2: only one die can be played and the larger one can. */
export function largerDieError(stepIndex: number): RulesError {
  return rulesError('MUST_USE_LARGER_DIE', 'only one die can be played and the larger one can, so it must be', { stepIndex, rule: 'MAX-2' });
}
