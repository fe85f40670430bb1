import { flipBoard as flipLong } from '../../../src/engine/long/board';
import { initialLongPosition } from '../../../src/engine/long/position';
import { flipBoard as flipShort } from '../../../src/engine/short/board';
import { initialShortPosition } from '../../../src/engine/short/position';
import { NeuralEncoding, inputMap } from '../../../src/eval/neural/encoding';
import { createLongEncoding, createLongEncoding2 } from '../../../src/eval/neural/long-encoding';
import { NeuralNetwork, sparseInput } from '../../../src/eval/neural/network';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';
import { createShortEncoding, createShortEncoding2, escapeRolls } from '../../../src/eval/neural/short-encoding';
import { SeededRandom } from '../../../src/engine/random';
import { longBoard, shortBoard } from '../support';
import { longPositions, shortPositions } from './support';

function dense(encoding: NeuralEncoding, board: Int8Array): Float64Array {
  const input = sparseInput(encoding.inputs);
  encoding.encode(board, input);
  const out = new Float64Array(encoding.inputs);
  // Every active input is checked; those out of order, out of range, zero or not finite are reported together.
  const wrong: string[] = [];
  for (let k = 0; k < input.count; k++) {
    const index = input.index[k];
    const value = input.value[k];
    const inRange = index >= 0 && index < encoding.inputs;
    const ascending = k === 0 || index > input.index[k - 1];
    if (!inRange || !ascending || Object.is(value, 0) || !Number.isFinite(value)) {
      wrong.push(`input ${k}: index ${index} (previous ${k > 0 ? input.index[k - 1] : 'none'}, of ${encoding.inputs}), value ${value}`);
    }
    out[index] = value;
  }
  expect(wrong).toEqual([]);
  return out;
}

/** The encoding of the flipped board is the same vector with the two side blocks swapped. */
function expectSymmetric(encoding: NeuralEncoding, board: Int8Array, flipped: Int8Array): void {
  const a = dense(encoding, board);
  const b = dense(encoding, flipped);
  const side = encoding.sideInputs;
  expect(Array.from(b.subarray(0, side))).toEqual(Array.from(a.subarray(side)));
  expect(Array.from(b.subarray(side))).toEqual(Array.from(a.subarray(0, side)));
}

describe('short-1 encoding', () => {
  const encoding = createShortEncoding();

  it('has 2 × 105 inputs, each named', () => {
    expect(encoding.sideInputs).toBe(105);
    expect(encoding.inputs).toBe(210);
    expect(encoding.sideInputNames).toHaveLength(105);
  });

  it('encodes the start: the same block for both sides (points 6, 8, 13, 24)', () => {
    const v = dense(encoding, initialShortPosition('white').board);
    const side = Array.from(v.subarray(0, 105));
    expect(side).toEqual(Array.from(v.subarray(105)));
    // 5 on the 6-point: held, made, spare, (5 − 3)/2.
    expect(side.slice(20, 24)).toEqual([1, 1, 1, 1]);
    // 2 on the 24-point: held, made.
    expect(side.slice(92, 96)).toEqual([1, 1, 0, 0]);
    expect(side[99]).toBeCloseTo(1, 10); // 167 pips / 167
    expect(side[100]).toBeCloseTo(1 / 6, 10); // the 6-point
    expect(side[102]).toBe(0); // no blots
    expect(side[104]).toBeCloseTo(2 / 15, 10);
  });

  it('counts shots on a blot and the chance to stay on the bar', () => {
    // Mover blot on his 10, opponent checkers 4 pips in front of it (opponent's own 19 = mover's 6)... seen from the opponent:
    // the opponent's checker on his point 19 stands on the mover's 6 and hits the mover's blot on 10 with any 4.
    const board = shortBoard({ points: { 10: 1, 1: 14 } }, { points: { 19: 1, 1: 14 } });
    const v = dense(encoding, board);
    // Rolls travelling exactly 4: a 4 (11 rolls), 3-1, 2-2 (2+2), 1-1 (4×1) → 11 + 2 + 1 + 1 = 15.
    expect(v[102]).toBeCloseTo(15 / 36, 10);
    const onBar = shortBoard({ points: { 1: 14 }, bar: 1 }, { points: { 1: 2, 2: 2, 3: 2, 4: 9 } });
    const w = dense(encoding, onBar);
    expect(w[96]).toBe(1);
    expect(w[103]).toBeCloseTo((4 / 6) * (4 / 6), 10);
  });

  it('is symmetric under a flip of the board (random positions)', () => {
    for (const board of shortPositions(11, 30)) expectSymmetric(encoding, board, flipShort(board));
  });
});

