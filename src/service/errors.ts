import { RulesError, RulesErrorCode, isInputError, isStateError } from '../engine/errors';
import { CUBE_ERROR_CODES, CubeErrorCode, isCubeInputError } from '../engine/scoring/cube-errors';

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
  'STORE_FULL',
  'UNKNOWN_API_KEY',
  'ANALYSIS_TOO_COSTLY',
  'ANALYSIS_BUSY',
  'ANALYSIS_TIMEOUT',
  'ANALYSIS_CANCELLED',
  'SHUTTING_DOWN',
  'INTERNAL',
] as const;

export type ServiceErrorCode = RulesErrorCode | CubeErrorCode | (typeof SERVICE_ERROR_CODES)[number];

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
 * An error a service function returns to its transport. Transports map
 * `code` to an HTTP status and a GraphQL `extensions.code` with `statusOf`.
 */
export class ServiceError extends Error {
  constructor(readonly body: ErrorBody) {
    super(body.message);
    this.name = 'ServiceError';
  }

  static from(error: RulesError): ServiceError {
    return new ServiceError({ ...error });
  }
}

const CUBE_CODES: ReadonlySet<string> = new Set(CUBE_ERROR_CODES);

/** The one table from error codes to HTTP statuses (STYLE.md §6). */
export function statusOf(code: ServiceErrorCode): number {
  switch (code) {
    case 'INVALID_JSON':
      return 400;
    case 'UNAUTHORIZED':
    case 'UNKNOWN_API_KEY':
      return 401;
    case 'NOT_YOUR_TURN':
      return 403;
    case 'NOT_FOUND':
    case 'GAME_NOT_FOUND':
    case 'JOB_NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'ACTION_NOT_EXPECTED':
    case 'GAME_FINISHED':
    case 'VERSION_CONFLICT':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'ILLEGAL_PLAY':
    case 'INCOMPLETE_PLAY':
    case 'IDEMPOTENCY_KEY_REUSED':
    case 'ANALYSIS_TOO_COSTLY':
      return 422;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL':
      return 500;
    case 'STORE_UNAVAILABLE':
    case 'STORE_FULL':
    case 'ANALYSIS_BUSY':
    case 'ANALYSIS_CANCELLED':
    case 'SHUTTING_DOWN':
      return 503;
    case 'ANALYSIS_TIMEOUT':
      return 504;
    default:
      if (CUBE_CODES.has(code)) return isCubeInputError(code as CubeErrorCode) ? 400 : 422;
      if (isInputError(code as RulesErrorCode)) return 400;
      if (isStateError(code as RulesErrorCode)) return 422;
      // A rule error outside a validation answer is unprocessable.
      return 422;
  }
}

/** Throws a service error (for code paths that end the request). */
export function fail(code: ServiceErrorCode, message: string, details: Record<string, unknown> = {}): never {
  throw new ServiceError({ code, message, ...details });
}
