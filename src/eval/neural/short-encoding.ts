import { BothSides, NeuralEncoding, pointTable, push, pushPoint, twoBlockEncoding } from './encoding';
import type { KernelEncoding } from './kernel';
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

/*
 * Input encoding `short-2`: each side block is `short-1`'s 105 inputs
 * followed by 8 of the kind gnubg's contact networks are given (so a
 * `short-1` network starts on it with the same function, `inputMap`). For
 * the side s of the block, with "he" the other side, whose checkers move up
 * s's numbering (his point r is s's 25 − r; from his bar he starts at s's 0):
 * - 105: shots with his blocking respected — the share of his 36 rolls that
 *   hit a blot of s, each checker's moves landing only on points s has not
 *   made (a combination needs an open point on the way; a double, each step);
 * - 106: pip loss — the mean over his 36 rolls of the pips s loses to the
 *   worst hit (a blot on s's point b goes back 25 − b pips), /25;
 * - 107: escapes — the share of s's 36 rolls that carry s's rearmost checker
 *   past his last made point within 12 points in front of it (all 36 when
 *   there is none; `escapeRolls`);
 * - 108: containment — 1 − the fewest escapes (/36) of a checker of s on any
 *   of s's points 15..24, whether or not one stands there;
 * - 109: pips to break contact — for s's checkers behind his rearmost
 *   checker, the pips to get past it, /100;
 * - 110: back anchor — s's rearmost made point in his home (s's 19..24),
 *   (point − 18)/6, else 0;
 * - 111: points made in his home (s's 19..24) /3 (two or more: a back game);
 * - 112: checkers of s in the outfield (s's 7..18) /15.
 */

const NAMES_2: readonly string[] = [
  ...NAMES,
  'shots with blocking (share of his rolls hitting a blot)',
  'pip loss to the worst hit (mean over his rolls)/25',
  "escapes of the rearmost checker (share of rolls past his last point in front)",
  'containment: 1 − fewest escapes from points 15..24',
  'pips to break contact/100',
  'back anchor (point − 18)/6',
  'points made in his home/3',
  'checkers in the outfield/15',
];

/**
 * ESCAPES[window]: rolls out of 36 with which a checker passes every blocked
 * point of the 12 in front of it, where bit j of `window` is the point
 * 12 − j pips ahead (so a checker on point p finds its window in one shift
 * of the blocked points, `blocked >>> (p − 12)`). A step may not land on a
 * blocked point (a combination's or a double's intermediate landings
 * included); a landing beyond the 12 points counts as open. 36 when no
 * point is blocked.
 */
const ESCAPES: Uint8Array = (() => {
  const table = new Uint8Array(1 << 12);
  const open = (window: number, d: number): boolean => d > 12 || (window & (1 << (12 - d))) === 0;
  for (let window = 0; window < 1 << 12; window++) {
    if (window === 0) {
      table[window] = 36;
      continue;
    }
    const need = 12 - (31 - Math.clz32(window & -window)) + 1; // pips to pass the furthest blocked point
    let n = 0;
    for (const [a, b] of ROLLS) {
      let ok = false;
      if (a === b) {
        for (let k = 1; k <= 4 && open(window, k * a); k++) if (k * a >= need) ok = true;
      } else {
        ok =
          (a >= need && open(window, a)) ||
          (b >= need && open(window, b)) ||
          (a + b >= need && open(window, a + b) && (open(window, a) || open(window, b)));
      }
      if (ok) n += a === b ? 1 : 2;
    }
    table[window] = n;
  }
  return table;
})();

/** Rolls out of 36 that carry a checker on point p (1..25, 25 the bar) past the blocked points in front of it. */
export function escapeRolls(blocked: number, p: number): number {
  // Bit q of `blocked`: point q (1..24) is blocked; the 12 points in front of p are p − 12 … p − 1.
  // Points below 1 are never blocked, so a shift that brings in zeros reads them as open.
  const window = p >= 12 ? blocked >>> (p - 12) : blocked << (12 - p);
  return ESCAPES[window & 0xfff];
}

/** Points 1..24 as bits (bit q: point q). */
const BOARD_POINTS = 0x1fffffe;

/**
 * Bit t of the result: one of his checkers (bit f of `from`: on s's point f,
 * 0 his bar) can end one move of the roll (a, b) on s's point t, landing
 * only on points of `free` (on the board, not made by s). All his checkers
 * move at once: shifting the set by a die moves each of them, and a set
 * member that lands on a closed point drops out as that checker's move would.
 */
