/**
 * The hot loops of `NeuralNetwork.forward` (../network.ts) in WebAssembly
 * SIMD, compiled by AssemblyScript (`npm run build:kernel`; this file is
 * AssemblyScript, not TypeScript: the project's tsc and eslint skip it).
 *
 * It computes the terms the JavaScript path computes, so the outputs are
 * bit for bit the same:
 * - the first layer's sums are float64 on the 2^−30 grid (network.ts
 *   `GRID`): a row of value 1 is added as it is, any other value `v` as
 *   `onGrid(v · w)`; grid sums are exact, so the full sum and the
 *   incremental update agree whatever was evaluated before, and in
 *   whatever order the terms are added (`update` adds them by kind);
 * - the output layer adds `w · max(a, 0)` hidden unit by hidden unit in
 *   order, the five outputs side by side in two lanes (a unit at 0 adds a
 *   zero, which changes no sum);
 * - the five sigmoids stay in JavaScript (`Math.exp`).
 *
 * f64x2 lanes keep the sums exact; the loops go 8 hidden units (64 bytes)
 * at a time, so the hidden stride is a multiple of 8, padded with zeros.
 *
 * Memory (all placed by the loader, ../kernel.ts, which writes where each
 * array starts into the header, `Slot`; the kernel allocates nothing): `rows` inputs × stride f64 (the first layer on the grid,
 * input-major), `bias` and `sums` stride f64, `columns` stride × 6 f64
 * (the five output weights of one hidden unit and a zero), `outBias` 6 f64,
 * `inIndex`/`inValue` the sparse input (Int32 / f64, written by the
 * encoding through views), `lastIndex`/`lastValue` the input `sums` belong
 * to, `out` the five pre-sigmoid outputs.
 *
 * Board entries (`forwardBoards`, an instance made for them; otherwise
 * empty): an encoding whose inputs each depend on one board entry is a sum
 * of one table row per entry. `table` holds, for every entry read and every
 * value −15…15 it can hold, the grid sum of that value's input rows (stride
 * f64; summed by the loader, so exact like every grid sum); `entryAt` the
 * board byte of each entry (i32); `entryActive` a byte per table row, 0
 * where the row is zero; `boards` the boards, `plays` six f64 per board for
 * its outputs. `inIndex` is the scratch list of a board's rows.
 *
 * A backgammon board to encode here (`forwardShort`, short-encoding.ts):
 * `board` its 28 bytes, `sides` the encoding's scratch, `hitRolls` and
 * `escapes` the encoding's tables (memory.ts lists the slots).
 */

import { Slot, at } from './memory';
import { encodeShort } from './short-encoding';

/** Adding and subtracting this rounds |x| < 2^21 to the 2^−30 grid (network.ts `ROUNDER`). */
const ROUNDER: f64 = 1.5 * 4194304.0;

let stride: usize = 0;
let inputs: i32 = 0;
let lastCount: i32 = 0;
let hasLast: bool = false;
let applied: f64 = 0;

let entries: i32 = 0;
/** Table rows per board entry: its values −15…15. */
const VALUES: i32 = 31;

/** Sets the sizes (the header holds where the arrays are). */
export function configure(hiddenStride: i32, inputCount: i32): void {
  stride = <usize>hiddenStride;
  inputs = inputCount;
  hasLast = false;
}

/** Sets the number of board entries `forwardBoards` reads (the loader wrote their table). */
export function configureBoards(entryCount: i32): void {
  entries = entryCount;
}

/** Forgets the last input: the next forward pass sums in full. */
export function reset(): void {
  hasLast = false;
}

/** The count of the sparse input of the last forward pass (tests read what `forwardShort` encoded). */
export function inputCount(): i32 {
  return lastCount;
}

/** Rows added or subtracted so far (network.ts `rowsApplied`). */
export function rowsApplied(): f64 {
  return applied;
}

/**
 * The forward pass of the `count` inputs at `inIndex`/`inValue`, up to the
 * five pre-sigmoid outputs at `out`. `incremental`: update from the last
 * input when fewer entries changed than there are (the caller passes false
 * when the weights are too large for exact sums).
 */
