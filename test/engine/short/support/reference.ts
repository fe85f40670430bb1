import { Dice } from '../../../../src/engine/dice';
import { Side } from '../../../../src/engine/side';
import { Step } from '../../../../src/engine/step';
import { ShortPosition, initialShortPosition } from '../../../../src/engine/short/position';
import { SHORT_STANDARD } from '../../../../src/engine/short/rules';
import { legalShortTurns } from '../../../../src/engine/short/turn';

/*
 * A deliberately naive, independent reading of the rules for cross-checks:
 * plain arrays, every ordered sequence of steps in every order of the
 * units (ALG-1), every node a candidate (ALG-3), then ALG-5/ALG-6 and the
 * gnubg reading of MAX-6. Nothing here is shared with src/engine/short
 * except the board layout (28 signed counts seen from the mover).
 */

export function referenceStepLegal(board: ArrayLike<number>, from: number, die: number): boolean {
  if (from < 1 || from > 25 || board[from] <= 0) return false;
  if (board[25] > 0 && from !== 25) return false; // the bar first
  const to = from - die;
  if (to >= 1) return board[to] >= -1; // two or more opponent checkers close a point
  if (board[25] > 0) return false;
  for (let p = 7; p <= 24; p++) if (board[p] > 0) return false; // all home
  if (to === 0) return true;
  for (let p = from + 1; p <= 6; p++) if (board[p] > 0) return false; // oversized: highest point only
  return true;
}

/** Plays a step on a copy; returns the new board and whether it hit. */
export function referenceApply(
  board: ArrayLike<number>,
  from: number,
  die: number,
): { board: number[]; hit: boolean } {
  const b = Array.from(board);
  b[from]--;
  const to = from - die;
  if (to <= 0) {
    b[0]++;
    return { board: b, hit: false };
  }
  if (b[to] === -1) {
    b[to] = 1;
    b[26]++;
    return { board: b, hit: true };
  }
  b[to]++;
  return { board: b, hit: false };
}

export interface ReferencePlays {
  maxUnits: number;
  /** Distinct resulting positions of the legal plays. */
  keys: Set<string>;
  /** Every step list the rules accept as a complete play (all orders, and shorter wins reaching a legal position). */
  complete: Set<string>;
  /** Every prefix of those (including the empty list and the complete ones). */
  prefixes: Set<string>;
}

export const keyOf = (board: ArrayLike<number>): string => Array.from(board).join(',');
export const stepsKey = (steps: readonly Step[]): string => steps.map((s) => `${s.from}/${s.to}`).join(' ');

export function referencePlays(board: ArrayLike<number>, dice: Dice): ReferencePlays {
  const units = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
  const larger = Math.max(dice[0], dice[1]);
  interface Node {
    board: number[];
    steps: Step[];
    dies: number[];
  }
  const nodes: Node[] = [];
  const walk = (b: number[], left: number[], steps: Step[], dies: number[]): void => {
    nodes.push({ board: b, steps, dies });
    if (b[0] === 15) return; // the game is won: the rest of the roll is void
    const tried = new Set<number>();
    for (let i = 0; i < left.length; i++) {
      const die = left[i];
      if (tried.has(die)) continue;
      tried.add(die);
      for (let from = 25; from >= 1; from--) {
        if (!referenceStepLegal(b, from, die)) continue;
        const next = referenceApply(b, from, die);
        const rest = left.slice(0, i).concat(left.slice(i + 1));
        walk(next.board, rest, [...steps, { from, to: Math.max(0, from - die) }], [...dies, die]);
      }
    }
  };
  walk(Array.from(board), units, [], []);
  const maxUnits = Math.max(...nodes.map((n) => n.steps.length));
  let kept = nodes.filter((n) => n.steps.length === maxUnits);
  if (dice[0] !== dice[1] && maxUnits === 1 && kept.some((n) => n.dies[0] === larger)) {
    kept = kept.filter((n) => n.dies[0] === larger);
  }
  const keys = new Set(kept.map((n) => keyOf(n.board)));
  const complete = new Set<string>();
  for (const n of nodes) {
    if (keys.has(keyOf(n.board)) && (n.steps.length === maxUnits || n.board[0] === 15))
      complete.add(stepsKey(n.steps));
  }
  // Sequences that reach a legal position are complete; their prefixes may be submitted step by step.
  const prefixes = new Set<string>();
  for (const n of nodes) {
    if (!complete.has(stepsKey(n.steps))) continue;
    for (let k = 0; k <= n.steps.length; k++) prefixes.add(stepsKey(n.steps.slice(0, k)));
  }
  return { maxUnits, keys, complete, prefixes };
}

/** A small seeded generator (mulberry32). */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A position after `plies` random legal turns from the start (stops before a game ends). */
export function selfPlayPosition(seed: number, plies: number, first: Side = 'white'): ShortPosition {
  const random = randomSource(seed);
  let position = initialShortPosition(first);
  for (let i = 0; i < plies; i++) {
    const dice: Dice = [1 + Math.floor(random() * 6), 1 + Math.floor(random() * 6)];
    const r = legalShortTurns(SHORT_STANDARD, position, dice);
    if (!r.ok) throw new Error(r.error.message);
    const turn = r.value.turns[Math.floor(random() * r.value.turns.length)];
    if (turn.gameOver) break;
    position = turn.position;
  }
  return position;
}
