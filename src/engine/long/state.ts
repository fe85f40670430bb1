import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { PerSide } from '../side';
import { LongPositionJson, makeLongPositionJson, parseLongPosition } from './position';
import { LongRules } from './rules';
import { PendingStage, parsePending, pendingJson } from './stages';
import { LongState } from './turn';

/** The JSON position of the long family with the optional turn-model fields (TM-7). */
export interface LongStateJson extends LongPositionJson {
  pending?: PendingStage[];
  rollsPlayed?: PerSide<number>;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Which kinds of pending stage the rules can ever produce (TM-2…TM-5). */
export function pendingAllowed(rules: LongRules, stage: PendingStage): boolean {
  switch (stage.origin) {
    case 'roll':
      return false;
    case 'reroll':
      return rules.doubles === 'rerollIfFull';
    case 'cascade':
      return rules.doubles === 'cascade';
    case 'debt':
      return rules.doubles !== 'standard' && rules.unplayedDoubles !== 'forfeit';
  }
}

/** Checks that a parsed state fits the rules (pending stages the variant can produce). */
export function checkStateAgainstRules(rules: LongRules, state: LongState, field: string): Result<LongState, RulesError> {
  for (let i = 0; i < state.pending.length; i++) {
    const s = state.pending[i];
    if (!pendingAllowed(rules, s)) {
      return err(
        rulesError('INVALID_PENDING', `this variant never has a pending ${s.origin} stage`, {
          field: `${field}.pending[${i}]`,
        }),
      );
    }
  }
  return ok(state);
}

/**
 * JSON position (+ optional `pending`, `rollsPlayed`) → state. `pending`
 * lists the stages still owed by the side to move (TM-7); `rollsPlayed`
 * counts each player's rolls, needed only by `cascadeFromTurn` (§3.10).
 */
export function parseLongState(input: unknown, rules: LongRules, field = 'position'): Result<LongState, RulesError> {
  if (!isPlainObject(input)) return err(rulesError('INVALID_POSITION', `${field} must be an object`, { field }));
  const { pending: pendingInput, rollsPlayed: rollsInput, ...positionInput } = input;
  const position = parseLongPosition(positionInput, rules.initialPosition, field);
  if (!position.ok) return position;
  const pending = parsePending(pendingInput, position.value.turn, `${field}.pending`);
  if (!pending.ok) return pending;
  let rollsPlayed: PerSide<number> | undefined;
  if (rollsInput !== undefined) {
    const f = `${field}.rollsPlayed`;
    if (!isPlainObject(rollsInput)) return err(rulesError('INVALID_POSITION', `${f} must be an object`, { field: f }));
    for (const key of Object.keys(rollsInput)) {
      if (key !== 'white' && key !== 'black') {
        return err(rulesError('UNKNOWN_FIELD', `unknown field ${f}.${key}`, { field: `${f}.${key}` }));
      }
    }
    const w = rollsInput.white;
    const b = rollsInput.black;
    if (!Number.isInteger(w) || !Number.isInteger(b) || (w as number) < 0 || (b as number) < 0 || (w as number) > 999 || (b as number) > 999) {
      return err(rulesError('INVALID_POSITION', `${f} must give integers 0..999 for white and black`, { field: f }));
    }
    rollsPlayed = { white: w as number, black: b as number };
  }
  const state: LongState = rollsPlayed
    ? { position: position.value, pending: pending.value, rollsPlayed }
    : { position: position.value, pending: pending.value };
  return checkStateAgainstRules(rules, state, field);
}

/** State → JSON position; `pending` and `rollsPlayed` appear only when there is something to say. */
export function makeLongStateJson(state: LongState): LongStateJson {
  const json: LongStateJson = makeLongPositionJson(state.position);
  if (state.pending.length > 0) json.pending = pendingJson(state.pending);
  if (state.rollsPlayed) json.rollsPlayed = { white: state.rollsPlayed.white, black: state.rollsPlayed.black };
  return json;
}
