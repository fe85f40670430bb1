import { MOVER_BAR, MOVER_OFF, OPPONENT_BAR, ShortBoard, moverOutsideHome } from './board';

/**
 * Why a single step is illegal in short nardy; 0 means legal. Checked in
 * the order of ALG-1: own checker, bar first, landing point, bear-off.
 */
export enum ShortStepFault {
  None = 0,
  /** The source holds no checker of the mover. */
  NoChecker = 1,
  /** SH-BAR-1: a checker on the bar must enter before any other moves. */
  MustEnterFromBar = 2,
  /** SH-MOVE-1: two or more opponent checkers hold the landing point. */
  Blocked = 3,
  /** SH-OFF-1 / LN-OFF-1: not every checker is home (the bar counts as outside). */
  BearOffNotAllHome = 4,
  /** SH-OFF-1 / LN-OFF-3: an oversized die bears off only from the highest occupied point. */
  BearOffHigherChecker = 5,
}

/**
 * Legality of one step of `die` pips from `from` (own numbering, 25 = the
 * bar) on a board seen from the mover. The reference check used by
 * validation and tests; the move generator inlines the same rules.
 */
export function shortStepFault(board: ShortBoard, from: number, die: number): ShortStepFault {
  if (!Number.isInteger(from) || from < 1 || from > MOVER_BAR || board[from] <= 0)
    return ShortStepFault.NoChecker;
  if (board[MOVER_BAR] > 0 && from !== MOVER_BAR) return ShortStepFault.MustEnterFromBar; // SH-BAR-1
  const to = from - die;
  if (to >= 1) return board[to] < -1 ? ShortStepFault.Blocked : ShortStepFault.None; // SH-MOVE-1
  if (moverOutsideHome(board) > 0) return ShortStepFault.BearOffNotAllHome; // SH-OFF-1, LN-OFF-1
  if (to === 0) return ShortStepFault.None; // LN-OFF-2
  for (let p = from + 1; p <= 6; p++) if (board[p] > 0) return ShortStepFault.BearOffHigherChecker; // LN-OFF-3
  return ShortStepFault.None;
}

/**
 * Plays one step known to be legal, in place. Landing on a single opponent
 * checker hits it: it goes to the opponent's bar (SH-MOVE-1).
 * @returns whether the step hit
 */
export function applyShortStep(board: ShortBoard, from: number, die: number): boolean {
  board[from]--;
  const to = from - die;
  if (to <= 0) {
    board[MOVER_OFF]++;
    return false;
  }
  if (board[to] === -1) {
    board[to] = 1;
    board[OPPONENT_BAR]++;
    return true;
  }
  board[to]++;
  return false;
}
