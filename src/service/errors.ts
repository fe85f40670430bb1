import { RulesError, RulesErrorCode, isInputError, isStateError } from '../engine/errors';

/** Codes the service layer adds to the rules core's (transport and session concerns). */
export type ServiceErrorCode =
  | RulesErrorCode
  | 'INVALID_JSON'
  | 'PAYLOAD_TOO_LARGE'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL';

export interface ErrorBody {
  readonly code: ServiceErrorCode;
  readonly message: string;
  readonly field?: string;
  readonly rule?: string;
  readonly stepIndex?: number;
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
    return new ServiceError(error);
  }
}

/** The one table from error codes to HTTP statuses (STYLE.md §6). */
export function statusOf(code: ServiceErrorCode): number {
  switch (code) {
    case 'INVALID_JSON':
      return 400;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'INTERNAL':
      return 500;
    default:
      if (isInputError(code)) return 400;
      if (isStateError(code)) return 422;
      // A rule error outside a validation answer (e.g. a session play) is unprocessable.
      return 422;
  }
}
