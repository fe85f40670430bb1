import { createHash, timingSafeEqual } from 'crypto';
import { Request, RequestHandler, Response } from 'express';
import { ApiKey } from '../config';
import { epochClock } from '../service/analysis/engine';
import { AnalysisCaller } from '../service/analysis/service';
import { ErrorBody } from '../service/errors';

/**
 * Who is calling. An optional API key (`X-API-Key`, configured as its
 * SHA-256 in API_KEYS, never the key itself) names the caller and may carry
 * its own analysis budget; a key that is not configured is refused with
 * 401 UNKNOWN_API_KEY. Without a key the caller is its address.
 */
interface Identity {
  readonly client: string;
  /** A known API key was shown. */
  readonly keyed?: boolean;
  readonly budget?: number;
  /** When the request arrived (`epochClock`): analysis budgets count from here. */
  readonly arrival: number;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

function unauthorized(res: Response, body: ErrorBody): void {
  res.status(401).json({ error: body });
}

/** Sets `res.locals.identity`; answers 401 for an unknown key. */
export function identify(keys: readonly ApiKey[]): RequestHandler {
  const known = keys.map((k) => ({ ...k, hash: Buffer.from(k.sha256, 'hex') }));
  return (req, res, next) => {
    const arrival = epochClock();
    const key = req.get('x-api-key');
    if (key === undefined) {
      res.locals.identity = { client: `ip:${req.ip ?? 'unknown'}`, arrival } satisfies Identity;
      next();
      return;
    }
    const hash = sha256(key);
    // Compare every configured hash in constant time, so timing tells nothing of which one was near.
    let found: (typeof known)[number] | undefined;
    for (const k of known) if (timingSafeEqual(k.hash, hash)) found = k;
    if (!found) {
      unauthorized(res, { code: 'UNKNOWN_API_KEY', message: 'the API key is not known to this service', field: 'X-API-Key' });
      return;
    }
    res.locals.identity = { client: `key:${found.name}`, keyed: true, arrival, ...(found.budget !== null ? { budget: found.budget } : {}) } satisfies Identity;
    next();
  };
}

/** `/metrics` behind `Authorization: Bearer <METRICS_TOKEN>` when a token is configured. */
export function metricsGuard(token: string | null): RequestHandler {
  const expected = token === null ? null : sha256(token);
  return (req, res, next) => {
    if (expected === null) {
      next();
      return;
    }
    const m = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!m || !timingSafeEqual(sha256(m[1]), expected)) {
      res.set('WWW-Authenticate', 'Bearer');
      unauthorized(res, { code: 'UNAUTHORIZED', message: 'the metrics need the bearer token METRICS_TOKEN', field: 'Authorization' });
      return;
    }
    next();
  };
}

/**
 * The analysis caller of a request: its identity, and a signal that aborts
 * when the client goes away before the answer is sent.
 */
export function analysisCaller(req: Request, res: Response): AnalysisCaller {
  const identity = (res.locals.identity as Identity | undefined) ?? { client: `ip:${req.ip ?? 'unknown'}`, arrival: epochClock() };
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return { ...identity, signal: controller.signal };
}
