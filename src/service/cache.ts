import { Cache } from './store/types';

/**
 * The hot-position cache of the stateless endpoints: answers are computed
 * once per (variant, rules, position ID, dice…) and kept for `ttlSeconds`.
 * When the backing store fails the cache is bypassed and the answer is
 * computed as if it were a miss; counters feed the metrics.
 */
export class HotCache {
  hits = 0;
  misses = 0;
  bypasses = 0;

  constructor(
    private readonly store: Cache,
    private readonly ttlSeconds: number,
  ) {}

  async through<T>(key: string, compute: () => T): Promise<{ value: T; cache: 'HIT' | 'MISS' | 'BYPASS' }> {
    let stored: string | null = null;
    let available = true;
    try {
      stored = await this.store.get(key);
    } catch {
      available = false;
    }
    if (stored !== null) {
      this.hits++;
      return { value: JSON.parse(stored) as T, cache: 'HIT' };
    }
    const value = compute();
    if (!available) {
      this.bypasses++;
      return { value, cache: 'BYPASS' };
    }
    this.misses++;
    try {
      await this.store.set(key, JSON.stringify(value), this.ttlSeconds);
    } catch {
      // The answer stands even if it could not be kept.
    }
    return { value, cache: 'MISS' };
  }
}
