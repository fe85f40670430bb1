import { Family } from '../evaluator';
import { NeuralEncoding, encodingIn, push, pushPoint, twoBlockEncoding } from './encoding';
import type { BoardSlots } from './kernel';
import { SparseInput } from './network';

/*
 * The raw encodings of the pruning networks (pruning.ts): only the point
 * units of the full encodings (short-encoding.ts, long-encoding.ts), none
 * of their hand-made inputs (pips, shots, primes, blocked steps …). They
 * cost a few pushes per checker-holding point, so ordering the plays of a
 * roll costs a small fraction of evaluating them with the full network —
 * the point of pruning (gnubg's pruning networks also read only the raw
 * board). Two blocks of the same layout, the side to move's first, each in
 * that side's own numbering (encoding.ts).
 *
 * `short-raw-1`, 99 inputs per side: 0…95 four units per own point 1..24
 * (held, made, a spare, (n − 3)/2 beyond), 96 on the bar, 97 bar/2, 98 off/15.
 *
 * `long-raw-1`, 97 inputs per side: 0…95 four units per own point 1..24
 * (held, ≥ 2, ≥ 3, (n − 3)/4 beyond), 96 off/15.
 */

function pointNames(): string[] {
  return Array.from({ length: 24 }, (_, i) => [`point ${i + 1} held`, `point ${i + 1} ≥2`, `point ${i + 1} ≥3`, `point ${i + 1} beyond 3`]).flat();
}

/** The opponent's own point q as the mover's point: backgammon 25 − q, long nardy q ± 12 (COM-5). */
const SHORT_OPPONENT_POINT = Int8Array.from({ length: 25 }, (_, q) => 25 - q);
const LONG_OPPONENT_POINT = Int8Array.from({ length: 25 }, (_, q) => (q <= 12 ? q + 12 : q - 12));

/** The four units of each own point 1..24 of one side: `sign` 1 and no map for the mover, −1 and the opponent's map for him. */
function pushPoints(out: SparseInput, base: number, board: Int8Array, sign: number, map: Int8Array | null, beyondScale: number): void {
  for (let q = 1; q <= 24; q++) {
    const n = sign * board[map === null ? q : map[q]];
    pushPoint(out, base + (q - 1) * 4, n > 0 ? n : 0, beyondScale);
  }
}

/** `short-raw-1` (board: src/engine/short/board.ts). */
export function createShortRawEncoding(): NeuralEncoding {
  const names = [...pointNames(), 'on the bar', 'bar/2', 'off/15'];
  return twoBlockEncoding('short', 'short-raw-1', names, (board) => board, (board, s, base, out) => {
    pushPoints(out, base, board, s === 0 ? 1 : -1, s === 0 ? null : SHORT_OPPONENT_POINT, 2);
    const bar = board[25 + s];
    if (bar > 0) {
      push(out, base + 96, 1);
      push(out, base + 97, bar / 2);
    }
    push(out, base + 98, board[s === 0 ? 0 : 27] / 15);
  });
}

/**
 * `short-raw-1` of the board `boards[base …]` **seen from the other side**
 * (the mover has just played, the opponent is to roll), written straight
 * from the unflipped board: the same inputs, bit for bit, as encoding
 * `flipBoard` of it (tested), without the flip and without the generic
 * pushes — the pruner (src/eval/prune.ts) encodes every play of every roll
 * this way. `out.count` is set; indices increase.
 */
export function encodeShortRawFlipped(boards: Int8Array, base: number, out: SparseInput): void {
  let k = 0;
  // Block 0, the side to roll: the opponent of the board's mover, whose point q is the mover's 25 − q.
  for (let q = 1; q <= 24; q++) k = writeShortRawPoint(out, k, (q - 1) * 4, -boards[base + 25 - q]);
  k = writeShortRawRest(out, k, 96, boards[base + 26], boards[base + 27]);
  // Block 1: the board's mover, in his own numbering.
  for (let q = 1; q <= 24; q++) k = writeShortRawPoint(out, k, 99 + (q - 1) * 4, boards[base + q]);
  out.count = writeShortRawRest(out, k, 195, boards[base + 25], boards[base]);
}

/**
 * `encodeShortRawFlipped` as board slots (kernel.ts `BoardSlots`), for
 * the kernel's whole-board pass: one slot per board entry it reads, with the
 * same writers, so the same inputs. Slots 0…23 the side to roll's points
 * 1..24 (the mover's 25 − q, negated), 24 and 25 his bar and off, 26…49 the
 * mover's points, 50 and 51 his bar and off.
 */
export function shortRawFlippedSlots(): BoardSlots {
  const offset = new Int32Array(52);
  const sign = new Int32Array(52);
  for (let q = 1; q <= 24; q++) {
    offset[q - 1] = 25 - q;
    sign[q - 1] = -1;
    offset[25 + q] = q;
    sign[25 + q] = 1;
  }
  offset.set([26, 27], 24);
  offset.set([25, 0], 50);
  sign.set([1, 1], 24);
  sign.set([1, 1], 50);
  return {
    boardLength: 28,
    offset,
    sign,
    terms(slot: number, value: number, out: SparseInput): void {
      if (slot < 24) out.count = writeShortRawPoint(out, 0, slot * 4, value);
      else if (slot < 26) out.count = writeShortRawRest(out, 0, 96, slot === 24 ? value : 0, slot === 25 ? value : 0);
      else if (slot < 50) out.count = writeShortRawPoint(out, 0, 99 + (slot - 26) * 4, value);
      else out.count = writeShortRawRest(out, 0, 195, slot === 50 ? value : 0, slot === 51 ? value : 0);
    },
  };
}

/** `pushPoint` (beyond scale 2) at entry `k`, for `encodeShortRawFlipped`: returns the next entry. */
function writeShortRawPoint(out: SparseInput, k: number, i: number, n: number): number {
  if (n <= 0) return k;
  const index = out.index;
  const value = out.value;
  index[k] = i;
  value[k++] = 1;
  if (n < 2) return k;
  index[k] = i + 1;
  value[k++] = 1;
  if (n < 3) return k;
  index[k] = i + 2;
  value[k++] = 1;
  if (n === 3) return k;
  index[k] = i + 3;
  value[k++] = (n - 3) / 2;
  return k;
}

/** The bar and off units of one block (at `i`: on the bar, bar/2, off/15) at entry `k`: returns the next entry. */
function writeShortRawRest(out: SparseInput, k: number, i: number, bar: number, off: number): number {
  if (bar > 0) {
    out.index[k] = i;
    out.value[k++] = 1;
    out.index[k] = i + 1;
    out.value[k++] = bar / 2;
  }
  if (off !== 0) {
    out.index[k] = i + 2;
    out.value[k++] = off / 15;
  }
  return k;
}

/** `long-raw-1` (board: src/engine/long/board.ts). */
export function createLongRawEncoding(): NeuralEncoding {
  return twoBlockEncoding('long', 'long-raw-1', [...pointNames(), 'off/15'], (board) => board, (board, s, base, out) => {
    pushPoints(out, base, board, s === 0 ? 1 : -1, s === 0 ? null : LONG_OPPONENT_POINT, 4);
    push(out, base + 96, board[s === 0 ? 0 : 25] / 15);
  });
}

/** The raw encoding of a family and version name; null if unknown. */
export function rawEncodingFor(family: Family, name: string): NeuralEncoding | null {
  return encodingIn(
    { 'short-raw-1': { family: 'short', create: createShortRawEncoding }, 'long-raw-1': { family: 'long', create: createLongRawEncoding } },
    family,
    name,
  );
}
