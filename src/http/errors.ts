import { randomUUID } from 'crypto';
import { ErrorRequestHandler, RequestHandler } from 'express';
import { fieldOf, refusalBody } from '../contract/refusal';
import { ErrorBody, ServiceError, ServiceErrorCode, statusOf } from '../service/errors';
import { RequestRefusal } from './validation';

export interface ErrorLog {
  error(fields: Record<string, unknown>, message: string): void;
}

function send(res: Parameters<RequestHandler>[1], status: number, body: ErrorBody & { correlationId?: string }): void {
  // Refusals that pass (a full queue, a spent budget) say when to come back.
  if (typeof body.retryAfter === 'number') res.set('Retry-After', String(body.retryAfter));
  res.status(status).json({ error: body });
}

/** An error answer with the status the error table gives its code. */
function answer(code: ServiceErrorCode, message: string, details: { correlationId?: string } = {}): { status: number; body: ErrorBody & { correlationId?: string } } {
  return { status: statusOf(code), body: { code, message, ...details } };
}

function sendAnswer(res: Parameters<RequestHandler>[1], { status, body }: ReturnType<typeof answer>): void {
  send(res, status, body);
}

/** 404 for any route nobody answered. */
export const notFound: RequestHandler = (req, res) => {
  sendAnswer(res, answer('NOT_FOUND', `no route ${req.method} ${req.path.slice(0, 100)}`));
};

/** POST bodies must be JSON; a POST without a body (e.g. `…/roll`) is fine. */
export const requireJson: RequestHandler = (req, res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
  if (req.method === 'POST' && hasBody && !req.is('application/json')) {
    sendAnswer(res, answer('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json'));
    return;
  }
  next();
};

/**
 * The one error middleware: service errors get their status from the code
 * table; body-parser errors become INVALID_JSON / PAYLOAD_TOO_LARGE; any
 * other failure is logged with a correlation id and answered as a bare 500.
 */
export function errorHandler(log: ErrorLog): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof ServiceError) {
      send(res, error.status, error.body);
      return;
    }
    const type = (error as { type?: string } | null)?.type;
    if (type === 'entity.parse.failed') {
      sendAnswer(res, answer('INVALID_JSON', 'the body is not valid JSON'));
      return;
    }
    if (type === 'entity.too.large') {
      sendAnswer(res, answer('PAYLOAD_TOO_LARGE', 'the body is larger than the limit'));
      return;
    }
    if (error instanceof RequestRefusal) {
      const answer = refusalAnswer(error);
      // RFC 9110 §15.5.6: a 405 names the methods the resource takes.
      if (answer.status === 405 && error.allow) res.set('Allow', error.allow.join(', '));
      sendAnswer(res, answer);
      return;
    }
    const status = (error as { status?: number } | null)?.status;
    // body-parser refuses a charset other than UTF-8, or a content encoding this Node.js cannot
    // inflate (zstd before Node 22.15), with 415.
    if (status === 415) {
      sendAnswer(res, answer('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json in UTF-8, plain or in gzip, deflate or br encoding'));
      return;
    }
    // Any other body-parser refusal (an aborted or mis-sized body) is a request that cannot be read.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      sendAnswer(res, answer('INVALID_REQUEST', 'the request could not be read'));
      return;
    }
    const correlationId = randomUUID();
    log.error({ correlationId, err: error }, 'unhandled error');
    sendAnswer(res, answer('INTERNAL', 'internal error', { correlationId }));
  };
}

/**
 * A request refused at the edge (it breaks openapi.yaml) in the service's
 * error shape: a stable code by field, and the field itself.
 */
function refusalAnswer(refusal: RequestRefusal): { status: number; body: ErrorBody } {
  const { status, issue } = refusal;
  if (status === 404) return answer('NOT_FOUND', 'no such route');
  if (status === 405) return answer('METHOD_NOT_ALLOWED', 'this route does not take that method');
  if (status === 415) return answer('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json');
  // A path that names no resource (an unknown action, an impossible game id) is not found.
  if (/^\/(path|params)\//.test(issue.path)) return answer('NOT_FOUND', `no such ${fieldOf(issue.path)}`);
  const body = refusalBody(issue);
  return { status: statusOf(body.code), body };
}
