import { Family } from '../evaluator';
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
