import { Dice } from '../../src/engine/dice';
import { CHECKERS } from '../../src/engine/long/board';
import { parseLongPosition, seatCheckers } from '../../src/engine/long/position';
import { LONG_PRESETS, LongPresetName, LongRules } from '../../src/engine/long/rules';
import { PendingStage } from '../../src/engine/long/stages';
import { LongState, LongTurn, LongTurns, legalLongTurns } from '../../src/engine/long/turn';
import { Side } from '../../src/engine/side';

/**
 * Given/When/Then helpers for long-nardy rule tests. Positions are written
 * as in SPEC §7: each side's checkers by its own point numbers; borne-off
 * checkers are whatever is missing from 15.
 */
export interface Setup {
  white: Record<number, number>;
  black: Record<number, number>;
  turn?: Side;
  firstTurn?: { white: boolean; black: boolean };
  pending?: PendingStage[];
}

function off(points: Record<number, number>): number {
  return CHECKERS - Object.values(points).reduce((a, b) => a + b, 0);
}

export function given(setup: Setup): LongState {
  const parsed = parseLongPosition(
    {
      turn: setup.turn ?? 'white',
      white: { points: setup.white, off: off(setup.white) },
      black: { points: setup.black, off: off(setup.black) },
      firstTurn: setup.firstTurn ?? { white: false, black: false },
    },
    'head15',
  );
  if (!parsed.ok) throw new Error(`bad test position: ${parsed.error.message}`);
  return { position: parsed.value, pending: setup.pending ?? [] };
}

export function rules(name: LongPresetName = 'long', overrides: Partial<LongRules> = {}): LongRules {
  return { ...LONG_PRESETS[name], ...overrides };
}

export function turnsOf(r: LongRules, state: LongState, dice?: Dice): LongTurns {
  const result = legalLongTurns(r, state, dice);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** The mover's side of a resulting position in spec notation, e.g. `{24:13, 18:2}` or `{3:1} off:14`. */
export function moverText(turn: LongTurn, mover: Side): string {
  const seat = seatCheckers(turn.state.position, mover);
  const parts: string[] = [];
  for (let p = 24; p >= 1; p--) if (seat.points[p] > 0) parts.push(`${p}:${seat.points[p]}`);
  return `{${parts.join(', ')}}${seat.off > 0 ? ` off:${seat.off}` : ''}`;
}

/** The sorted list of the mover's resulting positions. */
export function results(r: LongRules, state: LongState, dice?: Dice): string[] {
  const mover = state.position.turn;
  return turnsOf(r, state, dice)
    .turns.map((t) => moverText(t, mover))
    .sort();
}

/** Normalises a spec-style expectation `W{24:13, 18:2}` / `{2:3, 1:10} off:2` for comparison. */
export function spec(text: string): string {
  const m = /^[WB]?\{([^}]*)\}(?:\s*off:(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`bad expectation ${text}`);
  const entries = m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => s.split(':').map(Number) as [number, number])
    .sort((a, b) => b[0] - a[0]);
  const total = entries.reduce((a, [, n]) => a + n, 0);
  const offCount = m[2] !== undefined ? Number(m[2]) : CHECKERS - total;
  return `{${entries.map(([p, n]) => `${p}:${n}`).join(', ')}}${offCount > 0 ? ` off:${offCount}` : ''}`;
}

export function specs(...texts: string[]): string[] {
  return texts.map(spec).sort();
}
