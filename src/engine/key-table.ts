/**
 * An open-addressing hash set of exact keys (two integers below 2^53 plus a
 * small tag), cleared in O(1) between runs by a generation stamp. Used by the
 * move generators for memoisation (ALG-9) and for deduplicating resulting
 * positions (ALG-7) without allocating per node.
 */
/**
 * Module-local alias: a global lookup per call is slow in sandboxed VMs
 * (jest), and hashing is on the move generator's hot path.
 */
const imul = Math.imul;

export class KeyTable {
  private capacity: number;
  private mask: number;
  private low: Float64Array;
  private high: Float64Array;
  private tag: Int32Array;
  private value: Int32Array;
  private stamp: Int32Array;
  private generation = 1;
  private used = 0;

  constructor(initialCapacity = 1024) {
    let c = 16;
    while (c < initialCapacity) c <<= 1;
    this.capacity = c;
    this.mask = c - 1;
    this.low = new Float64Array(c);
    this.high = new Float64Array(c);
    this.tag = new Int32Array(c);
    this.value = new Int32Array(c);
    this.stamp = new Int32Array(c);
  }

  clear(): void {
    this.used = 0;
    this.generation++;
    if (this.generation === 0x7fffffff) {
      this.stamp.fill(0);
      this.generation = 1;
    }
  }

  get size(): number {
    return this.used;
  }

  private slotOf(low: number, high: number, tag: number): number {
    // Mix both halves of each key; exactness comes from the comparison below.
    const l1 = low >>> 0;
    const l2 = (low / 4294967296) >>> 0;
    const h1 = high >>> 0;
    const h2 = (high / 4294967296) >>> 0;
    let h = imul(l1 ^ imul(l2, 0x27d4eb2d), 0x9e3779b1);
    h ^= imul(h1 ^ imul(h2, 0x165667b1), 0x85ebca77);
    h ^= imul(tag + 1, 0xc2b2ae3d);
    h ^= h >>> 15;
    h = imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    return h & this.mask;
  }

  /** The value stored under the key, or -1. */
  get(low: number, high: number, tag: number): number {
    let i = this.slotOf(low, high, tag);
    const g = this.generation;
    for (;;) {
      if (this.stamp[i] !== g) return -1;
      if (this.low[i] === low && this.high[i] === high && this.tag[i] === tag) return this.value[i];
      i = (i + 1) & this.mask;
    }
  }

  /** Stores the key with `value` if absent; returns the existing value or -1 when inserted. */
  putIfAbsent(low: number, high: number, tag: number, value: number): number {
    if ((this.used + 1) * 2 > this.capacity) this.grow();
    let i = this.slotOf(low, high, tag);
    const g = this.generation;
    for (;;) {
      if (this.stamp[i] !== g) {
        this.stamp[i] = g;
        this.low[i] = low;
        this.high[i] = high;
        this.tag[i] = tag;
        this.value[i] = value;
        this.used++;
        return -1;
      }
      if (this.low[i] === low && this.high[i] === high && this.tag[i] === tag) return this.value[i];
      i = (i + 1) & this.mask;
    }
  }

  /** Doubles the table and puts back the entries of the current generation (a rare allocation). */
  private grow(): void {
    const [oldLow, oldHigh, oldTag, oldValue, oldStamp] = [this.low, this.high, this.tag, this.value, this.stamp];
    const oldCapacity = this.capacity;
    const g = this.generation;
    this.capacity = oldCapacity * 2;
    this.mask = this.capacity - 1;
    this.low = new Float64Array(this.capacity);
    this.high = new Float64Array(this.capacity);
    this.tag = new Int32Array(this.capacity);
    this.value = new Int32Array(this.capacity);
    this.stamp = new Int32Array(this.capacity);
    this.generation = 1;
    this.used = 0;
    for (let i = 0; i < oldCapacity; i++) {
      if (oldStamp[i] === g) this.putIfAbsent(oldLow[i], oldHigh[i], oldTag[i], oldValue[i]);
    }
  }
}

/** A pool's new capacity for `n` entries: doubled from `capacity` (at least `least`) until it holds them. */
export function doubledCapacity(capacity: number, n: number, least = 16): number {
  let c = Math.max(least, capacity);
  while (c < n) c *= 2;
  return c;
}

/** `a` copied into a new array of `length` entries (the pools of the move generators grow this way). */
export function grownArray<T extends Int8Array | Uint8Array | Int32Array>(a: T, length: number): T {
  const b = new (a.constructor as new (length: number) => T)(length);
  b.set(a);
  return b;
}
