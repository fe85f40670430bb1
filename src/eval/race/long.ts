import { Layout } from './model';

export const LONG_LAYOUT: Layout = {
  moverOff: 0,
  opponentOff: 25,
  moverBar: -1,
  opponentBar: -1,
  other: (p) => (p <= 12 ? p + 12 : p - 12),
};

/**
 * Long family: no checker can interact any more. Both sides move the same
 * way round, so the points a side can still reach are all own points below
 * its rearmost checker. Those sets are disjoint exactly when every checker
 * of each side stands on its own points 1..12 (for the side to move, own
 * 1..12; for the opponent, the mover's 13..24): then no landing can be
 * blocked (LN-MOVE-2), no six-block can have an opponent checker behind it
 * (LN-BLOCK-3, FV-5) and no head rule applies, so the game is a pure race.
 */
export function isLongRace(board: Int8Array): boolean {
  for (let p = 13; p <= 24; p++) if (board[p] > 0) return false;
  for (let p = 1; p <= 12; p++) if (board[p] < 0) return false;
  return true;
}

/**
 * Both sides home and none finished (long-family boards, mover's numbering):
 * the mover on its 1..6, the opponent on its own 1..6, which are the
 * mover's 13..18 (both sides move the same way round).
 */
export function isLongBearoff(board: Int8Array): boolean {
  if (board[0] === 15 || board[25] === 15) return false;
  for (let p = 7; p <= 24; p++) if (board[p] > 0) return false;
  for (let p = 1; p <= 24; p++) if (board[p] < 0 && (p < 13 || p > 18)) return false;
  return true;
}
