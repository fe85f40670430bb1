import { Family } from '../evaluator';
import type { KernelEncoding } from './kernel';
import { SparseInput } from './network';

/**
 * An input encoding of a family's board for a network: the board is seen
 * from the side to move (src/engine/long/board.ts, src/engine/short/board.ts)
 * and encoded as **two blocks of the same layout**, first the side to move's,
 * then the opponent's, each in that side's own point numbering. So the
 * encoding of the flipped board is the same vector with the two blocks
 * swapped (tested), and a network sees both sides the same way; it learns
 * the value of having the roll from the block order.
 *
 * The encoding's `name` is stored in the weights file and checked by the
 * loader: weights only make sense with the encoding they were trained on.
 */
export interface NeuralEncoding {
  readonly family: Family;
  /** Versioned name, e.g. `short-1`. */
  readonly name: string;
  /** Inputs per side block. */
  readonly sideInputs: number;
  /** Total inputs (2 × `sideInputs`). */
  readonly inputs: number;
  /** Human names of one side block's inputs, in order (docs/neural.md). */
  readonly sideInputNames: readonly string[];
  /** Writes the non-zero inputs of `board` into `out` (indices increasing). Allocation-free. */
  encode(board: Int8Array, out: SparseInput): void;
  /** The WebAssembly kernel's copy of this encoding, if it has one (`NeuralNetwork.forwardShortBoard`): the same inputs. */
  readonly kernel?: KernelEncoding;
}

/** Appends one input if it is non-zero. */
export function push(out: SparseInput, index: number, value: number): void {
  if (value === 0) return;
  const k = out.count;
  out.index[k] = index;
  out.value[k] = value;
  out.count = k + 1;
}

/**
 * The raw point units of one checker count (Tesauro's thermometer): held
 * (≥ 1), made (≥ 2), a spare (≥ 3), and the checkers beyond three divided
 * by `beyondScale`.
 */
export function pushPoint(out: SparseInput, index: number, count: number, beyondScale: number): void {
  if (count <= 0) return;
  push(out, index, 1);
  if (count >= 2) push(out, index + 1, 1);
  if (count >= 3) push(out, index + 2, 1);
  if (count > 3) push(out, index + 3, (count - 3) / beyondScale);
}

/**
 * Both sides of a board by own point, read once per encoding into its own
 * scratch: `own[s * 25 + q]` (s = 0 the side to move, 1 the opponent),
 * `off[s]`, `bar[s]` (short nardy; always 0 in the long family). The board
 * is the family's (src/engine/long/board.ts, src/engine/short/board.ts):
 * [1..24] signed counts by the mover's point, [0] the mover's off;
 * `opponentPoint[p]` is the mover's point p in the opponent's numbering (COM-5).
 */
export class BothSides {
  readonly own = new Int8Array(50);
  readonly bar = new Int8Array(2);
  readonly off = new Int8Array(2);

  constructor(
    readonly opponentPoint: Int8Array,
    private readonly opponentOffIndex: number,
    /** The mover's bar and the opponent's bar (the next index); 0 for a family without a bar. */
    private readonly moverBarIndex: number,
  ) {}

  read(board: Int8Array): this {
    const own = this.own;
    const opponentPoint = this.opponentPoint;
    for (let p = 1; p <= 24; p++) {
      const n = board[p];
      own[p] = n > 0 ? n : 0;
      own[25 + opponentPoint[p]] = n < 0 ? -n : 0;
    }
    const barIndex = this.moverBarIndex;
    if (barIndex > 0) {
      this.bar[0] = board[barIndex];
      this.bar[1] = board[barIndex + 1];
    }
    this.off[0] = board[0];
    this.off[1] = board[this.opponentOffIndex];
    return this;
  }
}

/** `table[p]` = `map(p)` for p = 0..24. */
export function pointTable(map: (p: number) => number): Int8Array {
  const table = new Int8Array(25);
  for (let p = 1; p <= 24; p++) table[p] = map(p);
  return table;
}

/**
 * Builds a two-block encoding: `view` reads the board once (into the
 * encoding's own scratch, or the board itself), then `encodeSide` writes the
 * side to move's block (side 0 at 0) and the opponent's (side 1 at
 * `sideInputs`).
 */
export function twoBlockEncoding<V>(
  family: Family,
  name: string,
  sideInputNames: readonly string[],
  view: (board: Int8Array) => V,
  encodeSide: (view: V, side: number, base: number, out: SparseInput) => void,
): NeuralEncoding {
  const sideInputs = sideInputNames.length;
  return {
    family,
    name,
    sideInputs,
    inputs: 2 * sideInputs,
    sideInputNames,
    encode(board: Int8Array, out: SparseInput): void {
      out.count = 0;
      const v = view(board);
      encodeSide(v, 0, 0, out);
      encodeSide(v, 1, sideInputs, out);
    },
  };
}

/** Encodings by version name, each with the family whose boards it reads. */
export type EncodingTable = Readonly<Record<string, { readonly family: Family; readonly create: () => NeuralEncoding }>>;

/** The encoding of `table` with this family and version name; null if unknown. */
export function encodingIn(table: EncodingTable, family: Family, name: string): NeuralEncoding | null {
  const known = Object.hasOwn(table, name) ? table[name] : undefined;
  return known && known.family === family ? known.create() : null;
}

/**
 * Where each input of `from` sits in `to` when `to` extends `from` (same
 * family, and each side block of `to` begins with the whole side block of
 * `from`, by name): `map[i]` is input i's index in `to`. Null otherwise.
 * Lets a network trained on `from` start on `to` with the same function.
 */
export function inputMap(from: NeuralEncoding, to: NeuralEncoding): Int32Array | null {
  if (from.family !== to.family || from.sideInputs > to.sideInputs) return null;
  for (let i = 0; i < from.sideInputs; i++) if (from.sideInputNames[i] !== to.sideInputNames[i]) return null;
  const map = new Int32Array(from.inputs);
  for (let i = 0; i < from.sideInputs; i++) {
    map[i] = i;
    map[from.sideInputs + i] = to.sideInputs + i;
  }
  return map;
}
