import { RequestHandler } from 'express';
import { Cluster } from 'ioredis';
import { rateLimit, Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { RedisClient } from '../service/store/redis';

/**
 * Per-client request counting (optional, RATE_LIMIT_MAX; off by default:
 * game servers validate moves for many tables from one address, and
 * analysis is limited by its cost instead, service/budget.ts): a fixed
 * window per client (API key or address), counted in Redis when Redis is
 * configured (so every replica shares the count) and in this process
 * otherwise. Over the limit: `429 RATE_LIMITED` with `Retry-After`.
 */
export interface RateLimitOptions {
  /** Requests allowed per window and client; 0 switches the limiter off. */
  readonly max: number;
  readonly windowSeconds: number;
  readonly redis?: RedisClient | null;
  readonly prefix?: string;
}

export function rateLimiter(options: RateLimitOptions): RequestHandler {
  if (options.max <= 0) return (_req, _res, next) => next();
  let store: Store | undefined;
  if (options.redis) {
    const client = options.redis;
    store = new RedisStore({
      prefix: `${options.prefix ?? 'nardy'}:rate:`,
      // On a Cluster, EVALSHA runs on the key's master: load the scripts on every master.
      sendCommand: async (command: string, ...args: string[]) => {
        if (client instanceof Cluster && command.toUpperCase() === 'SCRIPT') {
          const replies = await Promise.all(client.nodes('master').map((node) => node.call(command, ...args)));
          return replies[0] as string;
        }
        return client.call(command, ...args) as Promise<number | string | (number | string)[]>;
      },
    });
  }
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // A limiter whose store is down must not take the service down with it.
    passOnStoreError: true,
    // A caller with an API key is counted by its key, others by address (callers.ts).
    keyGenerator: (_req, res) => (res.locals.identity as { client: string } | undefined)?.client ?? 'unknown',
    ...(store ? { store } : {}),
    handler: (_req, res, _next, opts) => {
      res.status(opts.statusCode).json({
        error: { code: 'RATE_LIMITED', message: `more than ${options.max} requests in ${options.windowSeconds} s; slow down` },
      });
    },
  });
}
