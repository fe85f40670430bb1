import fc from 'fast-check';
import { playLongGame } from '../../../src/engine/long/game';
import { initialLongPosition, makeLongPositionJson, parseLongPosition } from '../../../src/engine/long/position';
import { makeLongPositionId, parseLongPositionId } from '../../../src/engine/long/position-id';
import { LONG_PRESETS, LongPresetName } from '../../../src/engine/long/rules';
import { makeLongStateJson, parseLongState } from '../../../src/engine/long/state';
import { LongState } from '../../../src/engine/long/turn';
import { expandSegments, makeNotation, parseNotation } from '../../../src/engine/notation';
import { SeededRandom } from '../../../src/engine/random';
import { expectBe, expectEqual } from '../../support/expect';
import { runs } from '../../support/runs';

/* Round trips of every format: JSON position, position ID, notation. */

function statesOf(preset: LongPresetName, seed: number, games: number): LongState[] {
  const out: LongState[] = [];
  const random = new SeededRandom(seed);
  for (let g = 0; g < games; g++) playLongGame(LONG_PRESETS[preset], random, (step) => out.push(step.chosen.state));
  return out;
}

describe('long-family formats', () => {
  const presets: LongPresetName[] = ['long', 'crazy', 'crazy-gulbar', 'gulbar', 'khachapuri', 'giul', 'gulbara-intl'];

  it.each(presets)('%s: position ID and JSON round-trip on every state of 20 self-play games', (preset) => {
    const rules = LONG_PRESETS[preset];
    const states = statesOf(preset, 42, 20);
    expect(states.length).toBeGreaterThan(500);
    for (const state of states) {
      const id = makeLongPositionId(state);
      const back = parseLongPositionId(id);
      if (!back.ok) throw new Error(`${id}: ${back.error.message}`);
      // Every state of the games: the hot-loop forms of toBe / toEqual (test/support/expect.ts).
      expectBe(makeLongPositionId(back.value), id);
      expectEqual(Array.from(back.value.position.board), Array.from(state.position.board));
      expectEqual(back.value.pending, state.pending);
      const json = makeLongStateJson(state);
      const parsed = parseLongState(JSON.parse(JSON.stringify(json)), rules);
      if (!parsed.ok) throw new Error(`${JSON.stringify(json)}: ${parsed.error.message}`);
      expectBe(makeLongPositionId(parsed.value), id);
    }
  });

  it('the start has a fixed ID, different for each side to move and first-turn flags', () => {
    const white = { position: initialLongPosition('head15', 'white'), pending: [] };
    const black = { position: initialLongPosition('head15', 'black'), pending: [] };
    expect(makeLongPositionId(white)).toBe('GAAA8_fAAAg__DA');
    expect(makeLongPositionId(black)).not.toBe(makeLongPositionId(white));
    const later = { position: { ...white.position, firstTurn: { white: false, black: true } }, pending: [] };
    expect(makeLongPositionId(later)).not.toBe(makeLongPositionId(white));
  });

  it('an asymmetric position keeps each side on its own points', () => {
    const parsed = parseLongPosition(
      { turn: 'black', white: { points: { 24: 10, 18: 2, 3: 1 }, off: 2 }, black: { points: { 24: 12, 9: 3 } } },
      'head15',
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    const back = parseLongPositionId(makeLongPositionId({ position: parsed.value, pending: [] }));
    if (!back.ok) throw new Error(back.error.message);
    expect(makeLongPositionJson(back.value.position)).toEqual({
      turn: 'black',
      white: { points: { 24: 10, 18: 2, 3: 1 }, off: 2 },
      black: { points: { 24: 12, 9: 3 }, off: 0 },
      firstTurn: { white: false, black: false },
    });
  });

  it.each([
    ['', 'INVALID_POSITION_ID'],
    ['!!!!', 'INVALID_POSITION_ID'],
    ['GAAA8_fAAAg__DA.x', 'INVALID_POSITION_ID'],
    ['GAAA8_fAAAg__DA.d45', 'INVALID_POSITION_ID'],
    ['////////////////', 'INVALID_POSITION_ID'],
    ['__________', 'INVALID_POSITION_ID'],
  ])('rejects the ID %j', (id, code) => {
    const r = parseLongPositionId(id);
    expect(r.ok ? 'ok' : r.error.code).toBe(code);
  });

  it('random byte strings never crash the ID parser and never yield an impossible position', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        const r = parseLongPositionId(text);
        if (r.ok) {
          const json = makeLongPositionJson(r.value.position);
          for (const side of [json.white, json.black]) {
            expect(Object.values(side.points).reduce((a, b) => a + b, 0) + (side.off ?? 0)).toBe(15);
          }
        }
      }),
      { seed: 11, numRuns: runs(2000) },
    );
  });

  it('notation: make then parse gives back the steps of every play of self-play games', () => {
    const random = new SeededRandom(3);
    let checked = 0;
    for (let g = 0; g < 10; g++) {
      playLongGame(LONG_PRESETS.long, random, (step) => {
        const steps = step.chosen.steps;
        const text = makeNotation(steps);
        const segments = parseNotation(text);
        if (!segments.ok) throw new Error(text);
        const sorted = (s: readonly { from: number; to: number }[]) =>
          s.map((x) => `${x.from}/${x.to}`).sort().join(' ');
        expect(sorted(segments.value)).toBe(sorted(steps));
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(500);
  });

  it.each([
    ['24/18 18/13', [[24, 18], [18, 13]]],
    ['24/18/13', [[24, 18], [18, 13]]],
    ['24/18(2)', [[24, 18], [24, 18]]],
    ['6/off 5/off', [[6, 0], [5, 0]]],
    ['bar/22*', [[25, 22]]],
    ['pass', []],
  ])('parses %j', (text, steps) => {
    const r = parseNotation(text);
    expect(r.ok && r.value.map((s) => [s.from, s.to])).toEqual(steps);
  });

  it.each(['24', '24/', 'a/b', '24/18(5)', '30/1', '7/7'])('rejects %j', (text) => {
    const r = parseNotation(text);
    expect(r.ok ? 'ok' : r.error.code).toBe('INVALID_NOTATION');
  });

  it('writes chains with intermediate points and counts repeats', () => {
    expect(makeNotation([{ from: 24, to: 18 }, { from: 18, to: 13 }])).toBe('24/18/13');
    expect(makeNotation([{ from: 24, to: 18 }, { from: 24, to: 18 }])).toBe('24/18(2)');
    expect(makeNotation([{ from: 6, to: 0 }, { from: 5, to: 0 }])).toBe('6/off 5/off');
    expect(makeNotation([])).toBe('');
  });

  it('expands a segment spanning two dice into both orders', () => {
    const readings = expandSegments([{ from: 24, to: 13, hit: false }], [6, 5]);
    expect(readings).toEqual([
      [
        { from: 24, to: 18 },
        { from: 18, to: 13 },
      ],
      [
        { from: 24, to: 19 },
        { from: 19, to: 13 },
      ],
    ]);
  });
});
