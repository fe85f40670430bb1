import { BearoffRuleSet } from '../../src/eval/bearoff/build';
import { BearoffDatabase } from '../../src/eval/bearoff/database';
import { fileBearoffSource } from '../../src/service/analysis/data';

const committedBearoff = fileBearoffSource();

/**
 * Position builders for the evaluation tests. Each side is given by its own
 * point numbers (SPEC §7 notation: `{6: 5, 8: 3}`); whatever is missing from
 * 15 is borne off unless `off` says otherwise.
 */
export interface SideSpec {
  readonly points: Readonly<Record<number, number>>;
  readonly bar?: number;
  readonly off?: number;
}

function count(side: SideSpec): number {
  return Object.values(side.points).reduce((a, b) => a + b, 0) + (side.bar ?? 0);
}

/** A backgammon board seen from the side to move (src/engine/short/board.ts). */
export function shortBoard(mover: SideSpec, opponent: SideSpec): Int8Array {
  const b = new Int8Array(28);
  for (const [p, n] of Object.entries(mover.points)) b[Number(p)] += n;
  for (const [p, n] of Object.entries(opponent.points)) b[25 - Number(p)] -= n;
  b[25] = mover.bar ?? 0;
  b[26] = opponent.bar ?? 0;
  b[0] = mover.off ?? 15 - count(mover);
  b[27] = opponent.off ?? 15 - count(opponent);
  return b;
}

/** A long-nardy board seen from the side to move (src/engine/long/board.ts). */
export function longBoard(mover: SideSpec, opponent: SideSpec): Int8Array {
  const b = new Int8Array(26);
  for (const [p, n] of Object.entries(mover.points)) b[Number(p)] += n;
  for (const [p, n] of Object.entries(opponent.points)) {
    const q = Number(p) <= 12 ? Number(p) + 12 : Number(p) - 12;
    b[q] -= n;
  }
  b[0] = mover.off ?? 15 - count(mover);
  b[25] = opponent.off ?? 15 - count(opponent);
  return b;
}

/** The committed database of a rule set (data/, read once). */
export function database(ruleSet: BearoffRuleSet = 'standard'): BearoffDatabase {
  return committedBearoff(ruleSet);
}
