import { BothSides, NeuralEncoding, pointTable, push, pushPoint, twoBlockEncoding } from './encoding';
import { SparseInput } from './network';

/*
 * Input encoding `short-1` of a backgammon board (src/engine/short/board.ts:
 * [1..24] signed counts by the mover's point, [0] mover off, [25] mover bar,
 * [26] opponent bar, [27] opponent off; the mover's point p is the
 * opponent's 25 − p, COM-5).
 *
 * One block of 105 inputs per side, in its own numbering:
 * - 0…95: four units per own point 1..24 — held, made (≥ 2), a spare
 *   (≥ 3), (n − 3)/2 beyond;
 * - 96, 97: checkers on the bar (any; n/2); 98: borne off /15;
 * - 99: pip count /167 (the bar counts 25);
 * - 100: home points made /6; 101: longest prime (consecutive made points) /6;
 * - 102: shots — the share of the other side's 36 rolls that hit at least
 *   one blot of this side, with one die or a combination (a double: up to
 *   four steps), ignoring points blocked on the way;
 * - 103: for a side on the bar, the share of rolls that fail to enter
 *   ((closed points of the other side's home / 6)²), else 0;
 * - 104: back checkers (own 19..24 and the bar) /15.
 */

const NAMES: readonly string[] = [
  ...Array.from({ length: 24 }, (_, i) => [
    `point ${i + 1} held`,
    `point ${i + 1} made`,
    `point ${i + 1} spare`,
    `point ${i + 1} (n−3)/2`,
  ]).flat(),
  'on the bar',
  'bar/2',
  'off/15',
  'pips/167',
  'home points made/6',
  'longest prime/6',
  "shots (share of the other side's rolls hitting a blot)",
  'bar dance (share of rolls failing to enter)',
  'back checkers/15',
];

/** The 21 rolls as (high, low), non-doubles first. */
const ROLLS: readonly (readonly [number, number])[] = (() => {
  const rolls: [number, number][] = [];
  for (let a = 2; a <= 6; a++) for (let b = 1; b < a; b++) rolls.push([a, b]);
  for (let a = 1; a <= 6; a++) rolls.push([a, a]);
  return rolls;
})();

/** HIT_ROLLS[d]: bit i set when roll i of `ROLLS` can travel exactly d pips with one checker (blocking ignored). */
const HIT_ROLLS: Int32Array = (() => {
  const masks = new Int32Array(25);
  ROLLS.forEach(([a, b], i) => {
    const reach = a === b ? [a, 2 * a, 3 * a, 4 * a] : [a, b, a + b];
    for (const d of reach) if (d <= 24) masks[d] |= 1 << i;
  });
  return masks;
})();

/** Rolls out of 36 in a mask of `ROLLS` (non-doubles count twice). */
function rollsOutOf36(mask: number): number {
  let n = 0;
  for (let i = 0; i < ROLLS.length; i++) if (mask & (1 << i)) n += ROLLS[i][0] === ROLLS[i][1] ? 1 : 2;
  return n;
}

/** COM-5 for short nardy: the mover's point p is the opponent's 25 − p. */
const OTHER_POINT = pointTable((p) => 25 - p);

function encodeSide(sides: BothSides, s: number, base: number, out: SparseInput): void {
  const own = sides.own;
  const mine = s * 25;
  const his = (1 - s) * 25;
  let pips = 25 * sides.bar[s];
  let homeMade = 0;
  let run = 0;
  let longest = 0;
  let back = sides.bar[s];
  let blotMask = 0; // bit b: a blot on own point b
  for (let q = 1; q <= 24; q++) {
    const n = own[mine + q];
    pushPoint(out, base + (q - 1) * 4, n, 2);
    pips += n * q;
    if (n >= 2) {
      run++;
      if (run > longest) longest = run;
      if (q <= 6) homeMade++;
    } else run = 0;
    if (n === 1) blotMask |= 1 << q;
    if (q >= 19) back += n;
  }
  const bar = sides.bar[s];
  if (bar > 0) {
    push(out, base + 96, 1);
    push(out, base + 97, bar / 2);
  }
  push(out, base + 98, sides.off[s] / 15);
  push(out, base + 99, pips / 167);
  push(out, base + 100, homeMade / 6);
  push(out, base + 101, longest / 6);
  if (blotMask !== 0) {
    // The other side's checker on its own point r stands on our 25 − r and
    // moves up our numbering; from its bar it starts at our 0.
    // `hisMask` bit t: one of his checkers stands on our point t; each blot looks at the set bits below it only.
    let rolls = 0;
    const hisBar = sides.bar[1 - s];
    let hisMask = 0;
    for (let at = 1; at < 24; at++) if (own[his + 25 - at] > 0) hisMask |= 1 << at;
    for (let b = 1; b <= 24; b++) {
      if ((blotMask & (1 << b)) === 0) continue;
      if (hisBar > 0) rolls |= HIT_ROLLS[b];
      for (let below = hisMask & ((1 << b) - 1); below !== 0; below &= below - 1) rolls |= HIT_ROLLS[b - (31 - Math.clz32(below & -below))];
    }
    push(out, base + 102, rollsOutOf36(rolls) / 36);
  }
  if (bar > 0) {
    // His home (his 1..6) is our 19..24.
    let closed = 0;
    for (let r = 1; r <= 6; r++) if (own[his + r] >= 2) closed++;
    push(out, base + 103, (closed / 6) * (closed / 6));
  }
  push(out, base + 104, back / 15);
}

/** Creates the `short-1` encoding (its scratch is its own: one per evaluator). */
export function createShortEncoding(): NeuralEncoding {
  const sides = new BothSides(OTHER_POINT, 27, 25);
  return twoBlockEncoding('short', 'short-1', NAMES, (board) => sides.read(board), encodeSide);
}
