import { Diagram, drawDiagram, longDiagram, shortDiagram } from '../../src/diagram';
import { seatCheckers } from '../../src/engine/long/position';
import { LONG_PRESETS, LongPresetName } from '../../src/engine/long/rules';
import { initialLongPosition } from '../../src/engine/long/position';
import { parseNotation } from '../../src/engine/notation';
import { Side } from '../../src/engine/side';
import { shortSeat } from '../../src/engine/short/position';
import { SHORT_PRESETS, ShortPresetName } from '../../src/engine/short/rules';
import { SeededRandom } from '../../src/engine/random';
import { longSamples, readDiagram, shortSamples } from '../support/diagram';

/*
 * The drawing read back: for seeded self-play positions of every preset,
 * every stack in the SVG states the count of the position (and draws at most
 * five checkers, with the count written above five), nothing else is drawn,
 * and the pending stages, bar, borne-off checkers and cube appear.
 */

const SIDES: readonly Side[] = ['white', 'black'];

function expectCheckers(d: Diagram, svg: string): void {
  const read = readDiagram(svg);
  let expected = 0;
  for (const side of SIDES) {
    const seat = d.seats[side];
    for (let p = 1; p <= 24; p++) {
      const count = seat.points[p];
      const stack = read.stacks.get(`${side}:${p}`);
      if (count === 0) {
        expect(stack).toBeUndefined();
        continue;
      }
      expected++;
      expect(stack).toEqual({ count, circles: Math.min(count, 5), label: count > 5 ? String(count) : null });
    }
    expect(read.bar[side] ?? 0).toBe(seat.bar);
    expect(read.off[side] ?? 0).toBe(seat.off);
    const total = seat.points.reduce((a, b) => a + b, 0) + seat.bar + seat.off;
    expect(total).toBe(15);
  }
  expect(read.stacks.size).toBe(expected);
}

describe('long family: seeded self-play positions of every preset', () => {
  const report: string[] = [];
  afterAll(() => console.log(`diagram samples: ${report.join('; ')}`));

  it.each(Object.keys(LONG_PRESETS) as LongPresetName[])('%s', (preset) => {
    const samples = longSamples(preset, 7000 + preset.length, 8);
    expect(samples.length).toBe(8);
    let pending = 0;
    const origins = new Set<string>();
    for (const [i, state] of samples.entries()) {
      const d = longDiagram(state, { title: preset, dice: null });
      // The seats agree with the engine's own view of the position.
      for (const side of SIDES) expect(d.seats[side].points.slice(1)).toEqual(Array.from(seatCheckers(state.position, side).points).slice(1));
      const viewer = SIDES[i % 2];
      const svg = drawDiagram(d, { viewer, width: 500, theme: i % 3 === 0 ? 'dark' : 'light', labels: viewer });
      expectCheckers(d, svg);
      const read = readDiagram(svg);
      if (state.pending.length > 0) {
        pending++;
        origins.add(state.pending[0].origin);
        const line = read.footer.find((l) => l.startsWith('Still to play'));
        expect(line).toBeDefined();
        for (const stage of state.pending) expect(line).toContain(stage.origin === 'reroll' ? 're-roll' : stage.origin);
      }
      expect(read.cube).toBeNull();
      expect(read.desc).toContain(`${state.position.turn === 'white' ? 'White' : 'Black'} to move`);
    }
    const rules = LONG_PRESETS[preset];
    // Presets with cascades or re-rolls yield pending stages in self-play (TM-2, TM-5).
    if (rules.doubles !== 'standard') expect(pending).toBeGreaterThan(0);
    // Variants that hand unplayed units to the opponent yield debts too (TM-3).
    if (rules.doubles !== 'standard' && rules.unplayedDoubles !== 'forfeit') expect(origins.has('debt')).toBe(true);
    report.push(`${preset} ${samples.length} (pending: ${[...origins].join(', ') || 'none'})`);
  });

  it('puts both heads in opposite corners and the homes where GEO-L3 says, from either side', () => {
    const state = { position: initialLongPosition('head15'), pending: [] };
    const d = longDiagram(state, { title: 'Long nardy', dice: [6, 5] });
    const fromWhite = drawDiagram(d, { viewer: 'white', width: 600, theme: 'light', labels: 'white' });
    expect(fromWhite).toContain('data-side="white" data-point="24" data-viewer-point="24" data-count="15"');
    expect(fromWhite).toContain('data-side="black" data-point="24" data-viewer-point="12" data-count="15"');
    const fromBlack = drawDiagram(d, { viewer: 'black', width: 600, theme: 'light', labels: 'black' });
    expect(fromBlack).toContain('data-side="black" data-point="24" data-viewer-point="24" data-count="15"');
    expect(fromBlack).toContain('data-side="white" data-point="24" data-viewer-point="12" data-count="15"');
    expect(readDiagram(fromWhite).dice).toEqual([6, 5]);
    expect(readDiagram(fromWhite).footer).toContain('First turn still to play: White and Black (head rule LN-HEAD-2)');
  });

  it("labels points in either side's numbering (COM-5)", () => {
    const d = longDiagram({ position: initialLongPosition('head15'), pending: [] }, { title: 'Long nardy', dice: null });
    const labels = (labelSide: Side | 'none') =>
      [...drawDiagram(d, { viewer: 'white', width: 600, theme: 'light', labels: labelSide }).matchAll(/class="label" data-viewer-point="24">(\d+)</g)].map((m) => m[1]);
    expect(labels('white')).toEqual(['24']);
    expect(labels('black')).toEqual(['12']);
    expect(labels('none')).toEqual([]);
  });

  it('draws a move as one arrow per segment, in the mover\'s numbering', () => {
    const segments = parseNotation('24/18/13');
    if (!segments.ok) throw new Error('notation');
    const d = longDiagram({ position: initialLongPosition('head15'), pending: [] }, { title: 'Long nardy', dice: [6, 5], move: { text: '24/18/13', segments: segments.value } });
    expect(readDiagram(drawDiagram(d, { viewer: 'black', width: 600, theme: 'light', labels: 'black' })).arrows).toEqual([
      { from: 24, to: 18 },
      { from: 18, to: 13 },
    ]);
  });
});

