import { RequestHandler } from 'express';
import { Cluster } from 'ioredis';
import {
  ClientRateLimitInfo,
  IncrementResponse,
  MemoryStore,
  Options,
  rateLimit,
  Store,
} from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { RedisClient } from '../service/store/redis';
import { WarnLog, throttledWarn } from './observability';

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
  /** Where Redis failures (throttled JSON lines) and the limiter's own messages go. */
  readonly log?: WarnLog;
}

/** How long after a failed start of the Redis store (its scripts not loaded) it is started again. */
const RESTART_AFTER_MS = 1000;

/**
 * Counts in Redis and, while Redis fails, in this process: the limit holds
 * through an outage (per replica) instead of being switched off. A Redis
 * store whose start failed (Redis away as the process started) keeps the
 * failed script load and would fail every call after Redis is back, so it is
 * started again, at most once per `restartAfterMs`, until a start succeeds.
 */
export class FallbackStore implements Store {
  private readonly local = new MemoryStore();
  readonly prefix: string;
  private options: Options | undefined;
  /** When the shared store's last start failed; null while it stands. */
  private failedAt: number | null = null;
  private restarting: Promise<void> | null = null;

  constructor(
    private readonly shared: Store,
    private readonly onFailure: (error: unknown) => void,
    private readonly restartAfterMs = RESTART_AFTER_MS,
  ) {
    this.prefix = shared.prefix ?? '';
  }

  init(options: Options): void {
    this.options = options;
    this.local.init(options);
    void this.start();
  }

  private async start(): Promise<void> {
    try {
      await this.shared.init?.(this.options!);
      this.failedAt = null;
    } catch (e) {
      this.failedAt = Date.now();
      this.onFailure(e);
    }
  }

  /** Whether the shared store may be asked: started, or started again now after a failed start. */
  private async usable(): Promise<boolean> {
    if (this.failedAt === null) return true;
    if (this.restarting === null && Date.now() - this.failedAt >= this.restartAfterMs) {
      this.restarting = this.start().finally(() => (this.restarting = null));
      await this.restarting;
      return this.failedAt === null;
    }
    return false;
  }

  /** Asks the shared store and, when it is not started or fails, this process's count. */
  private async either<T>(shared: () => Promise<T> | T, local: () => Promise<T> | T): Promise<T> {
    if (await this.usable()) {
      try {
        return await shared();
      } catch (e) {
        this.onFailure(e);
      }
    }
    return local();
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.either(
      () => this.shared.get?.(key),
      () => this.local.get(key),
    );
  }

  increment(key: string): Promise<IncrementResponse> {
    return this.either(
      () => this.shared.increment(key),
      () => this.local.increment(key),
    );
  }

  decrement(key: string): Promise<void> {
    return this.either(
      () => this.shared.decrement(key),
      () => this.local.decrement(key),
    );
  }

  async resetKey(key: string): Promise<void> {
    await this.local.resetKey(key);
    await Promise.resolve(this.shared.resetKey(key)).catch(() => undefined);
  }

  shutdown(): void {
    this.local.shutdown();
  }
}

export function rateLimiter(options: RateLimitOptions): RequestHandler {
  if (options.max <= 0) return (_req, _res, next) => next();
  let store: Store | undefined;
  if (options.redis) {
    const client = options.redis;
    const shared = new RedisStore({
      prefix: `${options.prefix ?? 'nardy'}:rate:`,
      // On a Cluster, EVALSHA runs on the key's master: load the scripts on every master.
      sendCommand: async (command: string, ...args: string[]) => {
        if (client instanceof Cluster && command.toUpperCase() === 'SCRIPT') {
          const replies = await Promise.all(
            client.nodes('master').map((node) => node.call(command, ...args)),
          );
          return replies[0] as string;
        }
        return client.call(command, ...args) as Promise<number | string | (number | string)[]>;
      },
    });
    store = new FallbackStore(
      shared,
      options.log
        ? throttledWarn(
            options.log,
            'rate limit: Redis is not answering; counting in this process until it does',
          )
        : () => undefined,
    );
  }
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // A limiter whose store is down must not take the service down with it (the fallback counts in memory).
    passOnStoreError: true,
    // express-rate-limit's own messages (configuration checks) as JSON lines, never stack traces on stderr.
    logger: options.log
      ? {
          warn: throttledWarn(options.log, 'rate limiter'),
          error: throttledWarn(options.log, 'rate limiter'),
        }
      : { warn: () => undefined, error: () => undefined },
    // A caller with an API key is counted by its key, others by address (callers.ts).
    keyGenerator: (_req, res) => (res.locals.identity as { client: string } | undefined)?.client ?? 'unknown',
    ...(store ? { store } : {}),
    handler: (_req, res, _next, opts) => {
      res.status(opts.statusCode).json({
        error: {
          code: 'RATE_LIMITED',
          message: `more than ${options.max} requests in ${options.windowSeconds} s; slow down`,
        },
      });
    },
  });
}
