import { RulesError, rulesError } from '../../engine/errors';
import { Result, err, ok } from '../../engine/result';
import { BearoffRuleSet, BearoffTables, MAX_ROLLS } from './build';
import { BEAROFF_POSITIONS, rankHome } from './ranking';

/*
 * File format of a one-sided bear-off database (little-endian):
 *
 *   magic   "NRDYBO" (6 bytes), format version u16 = 1
 *   ruleSet u8 (0 standard, 1 exactOnly), maxRolls u8 (64)
 *   positions u32 (54 264)
 *   then per position, in rank order, two sparse distributions
 *   (all checkers off; first checker off), each as
 *     start u8, length u8, length × u16 (probability × 65535, rounded)
 *
 * Entries that round to 0 at either end are dropped; the decoder
 * renormalises each distribution to sum 1, so the quantisation error of a
 * probability is below 1e-5.
 */
const MAGIC = 'NRDYBO';
const FORMAT_VERSION = 1;
const SCALE = 65535;
const HEADER = 6 + 2 + 1 + 1 + 4;

function ruleSetCode(ruleSet: BearoffRuleSet): number {
  switch (ruleSet) {
    case 'standard':
      return 0;
    case 'exactOnly':
      return 1;
  }
}

/**
 * A loaded one-sided bear-off database (read-only): for every home
 * distribution of up to 15 checkers on own points 1..6, the distribution of
 * the number of rolls needed to bear off all checkers, and to bear off the
 * first one (for mars / gammon odds). Distributions are stored sparsely in
 * one `Float32Array`.
 */
export class BearoffDatabase {
  private constructor(
    readonly ruleSet: BearoffRuleSet,
    private readonly values: Float32Array,
    /** Per position and kind (off = 0, first = 1): offset into `values`. */
    private readonly offsets: Int32Array,
    private readonly starts: Uint8Array,
    private readonly lengths: Uint8Array,
    private readonly means: Float64Array,
  ) {}

  /** Number of positions (C(21, 6) = 54 264). */
  get size(): number {
    return BEAROFF_POSITIONS;
  }

  /** The rank of the mover's home checkers of a board (`board[1..6]`, opponent checkers ignored). */
  rankOf(board: ArrayLike<number>): number {
    return rankHome(board);
  }

  /** Expected rolls to bear all checkers of position `rank` off. */
  meanOff(rank: number): number {
    return this.means[rank * 2];
  }

  /** Expected rolls to bear the first checker off (0 when some are off already). */
  meanFirstOff(rank: number): number {
    return this.means[rank * 2 + 1];
  }

  /** Writes P(exactly n rolls to bear all off), n = 0 … MAX_ROLLS−1, into `out`. */
  writeOff(rank: number, out: Float64Array): Float64Array {
    return this.write(rank * 2, out);
  }

  /** Writes P(exactly n rolls to the first checker off) into `out`. */
  writeFirstOff(rank: number, out: Float64Array): Float64Array {
    return this.write(rank * 2 + 1, out);
  }

  /** P(exactly n rolls to bear all off) for one n. */
  offProbability(rank: number, n: number): number {
    return this.at(rank * 2, n);
  }

  /** P(exactly n rolls to the first checker off) for one n. */
  firstOffProbability(rank: number, n: number): number {
    return this.at(rank * 2 + 1, n);
  }

  private at(slot: number, n: number): number {
    const k = n - this.starts[slot];
    return k >= 0 && k < this.lengths[slot] ? this.values[this.offsets[slot] + k] : 0;
  }

  private write(slot: number, out: Float64Array): Float64Array {
    out.fill(0, 0, MAX_ROLLS);
    const start = this.starts[slot];
    const len = this.lengths[slot];
    const base = this.offsets[slot];
    for (let k = 0; k < len; k++) out[start + k] = this.values[base + k];
    return out;
  }

  /** A database straight from freshly built tables (tests, the build script). */
  static fromTables(tables: BearoffTables): BearoffDatabase {
    return decode(encodeBearoffTables(tables)) as BearoffDatabase;
  }

  /** @internal used by the decoder */
  static create(
    ruleSet: BearoffRuleSet,
    values: Float32Array,
    offsets: Int32Array,
    starts: Uint8Array,
    lengths: Uint8Array,
    means: Float64Array,
  ): BearoffDatabase {
    return new BearoffDatabase(ruleSet, values, offsets, starts, lengths, means);
  }

  /**
   * The same database over memory that threads share: its tables copied once
   * into `SharedArrayBuffer`s, so that worker threads given the tables
   * (`fromTables`) read them in place instead of holding a copy each.
   */
  shared(): BearoffDatabase {
    const share = <T extends Float32Array | Int32Array | Uint8Array | Float64Array>(a: T, make: (b: SharedArrayBuffer) => T): T => {
      const copy = make(new SharedArrayBuffer(a.byteLength));
      copy.set(a);
      return copy;
    };
    return new BearoffDatabase(
      this.ruleSet,
      share(this.values, (b) => new Float32Array(b)),
      share(this.offsets, (b) => new Int32Array(b)),
      share(this.starts, (b) => new Uint8Array(b)),
      share(this.lengths, (b) => new Uint8Array(b)),
      share(this.means, (b) => new Float64Array(b)),
    );
  }

  /** The tables, for handing to another thread (structured clone keeps shared memory shared). */
  get tables(): SharedBearoffTables {
    return { ruleSet: this.ruleSet, values: this.values, offsets: this.offsets, starts: this.starts, lengths: this.lengths, means: this.means };
  }

