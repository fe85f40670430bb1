/** The two fixed seats (COM-4). Seat A is "white", seat B is "black". */
export type Side = 'white' | 'black';

export const SIDES: readonly Side[] = ['white', 'black'];

export function otherSide(side: Side): Side {
  return side === 'white' ? 'black' : 'white';
}

export function isSide(value: unknown): value is Side {
  return value === 'white' || value === 'black';
}

/** A value kept per seat. */
export interface PerSide<T> {
  white: T;
  black: T;
}

/** A per-seat value built from one side's value and the other's. */
export function perSide<T>(side: Side, mine: T, theirs: T): PerSide<T> {
  return side === 'white' ? { white: mine, black: theirs } : { white: theirs, black: mine };
}

/**
 * The winner by bearing off (LN-END-1 in long nardy): the side to move if his
 * off slot holds all `checkers`, the other side if his does, else null.
 */
export function winnerByOff(turn: Side, moverOff: number, opponentOff: number, checkers: number): Side | null {
  if (moverOff === checkers) return turn;
  if (opponentOff === checkers) return otherSide(turn);
  return null;
}
