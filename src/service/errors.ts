import { RulesError, RulesErrorCode } from '../engine/errors';
import { CubeError, CubeErrorCode } from '../engine/scoring/cube-errors';
import { GameError } from '../engine/game/types';

/** Codes of sessions and transports, beside the rules core's and the cube's. */
export const SERVICE_ERROR_CODES = [
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'GAME_NOT_FOUND',
  'JOB_NOT_FOUND',
  'UNAUTHORIZED',
  'NOT_YOUR_TURN',
  'ACTION_NOT_EXPECTED',
  'GAME_FINISHED',
  'VERSION_CONFLICT',
  'ILLEGAL_PLAY',
  'INCOMPLETE_PLAY',
  'RATE_LIMITED',
  'IDEMPOTENCY_KEY_REUSED',
  'STORE_UNAVAILABLE',
  'OUTCOME_UNKNOWN',
  'STORE_FULL',
  'UNKNOWN_API_KEY',
  'ANALYSIS_TOO_COSTLY',
  'ANALYSIS_BUSY',
  'ANALYSIS_TIMEOUT',
  'ANALYSIS_CANCELLED',
  'SHUTTING_DOWN',
  'INTERNAL',
] as const;

/** Codes only the GraphQL document limits report (src/graphql/limits.ts), before any resolver runs. */
export const GRAPHQL_LIMIT_CODES = ['QUERY_TOO_DEEP', 'TOO_MANY_ALIASES', 'QUERY_TOO_COMPLEX'] as const;

export type ServiceErrorCode = RulesErrorCode | CubeErrorCode | (typeof SERVICE_ERROR_CODES)[number];
/** Every code an answer of this service can carry. */
export type ErrorCode = ServiceErrorCode | (typeof GRAPHQL_LIMIT_CODES)[number];

/**
 * What one code means to a client. GraphQL answers carry the code itself as
 * `extensions.code` and the status as `extensions.http.status`.
 */
export interface ErrorEntry {
  /** The HTTP status of a REST answer (and `extensions.http.status`). */
  readonly status: number;
  /** Where the code is answered: REST only, GraphQL only, or both. */
  readonly via: 'rest' | 'graphql' | 'both';
  readonly meaning: string;
  /**
   * The same code refused by the cube machine rather than by a session seat:
   * a rule the request breaks, not a seat acting out of turn (CUBE-2).
   */
  readonly asCubeRule?: { readonly status: number; readonly meaning: string };
}

const input = (meaning: string): ErrorEntry => ({ status: 400, via: 'both', meaning });
/** Rules-core refusals outside a validation verdict (which answers 200 `legal: false`). */
const rule = (meaning: string): ErrorEntry => ({ status: 422, via: 'both', meaning });
const entry = (status: number, meaning: string, via: ErrorEntry['via'] = 'both'): ErrorEntry => ({ status, via, meaning });

/**
 * The one table of error codes: every code once, with its HTTP status and
 * meaning. Keyed by every code of the engine's lists, so a code added to
 * the rules core or the cube fails to compile until it is entered here.
 */
