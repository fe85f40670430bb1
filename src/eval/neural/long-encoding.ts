import { longestRunOnPath } from '../long/path-run';
import { BothSides, NeuralEncoding, pointTable, push, pushPoint, twoBlockEncoding } from './encoding';
import { SparseInput } from './network';

/*
 * Input encoding `long-1` of a long-nardy board (src/engine/long/board.ts:
 * [1..24] signed counts by the mover's point, [0] mover off, [25] opponent
 * off; the mover's point p is the opponent's p ± 12, COM-5). Both sides
 * move the same way round, each from its head (own 24) to its home (own
 * 1..6).
 *
 * One block of 104 inputs per side, in its own numbering:
 * - 0…95: four units per own point 1..24 — held, ≥ 2, ≥ 3, (n − 3)/4
 *   beyond (the head holds up to 15);
 * - 96: borne off /15; 97: pip count /360 (the start);
 * - 98: checkers home (own 1..6) /15;
 * - 99: pips still to cross into home, Σ (p − 6) over checkers outside it,
 *   /100 (the mars danger: nothing can be borne off before it is 0);
 * - 100: the longest run of points this side holds along the **other**
 *   side's path, as the six-block rule measures it (LN-BLOCK-1) /6;
 * - 101: the other side's checkers behind that run (they still have to
 *   pass it) /15;
 * - 102: points held /12;
 * - 103: the share of the other side's single steps (a checker, a die of
 *   1..6) that land on a point this side holds (LN-MOVE-2: blocked).
 */

const NAMES: readonly string[] = [
  ...Array.from({ length: 24 }, (_, i) => [
    `point ${i + 1} held`,
    `point ${i + 1} ≥2`,
    `point ${i + 1} ≥3`,
    `point ${i + 1} (n−3)/4`,
  ]).flat(),
  'off/15',
  'pips/360',
  'checkers home/15',
  'pips to cross into home/100',
  "longest run along the other side's path/6",
  "other side's checkers behind that run/15",
  'points held/12',
  "other side's single steps blocked (share)",
];

const NAMES_2: readonly string[] = [
  ...NAMES,
  "most points held in six in a row of the other side's path/6",
  'checkers in the starting quarter/15',
  "other side's checkers with no open single step/15",
];

/** COM-5 for the long family: the mover's point p is the opponent's p ± 12. */
const OTHER_POINT = pointTable((p) => (p <= 12 ? p + 12 : p - 12));

function encodeSide(sides: BothSides, s: number, base: number, out: SparseInput): void {
  encodeSideWith(sides, s, base, out, false);
}

function encodeSide2(sides: BothSides, s: number, base: number, out: SparseInput): void {
  encodeSideWith(sides, s, base, out, true);
}

function encodeSideWith(sides: BothSides, s: number, base: number, out: SparseInput, extra: boolean): void {
  const own = sides.own;
  const mine = s * 25;
  const his = (1 - s) * 25;
  let pips = 0;
  let home = 0;
  let crossing = 0;
  let held = 0;
  for (let q = 1; q <= 24; q++) {
    const n = own[mine + q];
    if (n <= 0) continue;
    pushPoint(out, base + (q - 1) * 4, n, 4);
    pips += n * q;
    held++;
    if (q <= 6) home += n;
    else crossing += n * (q - 6);
  }
  // Along the other side's path: his own points 24 → 1; ours on his point r is our otherPoint(r).
  const path = longestRunOnPath(own, mine);
  const longest = path >> 5;
  const top = path & 31;
  let behind = 0;
  if (longest > 0) for (let r = top + 1; r <= 24; r++) behind += own[his + r];
  // His single steps from his point r with die d land on his r − d (bearing off excluded).
  let steps = 0;
  let blocked = 0;
  let trapped = 0;
  for (let r = 2; r <= 24; r++) {
    if (own[his + r] <= 0) continue;
    let open = 0;
    for (let d = 1; d <= 6 && r - d >= 1; d++) {
      steps++;
      if (own[mine + OTHER_POINT[r - d]] > 0) blocked++;
      else open++;
    }
    // Outside his home all six steps are on the board; there none open means the checker cannot move alone.
    if (open === 0 && r > 6) trapped += own[his + r];
  }
  push(out, base + 96, sides.off[s] / 15);
  push(out, base + 97, pips / 360);
  push(out, base + 98, home / 15);
  push(out, base + 99, crossing / 100);
  push(out, base + 100, longest / 6);
  push(out, base + 101, behind / 15);
  push(out, base + 102, held / 12);
  push(out, base + 103, steps > 0 ? blocked / steps : 0);
  if (!extra) return;
  // Six in a row of his path (his points r0..r0+5), held by us: LN-BLOCK-1's six-block, or how near it is.
  let window = 0;
  for (let r = 1; r <= 6; r++) if (own[mine + OTHER_POINT[r]] > 0) window++;
  let bestWindow = window;
  for (let r0 = 2; r0 <= 19; r0++) {
    if (own[mine + OTHER_POINT[r0 - 1]] > 0) window--;
    if (own[mine + OTHER_POINT[r0 + 5]] > 0) window++;
    if (window > bestWindow) bestWindow = window;
  }
  let start = 0;
  for (let q = 19; q <= 24; q++) if (own[mine + q] > 0) start += own[mine + q];
  push(out, base + 104, bestWindow / 6);
  push(out, base + 105, start / 15);
  push(out, base + 106, trapped / 15);
}

/** Creates the `long-1` encoding (its scratch is its own: one per evaluator). */
export function createLongEncoding(): NeuralEncoding {
  const sides = new BothSides(OTHER_POINT, 25, 0);
  return twoBlockEncoding('long', 'long-1', NAMES, (board) => sides.read(board), encodeSide);
}

/** Creates the `long-2` encoding: `long-1` and three more inputs per side (see above). */
export function createLongEncoding2(): NeuralEncoding {
  const sides = new BothSides(OTHER_POINT, 25, 0);
  return twoBlockEncoding('long', 'long-2', NAMES_2, (board) => sides.read(board), encodeSide2);
}
