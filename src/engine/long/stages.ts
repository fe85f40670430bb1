import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { Side, isSide } from '../side';

/**
 * The turn model of SPEC §3.9: a turn is a queue of stages. A stage is
 * either still to be rolled (`units` absent: the opening roll of a turn or
 * a re-roll, TM-5) or has known units (a cascade stage, TM-2, or a debt,
 * TM-3/TM-4). Pending stages always belong to the side to move.
 */
export type StageOrigin = 'roll' | 'reroll' | 'cascade' | 'debt';

export interface PendingStage {
  readonly actor: Side;
  readonly origin: StageOrigin;
  /** The die-units to play; absent when the stage is a roll still to be made. */
  readonly units?: readonly number[];
  /** CG-4: the one extra stage after which the cascade ends. */
  readonly last?: boolean;
}

export const STAGE_ORIGINS: readonly StageOrigin[] = ['roll', 'reroll', 'cascade', 'debt'];

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses the optional `pending` list of the JSON position (TM-7). Only
 * checks shape here; whether the variant allows such stages is checked by
 * the caller, which knows the rules.
 */
export function parsePending(input: unknown, turn: Side, field = 'position.pending'): Result<PendingStage[], RulesError> {
  if (input === undefined) return ok([]);
  if (!Array.isArray(input)) return err(rulesError('INVALID_PENDING', `${field} must be an array`, { field }));
  if (input.length > 8) return err(rulesError('INVALID_PENDING', `${field} has at most 8 stages`, { field }));
  const stages: PendingStage[] = [];
  for (let i = 0; i < input.length; i++) {
    const f = `${field}[${i}]`;
    const s = input[i];
    if (!isPlainObject(s)) return err(rulesError('INVALID_PENDING', `${f} must be an object`, { field: f }));
    for (const key of Object.keys(s)) {
      if (!['actor', 'origin', 'units', 'last'].includes(key)) {
        return err(rulesError('UNKNOWN_FIELD', `unknown field ${f}.${key}`, { field: `${f}.${key}` }));
      }
    }
    if (!isSide(s.actor)) return err(rulesError('INVALID_PENDING', `${f}.actor must be "white" or "black"`, { field: `${f}.actor` }));
    if (s.actor !== turn) {
      return err(rulesError('INVALID_PENDING', `pending stages belong to the side to move (${turn})`, { field: `${f}.actor` }));
    }
    if (typeof s.origin !== 'string' || !(STAGE_ORIGINS as readonly string[]).includes(s.origin)) {
      return err(rulesError('INVALID_PENDING', `${f}.origin must be one of ${STAGE_ORIGINS.join(', ')}`, { field: `${f}.origin` }));
    }
    const origin = s.origin as StageOrigin;
    if (origin === 'roll') {
      return err(rulesError('INVALID_PENDING', 'an ordinary roll is what an empty pending list means; list only reroll, cascade or debt stages', { field: `${f}.origin` }));
    }
    if (s.last !== undefined && typeof s.last !== 'boolean') {
      return err(rulesError('INVALID_PENDING', `${f}.last must be a boolean`, { field: `${f}.last` }));
    }
    const stage: { actor: Side; origin: StageOrigin; units?: number[]; last?: boolean } = { actor: s.actor, origin };
    if (origin === 'reroll') {
      if (s.units !== undefined) {
        return err(rulesError('INVALID_PENDING', 'a reroll stage has no units until the dice are rolled', { field: `${f}.units` }));
      }
    } else {
      const u = s.units;
      if (!Array.isArray(u) || u.length < 1 || u.length > 4) {
        return err(rulesError('INVALID_PENDING', `${f}.units must list 1..4 equal die values`, { field: `${f}.units` }));
      }
      for (let k = 0; k < u.length; k++) {
        if (!Number.isInteger(u[k]) || u[k] < 1 || u[k] > 6 || u[k] !== u[0]) {
          return err(rulesError('INVALID_PENDING', `${f}.units must list 1..4 equal die values`, { field: `${f}.units[${k}]` }));
        }
      }
      stage.units = u.slice() as number[];
    }
    if (s.last === true) stage.last = true;
    stages.push(stage);
  }
  return ok(stages);
}

export function pendingJson(stages: readonly PendingStage[]): PendingStage[] {
  return stages.map((s) => {
    const out: { actor: Side; origin: StageOrigin; units?: number[]; last?: boolean } = { actor: s.actor, origin: s.origin };
    if (s.units) out.units = s.units.slice();
    if (s.last) out.last = true;
    return out;
  });
}