export function forward(count: i32, incremental: bool): void {
  const inIndex = at(Slot.inIndex);
  const inValue = at(Slot.inValue);
  const lastIndex = at(Slot.lastIndex);
  const lastValue = at(Slot.lastValue);
  if (incremental && hasLast && changes(count, inIndex, inValue, lastIndex, lastValue) < count)
    update(count, inIndex, inValue, lastIndex, lastValue);
  else recompute(count, inIndex, inValue);
  memory.copy(lastIndex, inIndex, <usize>count << 2);
  memory.copy(lastValue, inValue, <usize>count << 3);
  lastCount = count;
  hasLast = true;
  output(at(Slot.out));
}

/**
 * One backgammon board's evaluation in one call: the board at `Slot.board`
 * encoded with `short-1`, or `short-2` when `extras` (short-encoding.ts),
 * then `forward`.
 */
export function forwardShort(extras: bool, incremental: bool): void {
  forward(encodeShort(extras), incremental);
}

/**
 * The forward pass of `n` boards of `boardLength` bytes at `boards`, up to
 * their five pre-sigmoid outputs at `plays` (six f64 each): each board's
 * sums are the bias plus the table row of every entry's value (the non-zero
 * rows listed first, then added 8 hidden units at a time). The same sums as
 * `forward` of the boards' encodings, so the same outputs. It overwrites
 * `sums`: the next `forward` sums in full.
 */
export function forwardBoards(n: i32, boardLength: i32): void {
  const table = at(Slot.table);
  const entryAt = at(Slot.entryAt);
  const active = at(Slot.entryActive);
  const list = at(Slot.inIndex);
  const bias = at(Slot.bias);
  const sums = at(Slot.sums);
  const plays = at(Slot.plays);
  const width = stride << 3;
  let board = at(Slot.boards);
  for (let p = 0; p < n; p++) {
    let rows = 0;
    for (let e = 0; e < entries; e++) {
      const v = <i32>load<i8>(board + <usize>load<i32>(entryAt + (<usize>e << 2))) + 15;
      const r = e * VALUES + v;
      if (<u32>v >= <u32>VALUES || load<u8>(active + <usize>r) == 0) continue;
      store<u32>(list + (<usize>rows << 2), <u32>(table + <usize>r * width));
      rows++;
    }
    for (let j: usize = 0; j < width; j += 64) {
      const b = bias + j;
      let a0 = v128.load(b);
      let a1 = v128.load(b, 16);
      let a2 = v128.load(b, 32);
      let a3 = v128.load(b, 48);
      for (let k = 0; k < rows; k++) {
        const row = <usize>load<u32>(list + (<usize>k << 2)) + j;
        a0 = f64x2.add(a0, v128.load(row));
        a1 = f64x2.add(a1, v128.load(row, 16));
        a2 = f64x2.add(a2, v128.load(row, 32));
        a3 = f64x2.add(a3, v128.load(row, 48));
      }
      const s = sums + j;
      v128.store(s, a0);
      v128.store(s, a1, 16);
      v128.store(s, a2, 32);
      v128.store(s, a3, 48);
    }
    output(plays + <usize>p * 48);
    board += <usize>boardLength;
  }
  hasLast = false;
}

/** ln 2 in two parts: `LN2_HIGH` has 28 trailing zero bits, so k · LN2_HIGH is exact for the k of a sigmoid's exponent. */
const LN2_HIGH: f64 = 0.6931471526622772;
const LN2_LOW: f64 = 2.7897668087737545e-8;
const LOG2_E: f64 = 1.4426950408889634;
/** Beyond ±40 a sigmoid is 0 or 1 (network.ts `sigmoid`, which saturates there so that `exp` never overflows). */
const SATURATED: f64 = 40;

/**
 * e^x in two lanes, |x| ≤ 40: x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its
 * Taylor series to the 13th power (the rest is below 10^−17 of it), times
 * 2^k built in the exponent bits. Within an ulp or two of `Math.exp`.
 */
@inline
function expLanes(x: v128): v128 {
  const k = f64x2.nearest(f64x2.mul(x, f64x2.splat(LOG2_E)));
  const r = f64x2.sub(f64x2.sub(x, f64x2.mul(k, f64x2.splat(LN2_HIGH))), f64x2.mul(k, f64x2.splat(LN2_LOW)));
  let p = f64x2.splat(1.0 / 6227020800.0);
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 479001600.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 39916800.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 3628800.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 362880.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 40320.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 5040.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 720.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 120.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 24.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 6.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(0.5));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0));
  const biased = i64x2.add(i64x2.extend_low_i32x4_s(i32x4.trunc_sat_f64x2_s_zero(k)), i64x2.splat(1023));
  return f64x2.mul(p, i64x2.shl(biased, 52));
}

