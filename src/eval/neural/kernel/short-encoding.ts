import { Slot, at } from './memory';

/**
 * The backgammon encodings `short-1` and `short-2` (../short-encoding.ts)
 * in the kernel, so that an evaluation is one call: encode the board, then
 * the forward pass (forward.ts `forwardShort`). It writes what the
 * TypeScript encoding writes, input for input and bit for bit (the same
 * integer counts, then the same float64 divisions in the same order;
 * test/eval/neural/kernel-encoding.test.ts compares them), and the
 * TypeScript stays the reference and the path without WebAssembly.
 *
 * The board (28 bytes, src/engine/short/board.ts) is at `Slot.board`; the
 * tables HIT_ROLLS and ESCAPES are the loader's copies of the TypeScript
 * ones (one definition).
 */

/** Inputs per side block of `short-1`; `short-2` adds 8 after them. */
const SIDE_1: i32 = 105;
const SIDE_2: i32 = 113;

/** Inputs written so far (the sparse input's count). */
let count: i32 = 0;

/** Appends one input if it is non-zero (encoding.ts `push`). */
@inline
function push(index: i32, value: f64): void {
  if (value == 0) return;
  store<i32>(at(Slot.inIndex) + (<usize>count << 2), index);
  store<f64>(at(Slot.inValue) + (<usize>count << 3), value);
  count++;
}

/** Checkers of side s (0 the side to move) on its own point q (1..24); `sides` holds both (encoding.ts `BothSides`). */
@inline
function own(sides: usize, s: i32, q: i32): i32 {
  return <i32>load<u8>(sides + <usize>(s * 25 + q));
}

/** HIT_ROLLS[d]: the rolls (a mask of the 21) that travel exactly d pips with one checker. */
@inline
function hitRolls(d: i32): i32 {
  return load<i32>(at(Slot.hitRolls) + (<usize>d << 2));
}

/** Rolls out of 36 in a mask of the 21 rolls: the 15 non-doubles (bits 0…14) count twice. */
@inline
function rollsOutOf36(mask: i32): i32 {
  return 2 * popcnt<i32>(mask & 0x7fff) + popcnt<i32>(mask >>> 15);
}

/** Rolls out of 36 that carry a checker on point p past the blocked points in front of it (short-encoding.ts `escapeRolls`). */
@inline
function escapeRolls(blocked: i32, p: i32): i32 {
  const window = p >= 12 ? blocked >>> (p - 12) : blocked << (12 - p);
  return <i32>load<u8>(at(Slot.escapes) + <usize>(window & 0xfff));
}

/** His checkers' reach with the roll (a, b), landing only on `free` (short-encoding.ts `reachAll`). */
@inline
function reachAll(from: i32, a: i32, b: i32, free: i32): i32 {
  if (a == b) {
    const t1 = (from << a) & free;
    const t2 = (t1 << a) & free;
    const t3 = (t2 << a) & free;
    return t1 | t2 | t3 | ((t3 << a) & free);
  }
  const ta = (from << a) & free;
  const tb = (from << b) & free;
  return ta | tb | (((ta << b) | (tb << a)) & free);
}

/** `short-1`'s block of side s at `base` (short-encoding.ts `encodeSide`). */
function encodeSide(sides: usize, board: usize, s: i32, base: i32): void {
  const bar = <i32>load<i8>(board + <usize>(25 + s));
  let pips = 25 * bar;
  let homeMade = 0;
  let run = 0;
  let longest = 0;
  let back = bar;
  let blotMask = 0;
  for (let q = 1; q <= 24; q++) {
    const n = own(sides, s, q);
    if (n > 0) {
      // encoding.ts `pushPoint` with a scale of 2.
      const index = base + (q - 1) * 4;
      push(index, 1);
      if (n >= 2) push(index + 1, 1);
      if (n >= 3) push(index + 2, 1);
      if (n > 3) push(index + 3, <f64>(n - 3) / 2);
    }
    pips += n * q;
    if (n >= 2) {
      run++;
      if (run > longest) longest = run;
      if (q <= 6) homeMade++;
    } else run = 0;
    if (n == 1) blotMask |= 1 << q;
    if (q >= 19) back += n;
  }
  if (bar > 0) {
    push(base + 96, 1);
    push(base + 97, <f64>bar / 2);
  }
  push(base + 98, <f64>load<i8>(board + (s == 0 ? 0 : 27)) / 15);
  push(base + 99, <f64>pips / 167);
  push(base + 100, <f64>homeMade / 6);
  push(base + 101, <f64>longest / 6);
  const he = 1 - s;
  if (blotMask != 0) {
    let rolls = 0;
    const hisBar = <i32>load<i8>(board + <usize>(25 + he));
    let hisMask = 0;
    for (let t = 1; t < 24; t++) if (own(sides, he, 25 - t) > 0) hisMask |= 1 << t;
    for (let b = 1; b <= 24; b++) {
      if ((blotMask & (1 << b)) == 0) continue;
      if (hisBar > 0) rolls |= hitRolls(b);
      for (let below = hisMask & ((1 << b) - 1); below != 0; below &= below - 1) rolls |= hitRolls(b - (31 - clz<i32>(below & -below)));
    }
    push(base + 102, <f64>rollsOutOf36(rolls) / 36);
  }
  if (bar > 0) {
    let closed = 0;
    for (let r = 1; r <= 6; r++) if (own(sides, he, r) >= 2) closed++;
    push(base + 103, (<f64>closed / 6) * (<f64>closed / 6));
  }
  push(base + 104, <f64>back / 15);
}

