import { LossCounts } from '../scoring/loss';

/**
 * The short-nardy (backgammon) board seen from the side to move.
 *
 * An `Int8Array` of 28 entries:
 * - `[1..24]`: signed checker counts by the **mover's own** point number
 *   (COM-2): positive = the mover's checkers, negative = the opponent's.
 *   A point never holds checkers of both sides (SH-MOVE-1: landing on a
 *   blot hits it), so one signed count per point is exact.
 * - `[0]` (`MOVER_OFF`): the mover's checkers borne off — the index is the
 *   pseudo-point 0 of a bear-off step (`OFF`).
 * - `[25]` (`MOVER_BAR`): the mover's checkers on the bar — the index is the
 *   pseudo-point 25 a step from the bar starts on (`BAR`).
 * - `[26]` (`OPPONENT_BAR`), `[27]` (`OPPONENT_OFF`): the opponent's.
 *
 * The mover's point p is the opponent's point `25 − p` (COM-5, GEO-S1).
 */
export type ShortBoard = Int8Array;

export const BOARD_LENGTH = 28;
export const MOVER_OFF = 0;
export const MOVER_BAR = 25;
export const OPPONENT_BAR = 26;
export const OPPONENT_OFF = 27;
export const CHECKERS = 15;

/** COM-5 for short nardy: the same point in the other side's numbering; its own inverse. */
export function otherPoint(p: number): number {
  return 25 - p;
}

/** A board with no checkers (for builders; not a position until filled). */
export function emptyBoard(): ShortBoard {
  return new Int8Array(BOARD_LENGTH);
}

/** Writes into `out` (not `board`) the same position seen from the other side. */
export function flipBoardInto(board: ShortBoard, out: ShortBoard): ShortBoard {
  for (let p = 1; p <= 24; p++) out[25 - p] = -board[p];
  out[MOVER_OFF] = board[OPPONENT_OFF];
  out[OPPONENT_OFF] = board[MOVER_OFF];
  out[MOVER_BAR] = board[OPPONENT_BAR];
  out[OPPONENT_BAR] = board[MOVER_BAR];
  return out;
}

/** The same position seen from the other side, as a fresh board. */
export function flipBoard(board: ShortBoard): ShortBoard {
  return flipBoardInto(board, new Int8Array(BOARD_LENGTH));
}

/** Pip count of the mover (COM-3): own point numbers, the bar counting 25. */
export function moverPips(board: ShortBoard): number {
  let n = board[MOVER_BAR] * 25;
  for (let p = 1; p <= 24; p++) if (board[p] > 0) n += board[p] * p;
  return n;
}

/** Pip count of the opponent in his own numbering (COM-3). */
export function opponentPips(board: ShortBoard): number {
  let n = board[OPPONENT_BAR] * 25;
  for (let p = 1; p <= 24; p++) if (board[p] < 0) n -= board[p] * (25 - p);
  return n;
}

/** The mover's checkers not yet home: on own points 7..24 or on the bar (SH-OFF-1). */
export function moverOutsideHome(board: ShortBoard): number {
  let n = board[MOVER_BAR];
  for (let p = 7; p <= 24; p++) if (board[p] > 0) n += board[p];
  return n;
}

/** Same checkers on the same points, bars and trays. */
export function boardsEqual(a: ShortBoard, b: ShortBoard): boolean {
  for (let i = 0; i < BOARD_LENGTH; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A string key of the whole position (both sides), for sets and maps outside hot loops. */
export function boardKey(board: ShortBoard): string {
  let s = '';
  for (let i = 0; i < BOARD_LENGTH; i++) s += String.fromCharCode(80 + board[i]);
  return s;
}

/**
 * Checks the invariants every position satisfies: 15 checkers a side
 * (points + bar + off), counts in range. Points are never shared by
 * construction of the signed counts.
 */
export function isWellFormed(board: ShortBoard): boolean {
  if (board.length !== BOARD_LENGTH) return false;
  let mover = board[MOVER_OFF] + board[MOVER_BAR];
  let opponent = board[OPPONENT_OFF] + board[OPPONENT_BAR];
  for (const i of [MOVER_OFF, MOVER_BAR, OPPONENT_BAR, OPPONENT_OFF]) if (board[i] < 0) return false;
  for (let p = 1; p <= 24; p++) {
    if (board[p] > 0) mover += board[p];
    else opponent -= board[p];
  }
  return mover === CHECKERS && opponent === CHECKERS;
}

/**
 * The loser's checkers on a finished board as the scoring core's `lossKind`
 * counts them, in his own numbering: the mover's (`moverLost`) or the
 * opponent's, whose own point q is the mover's 25 − q.
 */
export function shortLossCounts(board: ShortBoard, moverLost: boolean): LossCounts {
  const off = moverLost ? board[MOVER_OFF] : board[OPPONENT_OFF];
  const bar = moverLost ? board[MOVER_BAR] : board[OPPONENT_BAR];
  let home = 0;
  let outside = 0;
  let startQuarter = 0;
  for (let own = 1; own <= 24; own++) {
    const n = moverLost ? board[own] : -board[otherPoint(own)];
    if (n <= 0) continue;
    if (own <= 6) home += n;
    else outside += n;
    if (own >= 19) startQuarter += n;
  }
  return { off, bar, home, outside, startQuarter };
}
