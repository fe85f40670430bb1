import { Cluster } from 'ioredis';
import { RedisClient } from './redis';

/**
 * Whether Redis's memory limit and eviction policy fit what the service
 * keeps there (docs/operations.md, "Redis sizing"). Every key the service
 * writes has a TTL, chosen so that the keys nearest their expiry are those
 * that matter least (counters, cache entries, games never played) and games
 * in play expire last. So:
 *
 * - `volatile-ttl` evicts by that order: fits;
 * - `noeviction` never evicts (at the limit writes are refused, answered 503): fits;
 * - `allkeys-*`, `volatile-lru`, `volatile-lfu`, `volatile-random` evict an
 *   idle game in play as readily as a cache entry: refused;
 * - no `maxmemory` (0) lets Redis grow until its host stops it, and every
 *   game with it: warned.
 */
export interface PolicyVerdict {
  readonly level: 'ok' | 'warn' | 'refuse';
  readonly message: string;
}

const FITTING = ['volatile-ttl', 'noeviction'];

export function judgeMemoryPolicy(maxmemory: number, policy: string): PolicyVerdict {
  const at = `maxmemory ${maxmemory}, maxmemory-policy ${policy}`;
  if (!FITTING.includes(policy)) {
    return {
      level: 'refuse',
      message: `Redis has ${at}: that policy may evict games in play while cache entries and counters stay; set maxmemory-policy volatile-ttl (or noeviction)`,
    };
  }
  if (maxmemory === 0) {
    return { level: 'warn', message: `Redis has ${at}: no memory limit, so it grows until its host stops it (and every game with it); set maxmemory (docs/operations.md, "Redis sizing")` };
  }
  return { level: 'ok', message: `Redis has ${at}` };
}

/** The limit and policy of every master (one server, or each master of a Cluster). */
export async function readMemoryPolicies(redis: RedisClient): Promise<{ maxmemory: number; policy: string }[]> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  return Promise.all(
    nodes.map(async (node) => {
      const reply = (await node.call('CONFIG', 'GET', 'maxmemory*')) as string[];
      const config = new Map<string, string>();
      for (let i = 0; i + 1 < reply.length; i += 2) config.set(reply[i], reply[i + 1]);
      return { maxmemory: Number(config.get('maxmemory') ?? 0), policy: config.get('maxmemory-policy') ?? 'noeviction' };
    }),
  );
}

/** The worst verdict over every master; a Redis that does not let `CONFIG GET` be run is a warning. */
export async function checkMemoryPolicy(redis: RedisClient): Promise<PolicyVerdict> {
  let policies: { maxmemory: number; policy: string }[];
  try {
    policies = await readMemoryPolicies(redis);
  } catch (e) {
    return { level: 'warn', message: `could not read Redis's maxmemory policy (${String(e).slice(0, 120)}); make sure it is volatile-ttl or noeviction with a maxmemory` };
  }
  const verdicts = policies.map((p) => judgeMemoryPolicy(p.maxmemory, p.policy));
  return verdicts.find((v) => v.level === 'refuse') ?? verdicts.find((v) => v.level === 'warn') ?? verdicts[0] ?? { level: 'ok', message: 'no Redis master' };
}