describe('short-2 encoding', () => {
  const encoding = createShortEncoding2();
  const short1 = createShortEncoding();

  it("has 2 × 113 inputs, each named; each block starts with short-1's", () => {
    expect(encoding.sideInputs).toBe(113);
    expect(encoding.inputs).toBe(226);
    expect(encoding.sideInputNames).toHaveLength(113);
    expect(encoding.sideInputNames.slice(0, 105)).toEqual(short1.sideInputNames);
    for (const board of shortPositions(3, 20)) {
      const a = dense(short1, board);
      const b = dense(encoding, board);
      expect(Array.from(b.subarray(0, 105))).toEqual(Array.from(a.subarray(0, 105)));
      expect(Array.from(b.subarray(113, 218))).toEqual(Array.from(a.subarray(105)));
    }
  });

  it('counts escapes past the blocked points in front of a checker', () => {
    expect(escapeRolls(0, 24)).toBe(36);
    // One blocked point 6 pips ahead: every non-double of 7 or more (9 of them, ×2), and 4-4, 5-5;
    // 6-6 and 2-2 land on it, 3-3 too, 1-1 falls short.
    expect(escapeRolls(1 << 18, 24)).toBe(20);
    // A six-point prime right in front: nothing passes.
    expect(escapeRolls(0b111111 << 18, 25)).toBe(0);
    // Points behind the checker do not block it.
    expect(escapeRolls(1 << 24, 20)).toBe(36);
  });

  it('counts shots with blocking, the pip loss, the pips to break contact and the outfield', () => {
    // The mover's blot on his 10 and a made 8; the opponent's checker on the mover's 6 (his 19) hits with a 4:
    // 15 rolls ignoring blocks (short-1's input 102); 2-2 and 1-1 must land on the made 8, so 13 with blocking.
    const board = shortBoard({ points: { 10: 1, 8: 2, 1: 12 } }, { points: { 19: 1, 1: 14 } });
    const v = dense(encoding, board);
    expect(v[102]).toBeCloseTo(15 / 36, 10);
    expect(v[105]).toBeCloseTo(13 / 36, 10);
    expect(v[106]).toBeCloseTo((13 * (25 - 10)) / 36 / 25, 10); // each hit sends the blot on 10 back 15 pips
    expect(v[107]).toBeCloseTo(1, 10); // nothing of his in front of the mover's rearmost checker
    expect(v[108]).toBe(0); // nor in front of 15..24
    expect(v[109]).toBeCloseTo(((10 - 6) * 1 + (8 - 6) * 2) / 100, 10); // past his checker on the mover's 6
    expect(v[110]).toBe(0);
    expect(v[111]).toBe(0);
    expect(v[112]).toBeCloseTo(3 / 15, 10);
  });

  it('counts shots from the bar, blocked combinations, anchors and containment', () => {
    // The mover's blot on his 3 with his 1 and 2 made; the opponent on the bar enters on the mover's 1..6.
    // A 3 hits (11 rolls); 2-1 and 1-1 would land on a made point first.
    const board = shortBoard(
      { points: { 3: 1, 1: 2, 2: 2, 20: 2, 21: 2, 9: 6 } },
      { points: { 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2 }, bar: 1, off: 2 },
    );
    const v = dense(encoding, board);
    expect(v[105]).toBeCloseTo(11 / 36, 10);
    expect(v[106]).toBeCloseTo((11 * 22) / 36 / 25, 10);
    expect(v[110]).toBeCloseTo((21 - 18) / 6, 10); // rearmost anchor on 21
    expect(v[111]).toBeCloseTo(2 / 3, 10);
    // His prime on his 7..12 is the mover's 13..18: a checker on the mover's 19 cannot pass it.
    expect(v[108]).toBeCloseTo(1, 10);
    expect(v[107]).toBeCloseTo(escapeRolls(0b111111 << 13, 21) / 36, 10);
    expect(v[112]).toBeCloseTo(6 / 15, 10);
    // His side: the mover's rearmost checker is on his 4; his prime (2 on each of his 7..12) and his bar checker
    // must get past it.
    expect(v[113 + 109]).toBeCloseTo((2 * (3 + 4 + 5 + 6 + 7 + 8) + (25 - 4)) / 100, 10);
  });

  // The definitions of inputs 105..108, one checker and one roll at a time; the encoding computes them on
  // whole sets of points at once, which must give the same numbers.
  const ROLLS_21: [number, number][] = [];
  for (let a = 1; a <= 6; a++) for (let b = a; b <= 6; b++) ROLLS_21.push([a, b]);
  /** The orders a checker can play a roll's dice in alone: a double's four steps, or either die first. */
  const paths = (a: number, b: number): number[][] => (a === b ? [[a, a, a, a]] : [[a, b], [b, a]]);
  /** Rolls of 36 that take a checker on p (moving down) below every point of `blocked` within 12 in front of it. */
  function escapesByDefinition(blocked: (q: number) => boolean, p: number): number {
    let lowest = 0;
    for (let q = p - 1; q >= Math.max(1, p - 12); q--) if (blocked(q)) lowest = q;
    if (lowest === 0) return 36;
    const open = (t: number): boolean => t < p - 12 || t < 1 || !blocked(t);
    let n = 0;
    for (const [a, b] of ROLLS_21) {
      let ok = false;
      for (const path of paths(a, b)) {
        let t = p;
        for (const d of path) {
          t -= d;
          if (!open(t)) break;
          if (t < lowest) ok = true;
        }
      }
      if (ok) n += a === b ? 1 : 2;
    }
    return n;
  }

  it('counts escapes as their definition does, for every point and many blockades', () => {
    const random = new SeededRandom(27);
    for (let k = 0; k < 400; k++) {
      const blocked = random.below(1 << 24) << 1;
      for (let p = 1; p <= 25; p++) {
        expect([p, escapeRolls(blocked, p)]).toEqual([p, escapesByDefinition((q) => (blocked & (1 << q)) !== 0, p)]);
      }
    }
  });

  it("counts the mover's shots, pip loss, escapes and containment as their definitions do (random positions)", () => {
    for (const board of shortPositions(31, 400)) {
      const v = dense(encoding, board);
      // The opponent's checkers stand on the mover's points (negative counts), enter from 0 and move up.
      const mine = (q: number): number => (q >= 1 && q <= 24 && board[q] > 0 ? board[q] : 0);
      const landable = (t: number): boolean => t >= 1 && t <= 24 && mine(t) < 2;
      const from: number[] = board[26] > 0 ? [0] : [];
      for (let q = 1; q <= 24; q++) if (board[q] < 0) from.push(q);
      let hitRolls = 0;
      let loss = 0;
      for (const [a, b] of ROLLS_21) {
        let worst = 25;
        for (const f of from) {
          for (const path of paths(a, b)) {
            let t = f;
            for (const d of path) {
              t += d;
              if (!landable(t)) break;
              if (mine(t) === 1) worst = Math.min(worst, t);
            }
          }
        }
        if (worst < 25) {
          hitRolls += a === b ? 1 : 2;
          loss += (a === b ? 1 : 2) * (25 - worst);
        }
      }
      expect(v[105]).toBeCloseTo(hitRolls / 36, 12);
      expect(v[106]).toBeCloseTo(loss / 36 / 25, 12);
      const blocked = (q: number): boolean => board[q] <= -2;
      let rearmost = board[25] > 0 ? 25 : 0;
      for (let q = 1; q <= 24; q++) if (board[q] > 0) rearmost = Math.max(rearmost, q);
      expect(v[107]).toBeCloseTo(escapesByDefinition(blocked, rearmost) / 36, 12);
      let fewest = 36;
      for (let p = 15; p <= 24; p++) fewest = Math.min(fewest, escapesByDefinition(blocked, p));
      expect(v[108]).toBeCloseTo(1 - fewest / 36, 12);
    }
  });

  it('is symmetric under a flip of the board (random positions)', () => {
    for (const board of shortPositions(12, 30)) expectSymmetric(encoding, board, flipShort(board));
  });

  it("starts a short-1 network on short-2 with the same function (inputMap, extendInputs)", () => {
    const map = inputMap(short1, encoding) as Int32Array;
    expect(map).not.toBeNull();
    expect(inputMap(encoding, short1)).toBeNull();
    expect(inputMap(createLongEncoding(), encoding)).toBeNull();
    const parent = NetworkTrainer.initial({ inputs: short1.inputs, hidden: 16 }, 7).networkParameters();
    const child = NetworkTrainer.extendInputs(parent, encoding.inputs, map);
    const a = new NeuralNetwork(parent);
    const b = new NeuralNetwork(child);
    const ia = a.inputBuffer();
    const ib = b.inputBuffer();
    const oa = new Float64Array(5);
    const ob = new Float64Array(5);
    for (const board of shortPositions(4, 20)) {
      short1.encode(board, ia);
      encoding.encode(board, ib);
      a.forward(ia, oa, 0);
      b.forward(ib, ob, 0);
      for (let k = 0; k < 5; k++) expect(ob[k]).toBeCloseTo(oa[k], 6);
    }
    expect(() => NetworkTrainer.extendInputs(parent, encoding.inputs, map.subarray(1))).toThrow(RangeError);
  });
});

