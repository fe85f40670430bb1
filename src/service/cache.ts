import { Cache } from './store/types';

/**
 * The hot-position cache of the stateless endpoints: answers are computed
 * once per (variant, rules, position ID, dice…) and kept for `ttlSeconds`.
 * When the backing store fails the cache is bypassed and the answer is
 * computed as if it were a miss; counters feed the metrics.
 */
export interface CachedAnswer<T> {
  readonly json: string;
  readonly value?: T;
  readonly cache: 'HIT' | 'MISS' | 'BYPASS';
}

/** The value of a cached answer, parsing the text only when it came from the cache. */
export function valueOf<T>(answer: CachedAnswer<T>): T {
  return answer.value ?? (JSON.parse(answer.json) as T);
}

export class HotCache {
  hits = 0;
  misses = 0;
  bypasses = 0;

  constructor(
    private readonly store: Cache,
    private readonly ttlSeconds: number,
  ) {}

  /**
   * The answer as JSON text (what REST sends as it is) and, when it was
   * computed now, as a value; a hit carries only the text. An answer that
   * `keep` refuses is not kept (it is answered as a bypass).
   */
  async through<T>(key: string, compute: () => T | Promise<T>, keep: (value: T) => boolean = () => true): Promise<CachedAnswer<T>> {
    let stored: string | null = null;
    let available = true;
    try {
      stored = await this.store.get(key);
    } catch {
      available = false;
    }
    if (stored !== null) {
      this.hits++;
      return { json: stored, cache: 'HIT' };
    }
    const value = await compute();
    const json = JSON.stringify(value);
    if (!available || !keep(value)) {
      this.bypasses++;
      return { json, value, cache: 'BYPASS' };
    }
    this.misses++;
    try {
      await this.store.set(key, json, this.ttlSeconds);
    } catch {
      // The answer stands even if it could not be kept.
    }
    return { json, value, cache: 'MISS' };
  }

  /** A kept answer's JSON text, or null (also when the store fails). */
  async peek(key: string): Promise<string | null> {
    try {
      const stored = await this.store.get(key);
      if (stored !== null) this.hits++;
      return stored;
    } catch {
      this.bypasses++;
      return null;
    }
  }

  /** Keeps an answer computed elsewhere (a batch item); a store that fails is ignored. */
  async put(key: string, json: string): Promise<void> {
    this.misses++;
    try {
      await this.store.set(key, json, this.ttlSeconds);
    } catch {
      // The answer stands even if it could not be kept.
    }
  }
}
