import { doubledCapacity } from './key-table';

/**
 * What both move generators keep of the plays they find: `count` entries in
 * pools of typed arrays that grow by doubling (never shrink, so a solver
 * allocates only while it meets larger rolls than before), and M of ALG-5.
 */
export abstract class PlayPool {
  protected count = 0;
  protected capacity = 0;

  /** Units the legal plays use (M of ALG-5), after `solve`. */
  maxUnits = 0;

  /** Makes room for `n` entries; the first growth (at the first play found) makes room for 256. */
  protected ensureCapacity(n: number): void {
    if (n <= this.capacity) return;
    const c = doubledCapacity(this.capacity, n, 256);
    this.growPools(c);
    this.capacity = c;
  }

  /** Replaces every pool by one of `capacity` entries holding the same first ones (`grownArray`). */
  protected abstract growPools(capacity: number): void;
}
