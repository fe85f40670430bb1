import { flipBoard as flipLong } from '../../../src/engine/long/board';
import { initialLongPosition } from '../../../src/engine/long/position';
import { flipBoard as flipShort } from '../../../src/engine/short/board';
import { initialShortPosition } from '../../../src/engine/short/position';
import { NeuralEncoding } from '../../../src/eval/neural/encoding';
import { createLongEncoding, createLongEncoding2 } from '../../../src/eval/neural/long-encoding';
import { sparseInput } from '../../../src/eval/neural/network';
import { createShortEncoding } from '../../../src/eval/neural/short-encoding';
import { longBoard, shortBoard } from '../support';
import { longPositions, shortPositions } from './support';

function dense(encoding: NeuralEncoding, board: Int8Array): Float64Array {
  const input = sparseInput(encoding.inputs);
  encoding.encode(board, input);
  const out = new Float64Array(encoding.inputs);
  for (let k = 0; k < input.count; k++) {
    expect(input.index[k]).toBeGreaterThanOrEqual(0);
    expect(input.index[k]).toBeLessThan(encoding.inputs);
    if (k > 0) expect(input.index[k]).toBeGreaterThan(input.index[k - 1]);
    expect(input.value[k]).not.toBe(0);
    expect(Number.isFinite(input.value[k])).toBe(true);
    out[input.index[k]] = input.value[k];
  }
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
