import { Evaluator } from './evaluator';
import { OUTPUTS } from './probabilities';

/**
 * A transposition cache of static evaluations for one search: deeper
 * searches reach the same board by different paths (rolls of the same sum,
 * plays in another order, sibling branches), and a hit costs a hash of the
 * board instead of a network evaluation. gnubg keeps such a cache per
 * process; this one is per search instance and emptied at the start of
 * each search (`clear`), so a search costs the same whatever ran before.
 *
 * Searches of 0 and 1 ply go straight to the evaluator: their trees hardly
 * transpose, and hashing would only cost.
 *
 * Direct-mapped: a slot holds the last board hashed to it. The values are
 * the evaluator's own outputs, copied, so a search answers exactly as it
 * would without the cache (the neural forward pass does not depend on what
 * it evaluated before: network.ts). Allocates its table on first use; not
 * re-entrant, like the searches.
 */
export class TranspositionCache {
  private keys: Int8Array | null = null;
  private values: Float64Array | null = null;
  /** The search a slot was written in (0: never). */
  private stamps: Int32Array | null = null;
  private generation = 1;
  private enabled = false;
  /** Searches of this many plies and deeper use the table (Infinity: never, for comparisons). */
  fromPlies = 2;
  /** Evaluations answered from the table / by the evaluator (benchmarks). */
  hits = 0;
  misses = 0;

  /**
   * @param evaluator the static evaluator behind the cache
   * @param boardLength bytes of a board (28 backgammon, 26 long nardy)
   * @param bits log2 of the number of slots (2^15: about 2.4 MB with backgammon boards)
   */
  constructor(
    readonly evaluator: Evaluator,
    readonly boardLength: number,
    readonly bits = 15,
  ) {}

  /** A new search at `plies`: an empty table when it is deep enough to use one. */
  begin(plies: number): void {
    this.enabled = plies >= this.fromPlies;
    if (this.enabled) this.clear();
  }

  /** Forgets every entry (cheaply: a new generation). */
  clear(): void {
    this.generation++;
    if (this.generation === 0x7fffffff) {
      this.generation = 1;
      this.stamps?.fill(0);
    }
  }

  /**
   * The evaluator's probabilities of `board` into `out[offset …]`, from the
   * table when it holds them. Returns the network evaluations made (0 or 1).
   */
  evaluateInto(board: Int8Array, out: Float64Array, offset: number): number {
    if (!this.enabled) {
      this.evaluator.evaluateInto(board, out, offset);
      return 1;
    }
    if (this.keys === null) {
      const slots = 1 << this.bits;
      this.keys = new Int8Array(slots * this.boardLength);
      this.values = new Float64Array(slots * OUTPUTS);
      this.stamps = new Int32Array(slots);
    }
    const keys = this.keys;
    const values = this.values as Float64Array;
    const stamps = this.stamps as Int32Array;
    const n = this.boardLength;
    // FNV-1a over the signed counts.
    let hash = 0x811c9dc5;
    for (let i = 0; i < n; i++) hash = Math.imul(hash ^ (board[i] & 0xff), 0x01000193);
    const slot = (hash ^ (hash >>> 15)) & ((1 << this.bits) - 1);
    const key = slot * n;
    const value = slot * OUTPUTS;
    if (stamps[slot] === this.generation) {
      let same = true;
      for (let i = 0; i < n; i++) {
        if (keys[key + i] !== board[i]) {
          same = false;
          break;
        }
      }
      if (same) {
        this.hits++;
        for (let i = 0; i < OUTPUTS; i++) out[offset + i] = values[value + i];
        return 0;
      }
    }
    this.misses++;
    this.evaluator.evaluateInto(board, out, offset);
    for (let i = 0; i < n; i++) keys[key + i] = board[i];
    for (let i = 0; i < OUTPUTS; i++) values[value + i] = out[offset + i];
    stamps[slot] = this.generation;
    return 1;
  }
}
