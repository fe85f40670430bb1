/**
 * One checker moved by one die-unit (COM-8), in the mover's own numbering:
 * points 1..24, `0` = off (borne off), `25` = the bar (short nardy only, a source).
 */
export interface Step {
  readonly from: number;
  readonly to: number;
}

export const OFF = 0;
export const BAR = 25;

export function isStepShape(value: unknown): value is Step {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Number.isInteger(v.from) && Number.isInteger(v.to);
}