describe('long-1 encoding', () => {
  const encoding = createLongEncoding();

  it('has 2 × 104 inputs, each named', () => {
    expect(encoding.sideInputs).toBe(104);
    expect(encoding.inputs).toBe(208);
    expect(encoding.sideInputNames).toHaveLength(104);
  });

  it('encodes the start: 15 on the head of each side', () => {
    const v = dense(encoding, initialLongPosition('head15').board);
    const side = Array.from(v.subarray(0, 104));
    expect(side).toEqual(Array.from(v.subarray(104)));
    expect(side.slice(92, 96)).toEqual([1, 1, 1, 3]); // own 24: (15 − 3)/4
    expect(side[97]).toBeCloseTo(1, 10); // 360 pips
    expect(side[99]).toBeCloseTo((15 * 18) / 100, 10);
    expect(side[100]).toBeCloseTo(1 / 6, 10);
    expect(side[102]).toBeCloseTo(1 / 12, 10);
  });

  it("measures a block along the other side's path", () => {
    // Mover holds own 13..16 (the opponent's 1..4); the opponent has checkers on his 10 and 20 behind it.
    const board = longBoard({ points: { 13: 1, 14: 1, 15: 1, 16: 1, 1: 11 } }, { points: { 10: 5, 20: 10 } });
    const v = dense(encoding, board);
    expect(v[100]).toBeCloseTo(4 / 6, 10);
    expect(v[101]).toBeCloseTo(15 / 15, 10);
  });

  it('is symmetric under a flip of the board (random positions, several presets)', () => {
    for (const preset of ['long', 'fevga', 'khachapuri'] as const) {
      for (const state of longPositions(preset, 5, 12))
        expectSymmetric(encoding, state.position.board, flipLong(state.position.board));
    }
  });
});

