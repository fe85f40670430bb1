import { LossCounts } from '../scoring/loss';

/**
 * The long-nardy board seen from the side to move.
 *
 * An `Int8Array` of 26 entries:
 * - `[1..24]`: signed checker counts by the **mover's own** point number
 *   (COM-2): positive = the mover's checkers, negative = the opponent's.
 *   In long nardy a point is never shared (LN-MOVE-2), so one signed count
 *   per point is exact.
 * - `[0]`: the mover's checkers borne off; `[25]`: the opponent's.
 *
 * The mover's point p is the opponent's point `otherPoint(p)` (COM-5): the
 * opponent's head (his 24) is the mover's 12.
 */
export type LongBoard = Int8Array;

export const BOARD_LENGTH = 26;
export const MOVER_OFF = 0;
export const OPPONENT_OFF = 25;
export const CHECKERS = 15;
export const HEAD = 24;

/** COM-5 for the long family: p ↔ p±12; its own inverse. */
export function otherPoint(p: number): number {
  return p <= 12 ? p + 12 : p - 12;
}

export function emptyBoard(): LongBoard {
  return new Int8Array(BOARD_LENGTH);
}

/** Writes into `out` the same board seen from the other side. */
export function flipBoardInto(board: LongBoard, out: LongBoard): LongBoard {
  for (let p = 1; p <= 24; p++) out[otherPoint(p)] = -board[p];
  out[MOVER_OFF] = board[OPPONENT_OFF];
  out[OPPONENT_OFF] = board[MOVER_OFF];
  return out;
}

export function flipBoard(board: LongBoard): LongBoard {
  return flipBoardInto(board, new Int8Array(BOARD_LENGTH));
}

/** Checkers of the mover still on the board. */
export function moverOnBoard(board: LongBoard): number {
  return CHECKERS - board[MOVER_OFF];
}

/** The mover's checkers on own points 7..24 (those not yet home). */
export function moverOutsideHome(board: LongBoard): number {
  let n = 0;
  for (let p = 7; p <= 24; p++) if (board[p] > 0) n += board[p];
  return n;
}

/** Pip count of the mover (COM-3): the sum of own point numbers. */
export function moverPips(board: LongBoard): number {
  let n = 0;
  for (let p = 1; p <= 24; p++) if (board[p] > 0) n += board[p] * p;
  return n;
}

export function opponentPips(board: LongBoard): number {
  let n = 0;
  for (let p = 1; p <= 24; p++) if (board[p] < 0) n -= board[p] * otherPoint(p);
  return n;
}

export function boardsEqual(a: LongBoard, b: LongBoard): boolean {
  for (let i = 0; i < BOARD_LENGTH; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Exact dedup key of the mover's checkers, as two integers below 2^48.
 * Counts are ≤ 15, so base-16 digits: points 1..12 in `low`, 13..24 in `high`.
 * The opponent never changes during a stage of long nardy, so the mover's
 * checkers identify a resulting position (ALG-7).
 */
export const KEY_WEIGHT: Float64Array = (() => {
  const w = new Float64Array(25);
  for (let p = 1; p <= 24; p++) w[p] = Math.pow(16, (p - 1) % 12);
  return w;
})();

export function keyLow(board: LongBoard): number {
  let k = 0;
  for (let p = 1; p <= 12; p++) if (board[p] > 0) k += board[p] * KEY_WEIGHT[p];
  return k;
}

export function keyHigh(board: LongBoard): number {
  let k = 0;
  for (let p = 13; p <= 24; p++) if (board[p] > 0) k += board[p] * KEY_WEIGHT[p];
  return k;
}

/**
 * The loser's checkers on a finished board as the scoring core's `lossKind`
 * counts them, in his own numbering: the mover's (`moverLost`) or the
 * opponent's (own point `otherPoint(p)` for the mover's p). No bar (LN-MOVE-2).
 */
export function longLossCounts(board: LongBoard, moverLost: boolean): LossCounts {
  const off = moverLost ? board[MOVER_OFF] : board[OPPONENT_OFF];
  let home = 0;
  let outside = 0;
  let startQuarter = 0;
  for (let p = 1; p <= 24; p++) {
    const n = moverLost ? board[p] : -board[p];
    if (n <= 0) continue;
    const own = moverLost ? p : otherPoint(p);
    if (own <= 6) home += n;
    else outside += n;
    if (own >= 19) startQuarter += n;
  }
  return { off, bar: 0, home, outside, startQuarter };
}
