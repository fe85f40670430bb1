import { Dice } from '../../../../src/engine/dice';
import { makeNotation } from '../../../../src/engine/notation';
import { Side, otherSide } from '../../../../src/engine/side';
import { Step } from '../../../../src/engine/step';
import { CHECKERS } from '../../../../src/engine/short/board';
import { ShortPosition, parseShortPosition, shortSeat } from '../../../../src/engine/short/position';
import { SHORT_STANDARD, ShortRules } from '../../../../src/engine/short/rules';
import { ShortTurn, ShortTurns, legalShortTurns } from '../../../../src/engine/short/turn';
import { ShortValidation, validateShortPlay } from '../../../../src/engine/short/validate';

/**
 * Given/When/Then helpers for short-nardy rule tests. Sides are written as
 * in SPEC §7: `W{13:5, 8:4, 6:5} bar:1` — checkers by the side's own point
 * numbers, then optional `bar:n` and `off:n`; without `off`, borne-off
 * checkers are whatever is missing from 15.
 */
interface SideSetup {
  points: Record<string, number>;
  bar: number;
  off: number;
}

function readSide(text: string): SideSetup {
  const m = /^[WB]?\{([^}]*)\}((?:\s+(?:bar|off):\d+)*)$/.exec(text.trim());
  if (!m) throw new Error(`cannot read side "${text}"`);
  const points: Record<string, number> = {};
  let total = 0;
  for (const entry of m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [p, n] = entry.split(':').map(Number);
    points[String(p)] = (points[String(p)] ?? 0) + n;
    total += n;
  }
  const bar = Number(/bar:(\d+)/.exec(m[2])?.[1] ?? 0);
  const offGiven = /off:(\d+)/.exec(m[2])?.[1];
  const off = offGiven === undefined ? CHECKERS - total - bar : Number(offGiven);
  return { points, bar, off };
}

/** Given: white and black written as in SPEC §7; white to move unless told. */
export function given(white: string, black: string, turn: Side = 'white'): ShortPosition {
  const parsed = parseShortPosition({ turn, white: readSide(white), black: readSide(black) });
  if (!parsed.ok) throw new Error(`bad test position: ${parsed.error.code} ${parsed.error.message}`);
  return parsed.value;
}

/** When: the side to move rolls `dice`. */
export function rolls(position: ShortPosition, dice: Dice, rules: ShortRules = SHORT_STANDARD): ShortTurns {
  const result = legalShortTurns(rules, position, dice);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

export function validate(
  position: ShortPosition,
  dice: Dice,
  steps: Step[],
  rules: ShortRules = SHORT_STANDARD,
): ShortValidation {
  const result = validateShortPlay(rules, position, dice, steps);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** One side of a position in spec notation: `{24:2, 13:5} bar:1 off:3`. */
export function sideText(position: ShortPosition, side: Side): string {
  const seat = shortSeat(position, side);
  const parts: string[] = [];
  for (let p = 24; p >= 1; p--) if (seat.points[p] > 0) parts.push(`${p}:${seat.points[p]}`);
  return `{${parts.join(', ')}}${seat.bar > 0 ? ` bar:${seat.bar}` : ''}${seat.off > 0 ? ` off:${seat.off}` : ''}`;
}

/** Normalises a spec-style side `W{24:2, 13:5} bar:1` for comparison with `sideText`. */
export function spec(text: string): string {
  const s = readSide(text);
  const entries = Object.entries(s.points)
    .map(([p, n]) => [Number(p), n] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[0] - a[0]);
  return `{${entries.map(([p, n]) => `${p}:${n}`).join(', ')}}${s.bar > 0 ? ` bar:${s.bar}` : ''}${s.off > 0 ? ` off:${s.off}` : ''}`;
}

/** The mover's side after a turn, in spec notation. */
export function moverAfter(turn: ShortTurn, mover: Side): string {
  return sideText(turn.position, mover);
}

/** The opponent's side after a turn, in spec notation (hits show as `bar:n`). */
export function opponentAfter(turn: ShortTurn, mover: Side): string {
  return sideText(turn.position, otherSide(mover));
}

/** Each result as `mover | opponent`, sorted: two plays differing only by a hit are different. */
export function results(turns: ShortTurns, mover: Side = 'white'): string[] {
  return turns.turns.map((t) => `${moverAfter(t, mover)} | ${opponentAfter(t, mover)}`).sort();
}

/** The canonical plays in notation (`bar/24*`, `13/10*\/5`), sorted. */
export function plays(turns: ShortTurns): string[] {
  return turns.turns.map((t) => makeNotation(t.steps, t.hits)).sort();
}

/** Steps from compact text: `25/24 24/18` (25 = bar, 0 = off). */
export function steps(text: string): Step[] {
  if (text.trim() === '') return [];
  return text
    .trim()
    .split(/\s+/)
    .map((pair) => {
      const [from, to] = pair.split('/').map((t) => (t === 'bar' ? 25 : t === 'off' ? 0 : Number(t)));
      return { from, to };
    });
}