/** The logistic function in two lanes, saturating as network.ts `sigmoid` does. */
@inline
function sigmoidLanes(z: v128): v128 {
  const bound = f64x2.splat(SATURATED);
  const e = expLanes(f64x2.neg(f64x2.pmax(f64x2.pmin(z, bound), f64x2.neg(bound))));
  const s = f64x2.div(f64x2.splat(1.0), f64x2.add(f64x2.splat(1.0), e));
  const one = f64x2.gt(z, bound);
  const zero = f64x2.lt(z, f64x2.neg(bound));
  return v128.andnot(v128.bitselect(f64x2.splat(1.0), s, one), zero);
}

/**
 * The pruning score of each of the first `n` boards of the last
 * `forwardBoards` (src/eval/prune.ts): its five sigmoids, clamped
 * consistent (probabilities.ts `clampInPlace`), seen from the other side
 * (`flipInPlace`: the board's side to move is the opponent of the player
 * who made the play), and that player's cubeless equity with the outcome
 * values `single`, `mars`, `koks` (equity.ts `equityAt`), into the sixth
 * f64 of the board's outputs. The same operations in the same order as
 * the TypeScript, with the sigmoids' `exp` computed here.
 */
export function scoreBoards(n: i32, single: f64, mars: f64, koks: f64): void {
  let play = at(Slot.plays);
  for (let p = 0; p < n; p++, play += 48) {
    const s01 = sigmoidLanes(v128.load(play));
    const s23 = sigmoidLanes(v128.load(play, 16));
    const s4 = sigmoidLanes(v128.load(play, 32));
    let w = f64x2.extract_lane(s01, 0);
    w = w < 0 ? 0 : w > 1 ? 1 : w;
    const l = 1 - w;
    let wm = f64x2.extract_lane(s01, 1);
    wm = wm < 0 ? 0 : wm > w ? w : wm;
    let wk = f64x2.extract_lane(s23, 0);
    wk = wk < 0 ? 0 : wk > wm ? wm : wk;
    let lm = f64x2.extract_lane(s23, 1);
    lm = lm < 0 ? 0 : lm > l ? l : lm;
    let lk = f64x2.extract_lane(s4, 0);
    lk = lk < 0 ? 0 : lk > lm ? lm : lk;
    // Flipped: he wins 1 − w, his marses are the loser's and the other way round.
    const hisWin = 1 - w;
    const hisLoss = 1 - hisWin;
    const equity = single * (hisWin - lm) + mars * (lm - lk) + koks * lk - (single * (hisLoss - wm) + mars * (wm - wk) + koks * wk);
    store<f64>(play, equity, 40);
  }
}

/** Entries in which the input differs from the last one (both sorted by index), counted up to `count`. */
function changes(count: i32, inIndex: usize, inValue: usize, lastIndex: usize, lastValue: usize): i32 {
  let i = 0;
  let k = 0;
  let n = 0;
  while (i < lastCount && k < count && n < count) {
    const a = load<i32>(lastIndex + (<usize>i << 2));
    const b = load<i32>(inIndex + (<usize>k << 2));
    if (a != b) {
      n++;
      if (a < b) i++;
      else k++;
      continue;
    }
    if (load<f64>(lastValue + (<usize>i << 3)) != load<f64>(inValue + (<usize>k << 3))) n += 2;
    i++;
    k++;
  }
  return n + (lastCount - i) + (count - k);
}

@inline
function onGrid(x: v128, r: v128): v128 {
  return f64x2.sub(f64x2.add(x, r), r);
}

