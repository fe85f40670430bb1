import { randomUUID } from 'crypto';
import { ErrorRequestHandler, RequestHandler } from 'express';
import { fieldOf, refusalBody } from '../contract/refusal';
import { ErrorBody, ServiceError } from '../service/errors';
import { RequestRefusal } from './validation';

export interface ErrorLog {
  error(fields: Record<string, unknown>, message: string): void;
}

function send(res: Parameters<RequestHandler>[1], status: number, body: ErrorBody & { correlationId?: string }): void {
  // Refusals that pass (a full queue, a spent budget) say when to come back.
  if (typeof body.retryAfter === 'number') res.set('Retry-After', String(body.retryAfter));
  res.status(status).json({ error: body });
}

/** 404 for any route nobody answered. */
export const notFound: RequestHandler = (req, res) => {
  send(res, 404, { code: 'NOT_FOUND', message: `no route ${req.method} ${req.path.slice(0, 100)}` });
};

/** POST bodies must be JSON; a POST without a body (e.g. `…/roll`) is fine. */
export const requireJson: RequestHandler = (req, res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
  if (req.method === 'POST' && hasBody && !req.is('application/json')) {
    send(res, 415, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the body as application/json' });
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
      send(res, 400, { code: 'INVALID_JSON', message: 'the body is not valid JSON' });
      return;
    }
    if (type === 'entity.too.large') {
      send(res, 413, { code: 'PAYLOAD_TOO_LARGE', message: 'the body is larger than the limit' });
      return;
    }
    if (error instanceof RequestRefusal) {
      const answer = refusalAnswer(error);
      // RFC 9110 §15.5.6: a 405 names the methods the resource takes.
      if (answer.status === 405 && error.allow) res.set('Allow', error.allow.join(', '));
      send(res, answer.status, answer.body);
      return;
    }
    const status = (error as { status?: number } | null)?.status;
    // body-parser refuses a charset other than UTF-8, or a content encoding this Node.js cannot
    // inflate (zstd before Node 22.15), with 415.
    if (status === 415) {
      send(res, 415, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the body as application/json in UTF-8, plain or in gzip, deflate or br encoding' });
      return;
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      send(res, status, { code: 'INVALID_REQUEST', message: 'the request could not be read' });
      return;
    }
    const correlationId = randomUUID();
    log.error({ correlationId, err: error }, 'unhandled error');
    send(res, 500, { code: 'INTERNAL', message: 'internal error', correlationId });
  };
}

/**
 * A request refused at the edge (it breaks openapi.yaml) in the service's
 * error shape: a stable code by field, and the field itself.
 */
function refusalAnswer(refusal: RequestRefusal): { status: number; body: ErrorBody } {
  const { status, issue } = refusal;
  if (status === 404) return { status: 404, body: { code: 'NOT_FOUND', message: 'no such route' } };
  if (status === 405) return { status: 405, body: { code: 'METHOD_NOT_ALLOWED', message: 'this route does not take that method' } };
  if (status === 415) return { status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the body as application/json' } };
  // A path that names no resource (an unknown action, an impossible game id) is not found.
  if (/^\/(path|params)\//.test(issue.path)) return { status: 404, body: { code: 'NOT_FOUND', message: `no such ${fieldOf(issue.path)}` } };
  return { status: 400, body: refusalBody(issue) };
}