/** Points 1..24 as bits. */
const BOARD_POINTS: i32 = 0x1fffffe;

/** `short-2`'s eight inputs after `short-1`'s block of side s (short-encoding.ts `encodeSide2`). */
function encodeExtras(sides: usize, board: usize, s: i32, base: i32): void {
  const he = 1 - s;
  const bar = <i32>load<i8>(board + <usize>(25 + s));
  const hisBar = <i32>load<i8>(board + <usize>(25 + he));
  let made = 0;
  let blots = 0;
  let blocked = 0;
  let hisAt = hisBar > 0 ? 1 : 0;
  let rearmost = bar > 0 ? 25 : 0;
  let hisRear = hisBar > 0 ? 0 : 25;
  let homeMade = 0;
  let anchor = 0;
  let outfield = 0;
  for (let q = 1; q <= 24; q++) {
    const n = own(sides, s, q);
    const m = own(sides, he, 25 - q);
    if (n >= 2) made |= 1 << q;
    if (n == 1) blots |= 1 << q;
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
  if (blots != 0) {
    const free = ~made & BOARD_POINTS;
    let hits = 0;
    let loss = 0;
    // The 21 rolls (a ≥ b; the TypeScript's order differs, but these are integer sums).
    for (let a = 1; a <= 6; a++)
      for (let b = 1; b <= a; b++) {
        const hit = reachAll(hisAt, a, b, free) & blots;
        if (hit != 0) {
          const w = a == b ? 1 : 2;
          hits += w;
          loss += w * (25 - (31 - clz<i32>(hit & -hit)));
        }
      }
    push(base + 105, <f64>hits / 36);
    push(base + 106, <f64>loss / 36 / 25);
  }
  if (rearmost > 0) push(base + 107, <f64>escapeRolls(blocked, rearmost) / 36);
  let fewest = 36;
  for (let p = 15; p <= 24; p++) fewest = min(fewest, escapeRolls(blocked, p));
  push(base + 108, 1 - <f64>fewest / 36);
  let breakPips = bar > 0 ? bar * (25 - hisRear) : 0;
  for (let q = hisRear + 1; q <= 24; q++) breakPips += own(sides, s, q) * (q - hisRear);
  push(base + 109, <f64>breakPips / 100);
  if (anchor > 0) push(base + 110, <f64>(anchor - 18) / 6);
  push(base + 111, <f64>homeMade / 3);
  push(base + 112, <f64>outfield / 15);
}

/**
 * Encodes the board at `Slot.board` into the sparse input (`inIndex`,
 * `inValue`) with `short-1`, or with `short-2` when `extras`; returns the
 * number of inputs written.
 */
export function encodeShort(extras: bool): i32 {
  const board = at(Slot.board);
  const sides = at(Slot.sides);
  // Both sides by own point (encoding.ts `BothSides.read`): the mover's point p is the opponent's 25 − p (COM-5).
  for (let p = 1; p <= 24; p++) {
    const n = <i32>load<i8>(board + <usize>p);
    store<u8>(sides + <usize>p, n > 0 ? n : 0);
    store<u8>(sides + <usize>(50 - p), n < 0 ? -n : 0);
  }
  count = 0;
  const block = extras ? SIDE_2 : SIDE_1;
  for (let s = 0; s < 2; s++) {
    encodeSide(sides, board, s, s * block);
    if (extras) encodeExtras(sides, board, s, s * block);
  }
  return count;
}
