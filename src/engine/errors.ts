/**
 * Stable machine-readable error codes of the rules core.
 *
 * Two kinds:
 * - input errors: the request describes something that is not a position,
 *   not dice, not a known variant… (transports answer 400);
 * - rule errors: a well-formed play that the rules forbid, with the step at
 *   fault (validation answers `legal: false` with one of these).
 * The transports map codes to HTTP statuses / GraphQL `extensions.code` in one
 * table; a code, once published, keeps its meaning.
 */
export const INPUT_ERROR_CODES = [
  'INVALID_REQUEST',
  'UNKNOWN_FIELD',
  'UNKNOWN_VARIANT',
  'INVALID_RULES',
  'INVALID_POSITION',
  'INVALID_POSITION_ID',
  'WRONG_CHECKER_COUNT',
  'POINT_HELD_BY_BOTH',
  'INVALID_DICE',
  'INVALID_STEPS',
  'INVALID_NOTATION',
  'INVALID_PENDING',
  /** A match file (.mat, SGF) that cannot be read, or holds a move the rules forbid. */
  'INVALID_MATCH_FILE',
] as const;

/** The position cannot take the requested query (e.g. the game is over). */
export const STATE_ERROR_CODES = ['GAME_OVER', 'GAME_NOT_OVER', 'STAGE_MISMATCH'] as const;

export const RULE_ERROR_CODES = [
  /** The source point holds no checker of the mover. */
  'NO_CHECKER',
  /** No remaining die-unit equals the distance of this step. */
  'DIE_NOT_AVAILABLE',
  /** The step goes backwards or is not a single die-unit (COM-8, LN-MOVE-1). */
  'INVALID_STEP',
  /** The landing point is held by the opponent (LN-MOVE-2, SH-MOVE-1). */
  'BLOCKED_POINT',
  /** A further checker may not leave the head this turn/stage (LN-HEAD-1). */
  'HEAD_RULE',
  /** The play makes a six-point block the rules forbid (LN-BLOCK-3/4). */
  'SIX_BLOCK',
  /** Bearing off before every checker is home (LN-OFF-1). */
  'BEAR_OFF_NOT_ALL_HOME',
  /** An oversized die may only bear off from the highest point (LN-OFF-3). */
  'BEAR_OFF_HIGHER_CHECKER',
  /** Exact-only bear-off (CR-4, CG-5). */
  'BEAR_OFF_EXACT_ONLY',
  /** Moves inside home are banned (CR-4, CG-5). */
  'HOME_MOVE_FORBIDDEN',
  /** Fevga: only the first runner may move until it has passed (FV-2). */
  'FEVGA_RUNNER',
  /** Fevga: all six points of the starting quarter held (FV-3). */
  'FEVGA_STARTING_QUARTER',
  /** Fevga: every opponent checker trapped right behind a prime (FV-5). */
  'FEVGA_PRIME_TRAP',
  /** Short nardy: checkers on the bar must enter first (SH-BAR-1). */
  'MUST_ENTER_FROM_BAR',
  /** Both dice could be used (MAX-1, MAX-4). */
  'MUST_USE_BOTH_DICE',
  /** More units of the double could be played (MAX-1). */
  'MUST_PLAY_MAXIMUM',
  /** Only one die can be played and it must be the larger (MAX-2). */
  'MUST_USE_LARGER_DIE',
  /** More steps than the stage has units, or steps after the game ended. */
  'TOO_MANY_STEPS',
  /** The steps end in a position no legal play reaches (catch-all). */
  'NOT_A_LEGAL_PLAY',
] as const;

export type InputErrorCode = (typeof INPUT_ERROR_CODES)[number];
export type StateErrorCode = (typeof STATE_ERROR_CODES)[number];
export type RuleErrorCode = (typeof RULE_ERROR_CODES)[number];
export type RulesErrorCode = InputErrorCode | StateErrorCode | RuleErrorCode;

/** An error of the core with a stable code: what the transports answer, `field` / `rule` / `stepIndex` when known. */
export interface CodedError<C extends string> {
  readonly code: C;
  readonly message: string;
  /** JSON path of the offending request field, for input errors. */
  readonly field?: string;
  /** Index of the offending step, for rule errors. */
  readonly stepIndex?: number;
  /** The spec rule ID that decided, when there is one. */
  readonly rule?: string;
}

export type RulesError = CodedError<RulesErrorCode>;

/** Builds an error, leaving out `field` / `stepIndex` / `rule` when not given. */
export function codedError<C extends string>(
  code: C,
  message: string,
  extra: { field?: string; stepIndex?: number; rule?: string } = {},
): CodedError<C> {
  const e: { -readonly [K in keyof CodedError<C>]: CodedError<C>[K] } = { code, message };
  if (extra.field !== undefined) e.field = extra.field;
  if (extra.stepIndex !== undefined) e.stepIndex = extra.stepIndex;
  if (extra.rule !== undefined) e.rule = extra.rule;
  return e;
}

export function rulesError(
  code: RulesErrorCode,
  message: string,
  extra: { field?: string; stepIndex?: number; rule?: string } = {},
): RulesError {
  return codedError(code, message, extra);
}

/** A rule's error without its step: the code, the rule and the message. */
export interface FaultText {
  readonly code: RuleErrorCode;
  readonly rule: string;
  readonly message: string;
}

export function faultText(code: RuleErrorCode, rule: string, message: string): FaultText {
  return { code, rule, message };
}

/** The error of a fault at step `stepIndex`. */
export function faultError(f: FaultText, stepIndex: number): RulesError {
  return rulesError(f.code, f.message, { stepIndex, rule: f.rule });
}

const INPUT_SET: ReadonlySet<string> = new Set(INPUT_ERROR_CODES);
const STATE_SET: ReadonlySet<string> = new Set(STATE_ERROR_CODES);

export function isInputError(code: RulesErrorCode): code is InputErrorCode {
  return INPUT_SET.has(code);
}

export function isStateError(code: RulesErrorCode): code is StateErrorCode {
  return STATE_SET.has(code);
}
