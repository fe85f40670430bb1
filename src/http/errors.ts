import { randomUUID } from 'crypto';
import { ErrorRequestHandler, RequestHandler } from 'express';
import { ErrorBody, ServiceError, statusOf } from '../service/errors';

export interface ErrorLog {
  error(fields: Record<string, unknown>, message: string): void;
}

function send(res: Parameters<RequestHandler>[1], status: number, body: ErrorBody & { correlationId?: string }): void {
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
      send(res, statusOf(error.body.code), error.body);
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
    const status = (error as { status?: number } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      send(res, status, { code: 'INVALID_REQUEST', message: 'the request could not be read' });
      return;
    }
    const correlationId = randomUUID();
    log.error({ correlationId, err: error }, 'unhandled error');
    send(res, 500, { code: 'INTERNAL', message: 'internal error', correlationId });
  };
}
