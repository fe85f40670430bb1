import * as long from '../engine/long/board';
import * as short from '../engine/short/board';
import { Family } from './evaluator';

/** What the evaluation needs of a family's board (seen from the side to move): its size, its flip and its pip counts (COM-3). */
export interface FamilyBoard {
  /** Cells of the board array: 26 for the long family, 28 for backgammon (bars included). */
  readonly length: number;
  flipInto(board: Int8Array, out: Int8Array): Int8Array;
  moverPips(board: Int8Array): number;
  opponentPips(board: Int8Array): number;
}

/** Each family's board, by name: the evaluation's one table of board facts. */
export const FAMILY_BOARDS: Readonly<Record<Family, FamilyBoard>> = Object.freeze({
  long: { length: 26, flipInto: long.flipBoardInto, moverPips: long.moverPips, opponentPips: long.opponentPips },
  short: { length: 28, flipInto: short.flipBoardInto, moverPips: short.moverPips, opponentPips: short.opponentPips },
});
