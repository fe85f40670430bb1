import { CodedError, codedError } from '../errors';

/**
 * Stable error codes of scoring, the doubling cube and match play
 * (one table in the service layer maps them to statuses). Same shape as `RulesError` in ../errors.ts
 * (`{ code, message, field?, rule? }`) so the two lists can be merged there
 * later without touching a caller; no code here clashes with one there.
 *
 * Two kinds, as in ../errors.ts:
 * - input errors: the request does not describe a cube, a match, a loser…
 *   (transports answer 400);
 * - rule errors: a well-formed request that the rules forbid now, with the
 *   rule that forbids it (the service's error table answers 422, or `legal: false`).
 */
export const CUBE_INPUT_ERROR_CODES = [
  /** A cube configuration, cube state or stake is malformed or inconsistent (CUBE-1). */
  'INVALID_CUBE',
  /** A match description is malformed or inconsistent (CUBE-6, LN-MATCH-1). */
  'INVALID_MATCH',
  /** The end of the game is malformed: the sides, or loser's checkers that are no end position. */
  'INVALID_LOSER',
  /** The resignation names no level, or not a level of any scoring. */
  'INVALID_RESIGNATION',
  /** A scoring option is not one of its values (`short.scoring`). */
  'INVALID_SCORING',
] as const;

export const CUBE_RULE_ERROR_CODES = [
  /** The cube is not used in this game: option off, or Fevga / Giul (LN-SCORE-5, CUBE-7). */
  'CUBE_DISABLED',
  /** Only the owner of the cube, or anyone while it is centred, may double (CUBE-2). */
  'CUBE_NOT_OWNED',
  /** Only the side on roll may double (CUBE-2). */
  'NOT_YOUR_TURN',
  /** A double is offered only before rolling, never during the opening move (CUBE-2). */
  'NOT_BEFORE_ROLL',
  /** Nobody doubles in the Crawford game (CUBE-6). */
  'CRAWFORD_NO_DOUBLE',
  /** The next value would exceed the configured cap (CUBE-1). */
  'CUBE_CAP_REACHED',
  /** A double is already waiting for an answer (CUBE-3). */
  'OFFER_PENDING',
  /** Take, drop, beaver or raccoon without an offer to answer (CUBE-3). */
  'NO_DOUBLE_OFFERED',
  /** The answer must come from the side that was doubled (CUBE-3, CUBE-5). */
  'NOT_YOUR_DECISION',
  /** Beavers are off, it is a match, or this offer cannot be beavered (CUBE-5). */
  'BEAVER_NOT_ALLOWED',
  /** Raccoons are off, it is a match, or there is no beaver to answer (CUBE-5). */
  'RACCOON_NOT_ALLOWED',
  /** The match already has a winner (CUBE-6). */
  'MATCH_OVER',
  /** The last-roll option is not defined for cascade or re-roll variants (LN-SCORE-6). */
  'LAST_ROLL_UNDEFINED',
  /** The scoring in use has no such resignation level (e.g. koks under K0). */
  'RESIGN_LEVEL_UNAVAILABLE',
] as const;

/** Codes of malformed input (400). */
export type CubeInputErrorCode = (typeof CUBE_INPUT_ERROR_CODES)[number];
/** Codes of well-formed requests the rules forbid now (422 in the service's error table). */
export type CubeRuleErrorCode = (typeof CUBE_RULE_ERROR_CODES)[number];
/** Every code of scoring, the cube and match play. */
export type CubeErrorCode = CubeInputErrorCode | CubeRuleErrorCode;

/** Every code of this module, inputs first. */
export const CUBE_ERROR_CODES: readonly CubeErrorCode[] = [
  ...CUBE_INPUT_ERROR_CODES,
  ...CUBE_RULE_ERROR_CODES,
];

/** An error of scoring, the cube machine or match play; shape-compatible with `RulesError` (never a `stepIndex`). */
export type CubeError = CodedError<CubeErrorCode>;

/** Builds a `CubeError`, leaving out `field` / `rule` when not given (like `rulesError`). */
export function cubeError(code: CubeErrorCode, message: string, extra: { field?: string; rule?: string } = {}): CubeError {
  return codedError(code, message, extra);
}

const INPUT_SET: ReadonlySet<string> = new Set(CUBE_INPUT_ERROR_CODES);

/** Is this an input error (400) rather than a rule error? */
export function isCubeInputError(code: CubeErrorCode): code is CubeInputErrorCode {
  return INPUT_SET.has(code);
}
