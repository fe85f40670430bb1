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