function reachAll(from: number, a: number, b: number, free: number): number {
  if (a === b) {
    const t1 = (from << a) & free;
    const t2 = (t1 << a) & free;
    const t3 = (t2 << a) & free;
    return t1 | t2 | t3 | ((t3 << a) & free);
  }
  const ta = (from << a) & free;
  const tb = (from << b) & free;
  return ta | tb | (((ta << b) | (tb << a)) & free);
}

/** The 21 rolls' dice and weights (of 36) as flat arrays, for the hot loop. */
const ROLL_A = Int8Array.from(ROLLS, (r) => r[0]);
const ROLL_B = Int8Array.from(ROLLS, (r) => r[1]);

function encodeSide2(sides: BothSides, s: number, base: number, out: SparseInput): void {
  encodeSide(sides, s, base, out);
  const own = sides.own;
  const mine = s * 25;
  const his = (1 - s) * 25;
  const bar = sides.bar[s];
  const hisBar = sides.bar[1 - s];
  let made = 0; // bit q: s has made its point q
  let blots = 0; // bit q: a blot of s on q
  let blocked = 0; // bit q: he has made s's point q
  let hisAt = hisBar > 0 ? 1 : 0; // bit t: a checker of his on s's point t (bit 0: his bar)
  let rearmost = bar > 0 ? 25 : 0;
  let hisRear = hisBar > 0 ? 0 : 25; // s's point of his rearmost checker (0: on his bar)
  let homeMade = 0;
  let anchor = 0;
  let outfield = 0;
  for (let q = 1; q <= 24; q++) {
    const n = own[mine + q];
    const m = own[his + 25 - q];
    if (n >= 2) made |= 1 << q;
    if (n === 1) blots |= 1 << q;
    if (m >= 2) blocked |= 1 << q;
    if (m > 0) {
      hisAt |= 1 << q;
      if (q < hisRear) hisRear = q;
    }
    if (n > 0 && q > rearmost) rearmost = q;
    if (q >= 19 && n >= 2) {
      homeMade++;
      anchor = q;
    }
    if (q >= 7 && q <= 18) outfield += n;
  }
  if (blots !== 0) {
    const free = ~made & BOARD_POINTS;
    let hitRolls = 0;
    let loss = 0;
    for (let r = 0; r < 21; r++) {
      const a = ROLL_A[r];
      const b = ROLL_B[r];
      const hit = reachAll(hisAt, a, b, free) & blots;
      if (hit !== 0) {
        const w = a === b ? 1 : 2;
        hitRolls += w;
        loss += w * (25 - (31 - Math.clz32(hit & -hit)));
      }
    }
    push(out, base + 105, hitRolls / 36);
    push(out, base + 106, loss / 36 / 25);
  }
  if (rearmost > 0) push(out, base + 107, escapeRolls(blocked, rearmost) / 36);
  let fewest = 36;
  for (let p = 15; p <= 24; p++) fewest = Math.min(fewest, escapeRolls(blocked, p));
  push(out, base + 108, 1 - fewest / 36);
  let breakPips = bar > 0 ? bar * (25 - hisRear) : 0;
  for (let q = hisRear + 1; q <= 24; q++) breakPips += own[mine + q] * (q - hisRear);
  push(out, base + 109, breakPips / 100);
  if (anchor > 0) push(out, base + 110, (anchor - 18) / 6);
  push(out, base + 111, homeMade / 3);
  push(out, base + 112, outfield / 15);
}

/** The kernel's copies of `short-1` and `short-2` (kernel/short-encoding.ts), which read these tables. */
const KERNEL_SHORT_1: KernelEncoding = Object.freeze({ extras: false, hitRolls: HIT_ROLLS, escapes: ESCAPES });
const KERNEL_SHORT_2: KernelEncoding = Object.freeze({ extras: true, hitRolls: HIT_ROLLS, escapes: ESCAPES });

/** Creates the `short-1` encoding (its scratch is its own: one per evaluator). */
export function createShortEncoding(): NeuralEncoding {
  const sides = new BothSides(OTHER_POINT, 27, 25);
  return { ...twoBlockEncoding('short', 'short-1', NAMES, (board) => sides.read(board), encodeSide), kernel: KERNEL_SHORT_1 };
}

/** Creates the `short-2` encoding (its scratch is its own: one per evaluator). */
export function createShortEncoding2(): NeuralEncoding {
  const sides = new BothSides(OTHER_POINT, 27, 25);
  return { ...twoBlockEncoding('short', 'short-2', NAMES_2, (board) => sides.read(board), encodeSide2), kernel: KERNEL_SHORT_2 };
}