/** sums = bias + Σ rows of the input, 8 hidden units at a time over all inputs. */
function recompute(count: i32, inIndex: usize, inValue: usize): void {
  const n = stride << 3;
  const rows = at(Slot.rows);
  const bias = at(Slot.bias);
  const sums = at(Slot.sums);
  const r = f64x2.splat(ROUNDER);
  for (let j: usize = 0; j < n; j += 64) {
    const b = bias + j;
    let a0 = v128.load(b);
    let a1 = v128.load(b, 16);
    let a2 = v128.load(b, 32);
    let a3 = v128.load(b, 48);
    for (let k = 0; k < count; k++) {
      const row = rows + <usize>load<i32>(inIndex + (<usize>k << 2)) * n + j;
      const value = load<f64>(inValue + (<usize>k << 3));
      if (value == 1) {
        a0 = f64x2.add(a0, v128.load(row));
        a1 = f64x2.add(a1, v128.load(row, 16));
        a2 = f64x2.add(a2, v128.load(row, 32));
        a3 = f64x2.add(a3, v128.load(row, 48));
      } else {
        const v = f64x2.splat(value);
        a0 = f64x2.add(a0, onGrid(f64x2.mul(v, v128.load(row)), r));
        a1 = f64x2.add(a1, onGrid(f64x2.mul(v, v128.load(row, 16)), r));
        a2 = f64x2.add(a2, onGrid(f64x2.mul(v, v128.load(row, 32)), r));
        a3 = f64x2.add(a3, onGrid(f64x2.mul(v, v128.load(row, 48)), r));
      }
    }
    const s = sums + j;
    v128.store(s, a0);
    v128.store(s, a1, 16);
    v128.store(s, a2, 32);
    v128.store(s, a3, 48);
  }
  applied += <f64>count;
}

/** Changes of one kind `update` lists: rows added, rows subtracted, rows scaled (v · row), rows changed (from → to). */
const ADDED: usize = 0;
const SUBTRACTED: usize = 1;
const SCALED: usize = 2;
const CHANGED: usize = 3;
/** Bytes of a list entry: the row's byte offset (u32, padded) and up to two values (f64). */
const ENTRY: usize = 24;

/**
 * From the last input to this one: the rows that left, came or changed
 * value, listed by kind (in `changes`: four lists of up to 2 × inputs
 * entries), then applied 8 hidden units at a time with the sums in
 * registers, as `recompute` sums — each row read once. Every term is on the
 * grid, so the order of the additions changes no sum (nor the outputs: a
 * zero sum, whatever its sign, is cut by the ReLU); the terms are those of
 * the JavaScript loops: a row of value 1 added or subtracted as it is, any
 * other value `v` as `onGrid(±v · w)`, a change as `onGrid(to · w) − onGrid(from · w)`.
 */