export const ERROR_TABLE: { readonly [C in ErrorCode]: ErrorEntry } = {
  // Input the rules core cannot read.
  INVALID_REQUEST: input('the request is malformed, or breaks the API description'),
  UNKNOWN_FIELD: input('a field the operation does not take'),
  UNKNOWN_VARIANT: input('no such variant'),
  INVALID_RULES: input('a rules option is not one of its values'),
  INVALID_POSITION: input('the position is not a position of the variant'),
  INVALID_POSITION_ID: input('a position or match ID that does not decode'),
  WRONG_CHECKER_COUNT: input('a side has other than 15 checkers'),
  POINT_HELD_BY_BOTH: input('both sides have checkers on one point'),
  INVALID_DICE: input('dice that are not two numbers 1..6'),
  INVALID_STEPS: input('steps that are not steps of a play'),
  INVALID_NOTATION: input('a play notation that does not read'),
  INVALID_PENDING: input('a pending stage (cascade, debt) that does not fit the position'),
  INVALID_MATCH_FILE: input('a match file (.mat, SGF) that cannot be read, or holds a move the rules forbid, naming the game and move'),
  // The position cannot take the query.
  GAME_OVER: rule('the game is already over'),
  GAME_NOT_OVER: rule('scoring a game nobody has won, without a resignation or a dropped double'),
  STAGE_MISMATCH: rule('dice given while a cascade or debt stage is pending, or a cube turned when no roll is due'),
  // Rule errors: 200 `legal: false` in a validation verdict, with `rule` and `stepIndex`.
  NO_CHECKER: rule('the source point holds no checker of the mover'),
  DIE_NOT_AVAILABLE: rule('no remaining die-unit equals the distance of the step'),
  INVALID_STEP: rule('the step goes backwards or is not a single die-unit (COM-8, LN-MOVE-1)'),
  BLOCKED_POINT: rule('the landing point is held by the opponent (LN-MOVE-2, SH-MOVE-1)'),
  HEAD_RULE: rule('a further checker may not leave the head (LN-HEAD-1)'),
  SIX_BLOCK: rule('a six-point block the rules forbid (LN-BLOCK-3/4)'),
  BEAR_OFF_NOT_ALL_HOME: rule('bearing off before every checker is home (LN-OFF-1)'),
  BEAR_OFF_HIGHER_CHECKER: rule('an oversized die bears off only from the highest point (LN-OFF-3)'),
  BEAR_OFF_EXACT_ONLY: rule('exact-only bear-off (CR-4, CG-5)'),
  HOME_MOVE_FORBIDDEN: rule('moves inside home are banned (CR-4, CG-5)'),
  FEVGA_RUNNER: rule('only the first runner may move until it has passed (FV-2)'),
  FEVGA_STARTING_QUARTER: rule('all six points of the starting quarter held (FV-3)'),
  FEVGA_PRIME_TRAP: rule('every opponent checker trapped behind a prime (FV-5)'),
  MUST_ENTER_FROM_BAR: rule('checkers on the bar must enter first (SH-BAR-1)'),
  MUST_USE_BOTH_DICE: rule('both dice could be used (MAX-1, MAX-4)'),
  MUST_PLAY_MAXIMUM: rule('more units of the double could be played (MAX-1)'),
  MUST_USE_LARGER_DIE: rule('only one die can be played and it must be the larger (MAX-2)'),
  TOO_MANY_STEPS: rule('more steps than the stage has units, or steps after the game ended'),
  NOT_A_LEGAL_PLAY: rule('the steps end in a position no legal play reaches'),
  // Scoring, the cube and match play.
  INVALID_CUBE: input('a cube configuration, state or stake that is malformed or inconsistent (CUBE-1)'),
  INVALID_MATCH: input('a match that is malformed or inconsistent (CUBE-6, LN-MATCH-1)'),
  INVALID_LOSER: input('an end of the game that is malformed: the sides, or a loser whose checkers are no end position'),
  INVALID_RESIGNATION: input('a resignation that names no level of any scoring'),
  INVALID_SCORING: input('a scoring option that is not one of its values'),
  CUBE_DISABLED: rule('the cube is not used in this game (LN-SCORE-5, CUBE-7)'),
  CUBE_NOT_OWNED: rule('only the owner of the cube, or anyone while it is centred, may double (CUBE-2)'),
  NOT_BEFORE_ROLL: rule('a double is offered only before rolling, never during the opening move (CUBE-2)'),
  CRAWFORD_NO_DOUBLE: rule('nobody doubles in the Crawford game (CUBE-6)'),
  CUBE_CAP_REACHED: rule('the next value would exceed the cap (CUBE-1)'),
  OFFER_PENDING: rule('a double is already waiting for an answer (CUBE-3)'),
  NO_DOUBLE_OFFERED: rule('take, drop, beaver or raccoon without an offer to answer (CUBE-3)'),
  NOT_YOUR_DECISION: rule('the answer must come from the side that was doubled (CUBE-3, CUBE-5)'),
  BEAVER_NOT_ALLOWED: rule('beavers are off, it is a match, or this offer cannot be beavered (CUBE-5)'),
  RACCOON_NOT_ALLOWED: rule('raccoons are off, it is a match, or there is no beaver to answer (CUBE-5)'),
  MATCH_OVER: rule('the match already has a winner (CUBE-6)'),
  LAST_ROLL_UNDEFINED: rule('the last-roll option is not defined for cascade or re-roll variants (LN-SCORE-6)'),
  RESIGN_LEVEL_UNAVAILABLE: rule('the scoring in use has no such resignation level'),
  // Sessions and transports.
  INVALID_JSON: entry(400, 'the body is not valid JSON', 'rest'),
  PAYLOAD_TOO_LARGE: entry(413, 'the body is larger than the limit', 'rest'),
  UNSUPPORTED_MEDIA_TYPE: entry(415, 'not JSON, a charset other than UTF-8, or a content encoding the service cannot read', 'rest'),
  NOT_FOUND: entry(404, 'no such route or resource', 'rest'),
  METHOD_NOT_ALLOWED: entry(405, 'the route does not take that method', 'rest'),
  GAME_NOT_FOUND: entry(404, 'no such game, or it expired'),
  JOB_NOT_FOUND: entry(404, 'no such job, or its result expired'),
  UNAUTHORIZED: entry(401, 'no or unknown seat token; /metrics without its token'),
  UNKNOWN_API_KEY: entry(401, 'an API key the service does not know'),
  NOT_YOUR_TURN: {
    ...entry(403, 'a session seat acts out of turn (with expects)'),
    asCubeRule: { status: 422, meaning: 'a double by the side not on roll (CUBE-2)' },
  },
  ACTION_NOT_EXPECTED: entry(409, 'the game expects another action (with expects)'),
  GAME_FINISHED: entry(409, 'the game is finished'),
  VERSION_CONFLICT: entry(409, 'the game is at another version than If-Match (with version)'),
  ILLEGAL_PLAY: entry(422, 'a session play the rules forbid (with violation)'),
  INCOMPLETE_PLAY: entry(422, 'a session play that leaves dice to play (with remainingDice)'),
  IDEMPOTENCY_KEY_REUSED: entry(422, 'an Idempotency-Key reused for another request'),
  ANALYSIS_TOO_COSTLY: entry(422, 'the analysis would cost more than one request may (with estimate and limit)'),
  RATE_LIMITED: entry(429, 'too many requests in the window (with Retry-After)'),
  INTERNAL: entry(500, 'an unexpected failure, with a correlationId'),
  STORE_UNAVAILABLE: entry(503, 'the session store or the job queue (Redis) did not answer within the store timeout'),
  OUTCOME_UNKNOWN: entry(503, 'a session action whose write the store did not confirm in time: it may have been applied (with the version that says so)'),
  STORE_FULL: entry(503, 'the in-memory store holds as many games in play as it may (with retryAfter)'),
  ANALYSIS_BUSY: entry(503, 'every analysis worker is busy and the queue is full (with Retry-After)'),
  ANALYSIS_CANCELLED: entry(503, 'the analysis or job was cancelled'),
  SHUTTING_DOWN: entry(503, 'this replica is shutting down; reconnect to another', 'rest'),
  ANALYSIS_TIMEOUT: entry(504, 'a strict analysis whose budget ran out'),
  // GraphQL document limits.
  QUERY_TOO_DEEP: entry(400, 'a selection nested deeper than GRAPHQL_MAX_DEPTH', 'graphql'),
  TOO_MANY_ALIASES: entry(400, 'more aliases than GRAPHQL_MAX_ALIASES', 'graphql'),
  QUERY_TOO_COMPLEX: entry(400, 'an operation whose estimated cost passes GRAPHQL_MAX_COMPLEXITY', 'graphql'),
};