describe('short family: seeded self-play positions with the bar, borne-off checkers and the cube', () => {
  it.each(Object.keys(SHORT_PRESETS) as ShortPresetName[])('%s', (preset) => {
    const samples = shortSamples(preset, 9100 + preset.length, 12);
    expect(samples.length).toBe(12);
    const random = new SeededRandom(5);
    let onBar = 0;
    let borneOff = 0;
    for (const [i, position] of samples.entries()) {
      const owner: Side | null = i % 3 === 0 ? null : SIDES[i % 2];
      const cube = { value: owner ? 2 ** (1 + random.below(6)) : 1, owner };
      const d = shortDiagram(position, { title: preset, dice: random.dice(), cube, match: { length: 7, score: { white: i % 7, black: 3 }, crawford: false } });
      for (const side of SIDES) {
        const seat = shortSeat(position, side);
        expect(d.seats[side].bar).toBe(seat.bar);
        onBar += seat.bar;
        borneOff += seat.off;
      }
      const svg = drawDiagram(d, { viewer: SIDES[i % 2], width: 400, theme: 'light', labels: 'white' });
      expectCheckers(d, svg);
      const read = readDiagram(svg);
      expect(read.cube).toEqual({ value: cube.value, owner: owner ?? 'center' });
      expect(read.dice).toEqual([...(d.dice ?? [])]);
      expect(read.footer[0]).toMatch(/^Pips: White \d+ · Black \d+ · Match to 7: White \d, Black 3\.$/);
    }
    expect(onBar).toBeGreaterThan(0);
    expect(borneOff).toBeGreaterThan(0);
  });

  it('counts the bar as 25 pips (COM-3) and mirrors the points for the other side (GEO-S1)', () => {
    const samples = shortSamples('backgammon', 31, 3);
    const position = samples[0];
    const d = shortDiagram(position, { title: 'Backgammon', dice: null });
    const seat = shortSeat(position, 'white');
    let pips = seat.bar * 25;
    for (let p = 1; p <= 24; p++) pips += seat.points[p] * p;
    expect(d.seats.white.pips).toBe(pips);
    const svg = drawDiagram(d, { viewer: 'black', width: 400, theme: 'dark', labels: 'none' });
    for (let p = 1; p <= 24; p++) {
      if (seat.points[p] > 0) expect(svg).toContain(`data-side="white" data-point="${p}" data-viewer-point="${25 - p}"`);
    }
  });
});