  /** A database over tables another thread handed over (`tables`). */
  static fromSharedTables(t: SharedBearoffTables): BearoffDatabase {
    return new BearoffDatabase(t.ruleSet, t.values, t.offsets, t.starts, t.lengths, t.means);
  }
}

/** A database's decoded tables (see `BearoffDatabase.shared`). */
export interface SharedBearoffTables {
  readonly ruleSet: BearoffRuleSet;
  readonly values: Float32Array;
  readonly offsets: Int32Array;
  readonly starts: Uint8Array;
  readonly lengths: Uint8Array;
  readonly means: Float64Array;
}

/** Serialises built tables in the compact file format above. */
export function encodeBearoffTables(tables: BearoffTables): Uint8Array {
  const n = BEAROFF_POSITIONS;
  const slots = n * 2;
  // First pass: the non-zero range of every quantised distribution.
  const first = new Uint8Array(slots);
  const length = new Uint8Array(slots);
  let size = HEADER;
  for (let s = 0; s < slots; s++) {
    const table = s % 2 === 0 ? tables.off : tables.firstOff;
    const base = (s >> 1) * MAX_ROLLS;
    let lo = -1;
    let hi = -1;
    for (let k = 0; k < MAX_ROLLS; k++) {
      if (Math.round(table[base + k] * SCALE) > 0) {
        if (lo < 0) lo = k;
        hi = k;
      }
    }
    // A distribution always has mass somewhere; keep the format total anyway.
    if (lo < 0) lo = hi = 0;
    first[s] = lo;
    length[s] = hi - lo + 1;
    size += 2 + 2 * length[s];
  }
  const out = new Uint8Array(size);
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
  out[6] = FORMAT_VERSION & 0xff;
  out[7] = FORMAT_VERSION >> 8;
  out[8] = ruleSetCode(tables.ruleSet);
  out[9] = MAX_ROLLS;
  new DataView(out.buffer).setUint32(10, n, true);
  let at = HEADER;
  for (let s = 0; s < slots; s++) {
    const table = s % 2 === 0 ? tables.off : tables.firstOff;
    const base = (s >> 1) * MAX_ROLLS + first[s];
    out[at] = first[s];
    out[at + 1] = length[s];
    at += 2;
    const allZero = Math.round(table[base] * SCALE) === 0 && length[s] === 1;
    for (let k = 0; k < length[s]; k++) {
      const q = allZero ? SCALE : Math.round(table[base + k] * SCALE);
      out[at] = q & 0xff;
      out[at + 1] = q >> 8;
      at += 2;
    }
  }
  return out;
}

function fail(message: string): Result<BearoffDatabase, RulesError> {
  return err(rulesError('INVALID_REQUEST', `bear-off database: ${message}`, { field: 'bearoffDatabase' }));
}

function decode(bytes: Uint8Array): BearoffDatabase | RulesError {
  const r = loadBearoffDatabase(bytes);
  return r.ok ? r.value : r.error;
}

/**
 * Reads a database from the bytes of a file written by
 * `scripts/build/bearoff.ts` (already decompressed: the evaluator is
 * pure, so reading and gunzipping the file is the caller's job).
 */
export function loadBearoffDatabase(bytes: Uint8Array): Result<BearoffDatabase, RulesError> {
  if (bytes.length < HEADER) return fail('file too short');
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return fail('not a bear-off database');
  const version = bytes[6] | (bytes[7] << 8);
  if (version !== FORMAT_VERSION) return fail(`unsupported format version ${version}`);
  const code = bytes[8];
  const ruleSet: BearoffRuleSet | null = code === 0 ? 'standard' : code === 1 ? 'exactOnly' : null;
  if (ruleSet === null) return fail(`unknown rule set ${code}`);
  if (bytes[9] !== MAX_ROLLS) return fail(`expected ${MAX_ROLLS} rolls per distribution`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(10, true);
  if (n !== BEAROFF_POSITIONS) return fail(`expected ${BEAROFF_POSITIONS} positions, found ${n}`);

  const slots = n * 2;
  const offsets = new Int32Array(slots);
  const starts = new Uint8Array(slots);
  const lengths = new Uint8Array(slots);
  // First pass: sizes.
  let at = HEADER;
  let total = 0;
  for (let s = 0; s < slots; s++) {
    if (at + 2 > bytes.length) return fail('truncated');
    const start = bytes[at];
    const len = bytes[at + 1];
    if (len === 0 || start + len > MAX_ROLLS) return fail('corrupt distribution');
    starts[s] = start;
    lengths[s] = len;
    offsets[s] = total;
    total += len;
    at += 2 + 2 * len;
  }
  if (at !== bytes.length) return fail('trailing bytes');
  const values = new Float32Array(total);
  const means = new Float64Array(slots);
  at = HEADER;
  for (let s = 0; s < slots; s++) {
    const len = lengths[s];
    at += 2;
    let sum = 0;
    for (let k = 0; k < len; k++) sum += bytes[at + 2 * k] | (bytes[at + 2 * k + 1] << 8);
    if (sum === 0) return fail('empty distribution');
    let mean = 0;
    for (let k = 0; k < len; k++) {
      const v = (bytes[at + 2 * k] | (bytes[at + 2 * k + 1] << 8)) / sum;
      values[offsets[s] + k] = v;
      mean += v * (starts[s] + k);
    }
    means[s] = mean;
    at += 2 * len;
  }
  return ok(BearoffDatabase.create(ruleSet, values, offsets, starts, lengths, means));
}