/** Every code, in the table's order. */
export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** Is this one of the service's own codes (not one of GraphQL's, such as GRAPHQL_VALIDATION_FAILED)? */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_TABLE, code);
}

/** The HTTP status of a code (the one table). */
export function statusOf(code: ErrorCode): number {
  return ERROR_TABLE[code].status;
}

/** The HTTP status of a refusal of the cube machine (input 400, rule 422). */
export function cubeStatusOf(code: CubeErrorCode): number {
  const entry: ErrorEntry = ERROR_TABLE[code];
  return entry.asCubeRule?.status ?? entry.status;
}

/** An error answer: a stable code, a message, and where it applies, plus code-specific details. */
export interface ErrorBody {
  readonly code: ServiceErrorCode;
  readonly message: string;
  readonly field?: string;
  readonly rule?: string;
  readonly stepIndex?: number;
  readonly [detail: string]: unknown;
}

/**
 * An error a service function returns to its transport, with the HTTP
 * status of its code (`ERROR_TABLE`); GraphQL reports the same status.
 */
export class ServiceError extends Error {
  constructor(
    readonly body: ErrorBody,
    readonly status: number = statusOf(body.code),
  ) {
    super(body.message);
    this.name = 'ServiceError';
  }

  static from(error: RulesError): ServiceError {
    return new ServiceError({ ...error });
  }

  /** A refusal of the game reducer: by the cube core as `fromCube`, else by its code (a seat out of turn 403, a play the rules forbid 422…). */
  static fromGame(error: GameError): ServiceError {
    const { by, ...body } = error;
    return by === 'cube' ? ServiceError.fromCube(body as CubeError) : new ServiceError(body);
  }

  /** A refusal of scoring, the cube machine or match play: input 400, rule 422. */
  static fromCube(error: CubeError): ServiceError {
    const { code, message, field, rule } = error;
    return new ServiceError({ code, message, ...(field ? { field } : {}), ...(rule ? { rule } : {}) }, cubeStatusOf(code));
  }
}

/** Throws a service error (for code paths that end the request). */
export function fail(code: ServiceErrorCode, message: string, details: Record<string, unknown> = {}): never {
  throw new ServiceError({ code, message, ...details });
}
