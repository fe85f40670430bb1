import { Result, err, ok } from '../result';
import { CubeError, cubeError } from './cube-errors';

/**
 * The loser's checkers at the moment a game ends, in the **loser's own
 * numbering** (COM-2): his home is 1..6, and the winner's home is his 19..24
 * in short nardy (GEO-S1). Family-neutral: long nardy gives it from
 * `seatCheckers(position, loser)` with `bar: 0`; short nardy from its own
 * board. Every scoring rule of SPEC §2.8, §3.5, §3.6, §5.5 and §5.6 reads only
 * these three things.
 */
export interface LoserCheckers {
  /** Checkers borne off, 0..14 (15 only after a last roll, LN-SCORE-6). */
  readonly off: number;
  /** Checkers per own point; index 1..24, index 0 unused and 0; length 25. */
  readonly points: ArrayLike<number>;
  /** Checkers on the bar (short nardy only; always 0 in the long family). */
  readonly bar: number;
}

/** Which family's board the loser stands on: the long family has no bar (LN-MOVE-2). */
export type ScoringFamily = 'long' | 'short';

/** Checkers per side in every game of the nardy family (COM-3). */
export const CHECKERS_PER_SIDE = 15;

/**
 * Builds a loser description from own-numbered counts, e.g.
 * `loserCheckers({ 1: 2 }, { off: 13 })`. Trusted input (tests, transports
 * that already validated); the scoring functions check it again.
 */
export function loserCheckers(
  points: Readonly<Record<number, number>>,
  extra: { off?: number; bar?: number } = {},
): LoserCheckers {
  const counts = new Int8Array(25);
  for (const [key, value] of Object.entries(points)) counts[Number(key)] = value;
  return { points: counts, off: extra.off ?? 0, bar: extra.bar ?? 0 };
}

/** Checkers on own points `from..to` (inclusive). */
export function checkersOn(loser: LoserCheckers, from: number, to: number): number {
  let n = 0;
  for (let p = from; p <= to; p++) n += loser.points[p];
  return n;
}

function isCount(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= CHECKERS_PER_SIDE;
}

/**
 * Checks a loser description: 15 checkers in all, counts that are integers,
 * no bar in the long family, and not all 15 off (a loser has not finished;
 * `allowAllOff` admits 15 for the outcome of a last roll, LN-SCORE-6).
 */
export function checkLoser(
  loser: LoserCheckers,
  family: ScoringFamily,
  options: { allowAllOff?: boolean; field?: string } = {},
): Result<LoserCheckers, CubeError> {
  const field = options.field ?? 'loser';
  const fail = (message: string, f = field) => err(cubeError('INVALID_LOSER', message, { field: f }));
  if (typeof loser !== 'object' || loser === null) return fail(`${field} must be an object`);
  const { points } = loser;
  if (typeof points !== 'object' || points === null || points.length !== 25) {
    return fail('points must be indexed by own point 1..24 (length 25, index 0 unused)', `${field}.points`);
  }
  if (points[0] !== 0) return fail('points[0] must be 0; borne-off checkers go in off', `${field}.points`);
  let total = 0;
  for (let p = 1; p <= 24; p++) {
    if (!isCount(points[p])) return fail('a point count must be an integer 0..15', `${field}.points.${p}`);
    total += points[p];
  }
  if (!isCount(loser.off)) return fail('off must be an integer 0..15', `${field}.off`);
  if (!isCount(loser.bar)) return fail('bar must be an integer 0..15', `${field}.bar`);
  if (family === 'long' && loser.bar !== 0) {
    return fail('the long family has no bar: nothing is ever hit (LN-MOVE-2)', `${field}.bar`);
  }
  total += loser.off + loser.bar;
  if (total !== CHECKERS_PER_SIDE) {
    return fail(`the loser has ${total} checkers (points + bar + off); each side has exactly 15`);
  }
  if (loser.off === CHECKERS_PER_SIDE && !options.allowAllOff) {
    return fail('the loser cannot have borne off all 15 checkers (LN-END-1)', `${field}.off`);
  }
  return ok(loser);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON `{ points: { "<own point>": n }, off?, bar? }` → a checked loser
 * description, or what is wrong with it. Point keys are the loser's own numbers 1..24.
 */
export function parseLoserCheckers(
  input: unknown,
  family: ScoringFamily,
  field = 'loser',
): Result<LoserCheckers, CubeError> {
  if (!isPlainObject(input)) return err(cubeError('INVALID_LOSER', `${field} must be an object`, { field }));
  for (const key of Object.keys(input)) {
    if (key !== 'points' && key !== 'off' && key !== 'bar') {
      return err(cubeError('INVALID_LOSER', `unknown field ${field}.${key}`, { field: `${field}.${key}` }));
    }
  }
  if (!isPlainObject(input.points)) {
    return err(
      cubeError('INVALID_LOSER', `${field}.points must be an object keyed by own point 1..24`, {
        field: `${field}.points`,
      }),
    );
  }
  const counts = new Int8Array(25);
  for (const [key, value] of Object.entries(input.points)) {
    const f = `${field}.points.${key}`;
    if (!/^(?:[1-9]|1\d|2[0-4])$/.test(key)) {
      return err(
        cubeError('INVALID_LOSER', "point keys must be integers 1..24 in the loser's own numbering", {
          field: f,
        }),
      );
    }
    if (!isCount(value)) {
      return err(cubeError('INVALID_LOSER', 'a point count must be an integer 0..15', { field: f }));
    }
    counts[Number(key)] = value;
  }
  for (const key of ['off', 'bar'] as const) {
    const v = input[key];
    if (v !== undefined && !isCount(v)) {
      return err(cubeError('INVALID_LOSER', `${key} must be an integer 0..15`, { field: `${field}.${key}` }));
    }
  }
  const loser: LoserCheckers = {
    points: counts,
    off: (input.off as number | undefined) ?? 0,
    bar: (input.bar as number | undefined) ?? 0,
  };
  return checkLoser(loser, family, { field });
}
