import { moverPips as longMoverPips, opponentPips as longOpponentPips } from '../engine/long/board';
import { moverPips as shortMoverPips, opponentPips as shortOpponentPips } from '../engine/short/board';
import { FAMILY_BOARDS } from './boards';
import { Family } from './evaluator';

/** Pip counts of both sides (COM-3), each in its own numbering. */
export interface PipCounts {
  /** The side to move. */
  readonly mover: number;
  readonly opponent: number;
}

/**
 * Pip counts of a long-family board seen from the side to move (COM-3:
 * the sum of own point numbers; 360 each at the start of long nardy).
 */
export function longPipCounts(board: Int8Array): PipCounts {
  return { mover: longMoverPips(board), opponent: longOpponentPips(board) };
}

/**
 * Pip counts of a short-family board seen from the side to move (COM-3:
 * the bar counts 25; 167 each at the start).
 */
export function shortPipCounts(board: Int8Array): PipCounts {
  return { mover: shortMoverPips(board), opponent: shortOpponentPips(board) };
}

/** Pip counts for either family. */
export function pipCounts(family: Family, board: Int8Array): PipCounts {
  const b = FAMILY_BOARDS[family];
  return { mover: b.moverPips(board), opponent: b.opponentPips(board) };
}