describe('long-2 encoding', () => {
  const encoding = createLongEncoding2();
  const v1 = createLongEncoding();

  it("has 2 × 107 inputs, each named; the first 104 of each side are long-1's", () => {
    expect(encoding.name).toBe('long-2');
    expect(encoding.sideInputs).toBe(107);
    expect(encoding.inputs).toBe(214);
    expect(new Set(encoding.sideInputNames).size).toBe(107);
    for (const state of longPositions('long', 7, 20)) {
      const a = dense(encoding, state.position.board);
      const b = dense(v1, state.position.board);
      expect(Array.from(a.subarray(0, 104))).toEqual(Array.from(b.subarray(0, 104)));
      expect(Array.from(a.subarray(107, 211))).toEqual(Array.from(b.subarray(104)));
    }
  });

  it('encodes the start: one point held in any six of the path, 15 checkers in the starting quarter', () => {
    const v = dense(encoding, initialLongPosition('head15').board);
    expect(Array.from(v.subarray(0, 107))).toEqual(Array.from(v.subarray(107)));
    expect(v[104]).toBeCloseTo(1 / 6, 10);
    expect(v[105]).toBeCloseTo(1, 10);
    expect(v[106]).toBe(0);
  });

  it('measures a six-block threat and the checkers it traps', () => {
    // Mover holds own 13..16 and 18 (the opponent's 1..4 and 6): five of six in a row of his path.
    // The opponent's 10 checkers on his 7 then have one open step (to his 5); on his 8 none is blocked by 2.
    const threat = longBoard(
      { points: { 13: 2, 14: 2, 15: 2, 16: 2, 18: 2, 24: 5 } },
      { points: { 7: 10, 20: 5 } },
    );
    const a = dense(encoding, threat);
    expect(a[104]).toBeCloseTo(5 / 6, 10);
    expect(a[106]).toBe(0);
    expect(a[105]).toBeCloseTo(5 / 15, 10);
    // Filling his 5 (the mover's 17) makes a six-block: his checkers on 7 have no open step at all.
    const block = longBoard(
      { points: { 13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 24: 3 } },
      { points: { 7: 10, 20: 5 } },
    );
    const b = dense(encoding, block);
    expect(b[104]).toBeCloseTo(1, 10);
    expect(b[106]).toBeCloseTo(10 / 15, 10);
    expect(b[105]).toBeCloseTo(3 / 15, 10);
  });

  it('is symmetric under a flip of the board (random positions, several presets)', () => {
    for (const preset of ['long', 'fevga', 'khachapuri'] as const) {
      for (const state of longPositions(preset, 5, 12))
        expectSymmetric(encoding, state.position.board, flipLong(state.position.board));
    }
  });
});
