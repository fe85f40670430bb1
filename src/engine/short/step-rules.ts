import { StepFault } from '../step-fault';
import { MOVER_BAR, MOVER_OFF, OPPONENT_BAR, ShortBoard, moverOutsideHome } from './board';

/** The step faults of short nardy, checked in the order of ALG-1. */
export type ShortStepFault =
  | StepFault.None
  | StepFault.NoChecker
  | StepFault.MustEnterFromBar
  | StepFault.Blocked
  | StepFault.BearOffNotAllHome
  | StepFault.BearOffHigherChecker;

/**
 * Legality of one step of `die` pips from `from` (own numbering, 25 = the
 * bar) on a board seen from the mover. The reference check used by
 * validation and tests; the move generator inlines the same rules.
 */
export function shortStepFault(board: ShortBoard, from: number, die: number): ShortStepFault {
  if (!Number.isInteger(from) || from < 1 || from > MOVER_BAR || board[from] <= 0)
    return StepFault.NoChecker;
  if (board[MOVER_BAR] > 0 && from !== MOVER_BAR) return StepFault.MustEnterFromBar; // SH-BAR-1
  const to = from - die;
  if (to >= 1) return board[to] < -1 ? StepFault.Blocked : StepFault.None; // SH-MOVE-1
  if (moverOutsideHome(board) > 0) return StepFault.BearOffNotAllHome; // SH-OFF-1, LN-OFF-1
  if (to === 0) return StepFault.None; // LN-OFF-2
  for (let p = from + 1; p <= 6; p++) if (board[p] > 0) return StepFault.BearOffHigherChecker; // LN-OFF-3
  return StepFault.None;
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