function update(count: i32, inIndex: usize, inValue: usize, lastIndex: usize, lastValue: usize): void {
  const n = stride << 3;
  const rows = at(Slot.rows);
  const lists = at(Slot.changes);
  const size = <usize>(2 * inputs) * ENTRY;
  let added: i32 = 0;
  let subtracted: i32 = 0;
  let scaled: i32 = 0;
  let changed: i32 = 0;
  let i = 0;
  let k = 0;
  while (i < lastCount || k < count) {
    const a = i < lastCount ? load<i32>(lastIndex + (<usize>i << 2)) : inputs;
    const b = k < count ? load<i32>(inIndex + (<usize>k << 2)) : inputs;
    if (a < b) {
      const v = load<f64>(lastValue + (<usize>(i++) << 3));
      const row = <u32>(rows + <usize>a * n);
      if (v == 1) store<u32>(lists + SUBTRACTED * size + <usize>(subtracted++) * ENTRY, row);
      else {
        const e = lists + SCALED * size + <usize>(scaled++) * ENTRY;
        store<u32>(e, row);
        store<f64>(e, -1 * v, 8);
      }
    } else if (b < a) {
      const v = load<f64>(inValue + (<usize>(k++) << 3));
      const row = <u32>(rows + <usize>b * n);
      if (v == 1) store<u32>(lists + ADDED * size + <usize>(added++) * ENTRY, row);
      else {
        const e = lists + SCALED * size + <usize>(scaled++) * ENTRY;
        store<u32>(e, row);
        store<f64>(e, 1 * v, 8);
      }
    } else {
      const from = load<f64>(lastValue + (<usize>(i++) << 3));
      const to = load<f64>(inValue + (<usize>(k++) << 3));
      if (from != to) {
        const e = lists + CHANGED * size + <usize>(changed++) * ENTRY;
        store<u32>(e, <u32>(rows + <usize>a * n));
        store<f64>(e, from, 8);
        store<f64>(e, to, 16);
      }
    }
  }
  applied += <f64>(added + subtracted + scaled + changed);
  const sums = at(Slot.sums);
  const r = f64x2.splat(ROUNDER);
  for (let j: usize = 0; j < n; j += 64) {
    const s = sums + j;
    let a0 = v128.load(s);
    let a1 = v128.load(s, 16);
    let a2 = v128.load(s, 32);
    let a3 = v128.load(s, 48);
    let e = lists + ADDED * size;
    for (let x = 0; x < added; x++, e += ENTRY) {
      const w = <usize>load<u32>(e) + j;
      a0 = f64x2.add(a0, v128.load(w));
      a1 = f64x2.add(a1, v128.load(w, 16));
      a2 = f64x2.add(a2, v128.load(w, 32));
      a3 = f64x2.add(a3, v128.load(w, 48));
    }
    e = lists + SUBTRACTED * size;
    for (let x = 0; x < subtracted; x++, e += ENTRY) {
      const w = <usize>load<u32>(e) + j;
      a0 = f64x2.sub(a0, v128.load(w));
      a1 = f64x2.sub(a1, v128.load(w, 16));
      a2 = f64x2.sub(a2, v128.load(w, 32));
      a3 = f64x2.sub(a3, v128.load(w, 48));
    }
    e = lists + SCALED * size;
    for (let x = 0; x < scaled; x++, e += ENTRY) {
      const w = <usize>load<u32>(e) + j;
      const v = v128.load64_splat(e, 8);
      a0 = f64x2.add(a0, onGrid(f64x2.mul(v, v128.load(w)), r));
      a1 = f64x2.add(a1, onGrid(f64x2.mul(v, v128.load(w, 16)), r));
      a2 = f64x2.add(a2, onGrid(f64x2.mul(v, v128.load(w, 32)), r));
      a3 = f64x2.add(a3, onGrid(f64x2.mul(v, v128.load(w, 48)), r));
    }
    e = lists + CHANGED * size;
    for (let x = 0; x < changed; x++, e += ENTRY) {
      const w = <usize>load<u32>(e) + j;
      const f = v128.load64_splat(e, 8);
      const t = v128.load64_splat(e, 16);
      const w0 = v128.load(w);
      const w1 = v128.load(w, 16);
      const w2 = v128.load(w, 32);
      const w3 = v128.load(w, 48);
      a0 = f64x2.add(a0, f64x2.sub(onGrid(f64x2.mul(t, w0), r), onGrid(f64x2.mul(f, w0), r)));
      a1 = f64x2.add(a1, f64x2.sub(onGrid(f64x2.mul(t, w1), r), onGrid(f64x2.mul(f, w1), r)));
      a2 = f64x2.add(a2, f64x2.sub(onGrid(f64x2.mul(t, w2), r), onGrid(f64x2.mul(f, w2), r)));
      a3 = f64x2.add(a3, f64x2.sub(onGrid(f64x2.mul(t, w3), r), onGrid(f64x2.mul(f, w3), r)));
    }
    v128.store(s, a0);
    v128.store(s, a1, 16);
    v128.store(s, a2, 32);
    v128.store(s, a3, 48);
  }
}

/** ReLU, then the five outputs' sums, hidden unit by hidden unit in order, into `out` (six f64, the last a pad). */
function output(out: usize): void {
  const outBias = at(Slot.outBias);
  const sums = at(Slot.sums);
  let z01 = v128.load(outBias);
  let z23 = v128.load(outBias, 16);
  let z4 = v128.load(outBias, 32);
  const end = sums + (stride << 3);
  let c = at(Slot.columns);
  for (let s = sums; s < end; s += 8) {
    const a = load<f64>(s);
    if (a > 0) {
      const v = f64x2.splat(a);
      z01 = f64x2.add(z01, f64x2.mul(v128.load(c), v));
      z23 = f64x2.add(z23, f64x2.mul(v128.load(c, 16), v));
      z4 = f64x2.add(z4, f64x2.mul(v128.load(c, 32), v));
    }
    c += 48;
  }
  v128.store(out, z01);
  v128.store(out, z23, 16);
  v128.store(out, z4, 32);
}
