import { RedisClient } from './store/redis';

/**
 * Per-client budgets of work in fixed windows: each client may spend
 * `budget` units (network evaluations, for analysis) per window; a charge
 * that would pass it is refused and not counted, with the seconds until the
 * window ends. Counted in Redis when there is one (so every replica shares
 * the count), in this process otherwise — and in this process too while
 * Redis does not answer, so limits hold through an outage.
 */
export interface Charge {
  readonly allowed: boolean;
  /** Units spent in the window, this charge included when allowed. */
  readonly used: number;
  /** Seconds until the window ends. */
  readonly resetSeconds: number;
}

export interface WorkBudget {
  charge(client: string, units: number, budget: number): Promise<Charge>;
}

/** Counts in this process. */
export class MemoryWorkBudget implements WorkBudget {
  private readonly spent = new Map<string, number>();
  private window = -1;

  constructor(
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async charge(client: string, units: number, budget: number): Promise<Charge> {
    return this.chargeNow(client, units, budget);
  }

  chargeNow(client: string, units: number, budget: number): Charge {
    const ms = this.windowSeconds * 1000;
    const t = this.now();
    const window = Math.floor(t / ms);
    if (window !== this.window) {
      // A new window: every count starts again (and the map cannot grow past one window's clients).
      this.spent.clear();
      this.window = window;
    }
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * ms - t) / 1000));
    const used = (this.spent.get(client) ?? 0) + units;
    if (used > budget) return { allowed: false, used: used - units, resetSeconds };
    this.spent.set(client, used);
    return { allowed: true, used, resetSeconds };
  }
}

/** INCRBY the window's count; undo it when it passes the budget. One key, so it runs on a Cluster too. */
const CHARGE_SCRIPT = `
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if used == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
local allowed = 1
if used > tonumber(ARGV[2]) then
  used = redis.call('DECRBY', KEYS[1], ARGV[1])
  allowed = 0
end
return {allowed, used, redis.call('PTTL', KEYS[1])}
`;

/** Counts in Redis; while Redis fails, in this process. */
export class RedisWorkBudget implements WorkBudget {
  private readonly fallback: MemoryWorkBudget;

  constructor(
    private readonly redis: RedisClient,
    private readonly windowSeconds: number,
    private readonly prefix = 'nardy',
    /** Told once per failure streak that Redis is away (the limiter goes on in memory). */
    private readonly onFallback: (error: unknown) => void = () => undefined,
  ) {
    this.fallback = new MemoryWorkBudget(windowSeconds);
  }

  private failing = false;

  async charge(client: string, units: number, budget: number): Promise<Charge> {
    if (this.redis.status !== 'ready') return this.fallback.chargeNow(client, units, budget);
    const ms = this.windowSeconds * 1000;
    const window = Math.floor(Date.now() / ms);
    // The hash tag keeps a client's counts on one Cluster slot.
    const key = `${this.prefix}:budget:{${client}}:${window}`;
    try {
      const reply = (await this.redis.eval(CHARGE_SCRIPT, 1, key, units, budget, ms)) as [number, number, number];
      this.failing = false;
      const [allowed, used, pttl] = reply;
      return { allowed: allowed === 1, used, resetSeconds: Math.max(1, Math.ceil((pttl > 0 ? pttl : ms) / 1000)) };
    } catch (e) {
      if (!this.failing) this.onFallback(e);
      this.failing = true;
      return this.fallback.chargeNow(client, units, budget);
    }
  }
}
