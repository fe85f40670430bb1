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
