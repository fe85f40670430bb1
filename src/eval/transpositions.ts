import { Evaluator } from './evaluator';
import { OUTPUTS } from './probabilities';

/** Module-local alias: a global lookup per call is slow in sandboxed VMs (jest: about 40 times slower in this loop). */
const imul = Math.imul;

/** Bytes of the longest board (backgammon, 28; long nardy has 26). */
const KEY = 28;

/**
 * The storage of transposition caches: one table can serve every search of
 * a thread (the service keeps one per worker), so memory does not grow with
 * the number of rule sets analysed. Direct-mapped: a slot holds the last
 * board hashed to it, stamped with the search that wrote it; a search sees
 * only its own stamps, so searches through the same table never read each
 * other's entries (not even a search nested in another). Allocates its
 * arrays on first use (2^15 slots: about 2.3 MB).
 */
export class TranspositionTable {
  keys: Int8Array | null = null;
  values: Float64Array | null = null;
  stamps: Int32Array | null = null;
  private stamp = 0;

  /** @param bits log2 of the number of slots */
  constructor(readonly bits = 15) {}

  /** A stamp no entry of the table carries yet (a new search). */
  nextStamp(): number {
    this.stamp++;
    if (this.stamp === 0x7fffffff) {
      this.stamp = 1;
      this.stamps?.fill(0);
    }
    return this.stamp;
  }

  allocate(): void {
    if (this.keys !== null) return;
    const slots = 1 << this.bits;
    this.keys = new Int8Array(slots * KEY);
    this.values = new Float64Array(slots * OUTPUTS);
    this.stamps = new Int32Array(slots);
  }
}

/**
 * A transposition cache of static evaluations for one search: deeper
 * searches reach the same board by different paths (rolls of the same sum,
 * plays in another order, sibling branches), and a hit costs a hash of the
 * board instead of a network evaluation. gnubg keeps such a cache per
 * process; this one starts empty with each search (`begin`), so a search
 * costs the same whatever ran before.
 *
 * Searches of 0 and 1 ply go straight to the evaluator: their trees hardly
 * transpose, and hashing would only cost.
 *
 * The values are the evaluator's own outputs, copied, so a search answers
 * exactly as it would without the cache (the neural forward pass does not
 * depend on what it evaluated before: network.ts). Not re-entrant, like the
 * searches.
 */
export class TranspositionCache {
  /** The stamp of the search in progress (0: not caching). */
  private stamp = 0;
  /** Searches of this many plies and deeper use the table (Infinity: never, for comparisons). */
  fromPlies = 2;
  /** Evaluations answered from the table / by the evaluator (benchmarks). */
  hits = 0;
  misses = 0;

  /**
   * @param evaluator the static evaluator behind the cache
   * @param boardLength bytes of a board (28 backgammon, 26 long nardy)
   * @param table the storage, shared or the cache's own
   */
  constructor(
    readonly evaluator: Evaluator,
    readonly boardLength: number,
    readonly table: TranspositionTable = new TranspositionTable(),
  ) {
    if (boardLength > KEY) throw new RangeError(`boards of at most ${KEY} bytes`);
  }

  /** A new search at `plies`: an empty view of the table when it is deep enough to use one. */
  begin(plies: number): void {
    this.stamp = plies >= this.fromPlies ? this.table.nextStamp() : 0;
  }

  /**
   * The evaluator's probabilities of `board` into `out[offset …]`, from the
   * table when it holds them. Returns the network evaluations made (0 or 1).
   */
  evaluateInto(board: Int8Array, out: Float64Array, offset: number): number {
    if (this.stamp === 0) {
      this.evaluator.evaluateInto(board, out, offset);
      return 1;
    }
    const table = this.table;
    table.allocate();
    const keys = table.keys as Int8Array;
    const values = table.values as Float64Array;
    const stamps = table.stamps as Int32Array;
    const n = this.boardLength;
    // FNV-1a over the signed counts.
    let hash = 0x811c9dc5;
    for (let i = 0; i < n; i++) hash = imul(hash ^ (board[i] & 0xff), 0x01000193);
    const slot = (hash ^ (hash >>> 15)) & ((1 << table.bits) - 1);
    const key = slot * KEY;
    const value = slot * OUTPUTS;
    if (stamps[slot] === this.stamp) {
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
    stamps[slot] = this.stamp;
    return 1;
  }
}
