import { CLASSIC, LONG_PRESETS, LongPresetName } from '../../../src/engine/long/rules';
import { initialLongPosition } from '../../../src/engine/long/position';
import { initialShortPosition } from '../../../src/engine/short/position';
import { weightsHash } from '../../../src/eval/neural/format';
import { readLongNet, readNetFiles, readShortNet } from '../../../src/service/analysis/nets';
import { expectOrdered, longPositions, shortPositions } from './support';

/** The committed networks (data/nets/) load, match their manifests and give sensible numbers. */
describe('committed networks', () => {
  it.each(['backgammon', 'long', 'khachapuri'])(
    '%s: the manifest describes the bytes',
    (name) => {
      const { bytes, manifest } = readNetFiles(name);
      expect((manifest as { version: string }).version).toBe(weightsHash(bytes));
      expect(bytes.length).toBeLessThan(3_000_000);
    },
  );

  it('backgammon: the opening is close to even, a little better for the side to move', () => {
    const net = readShortNet();
    const p = net.evaluate(initialShortPosition().board);
    expect(p.win).toBeGreaterThan(0.48);
    expect(p.win).toBeLessThan(0.6);
    for (const board of shortPositions(31, 50)) expectOrdered(net.evaluate(board));
  });

  it('long: the start is close to even on every preset, ordered outputs on self-play positions', () => {
    const classic = readLongNet(CLASSIC);
    const start = classic.evaluate(initialLongPosition('head15').board);
    expect(start.win).toBeGreaterThan(0.45);
    expect(start.win).toBeLessThan(0.65);
    for (const preset of Object.keys(LONG_PRESETS) as LongPresetName[]) {
      const net = readLongNet(LONG_PRESETS[preset]);
      for (const state of longPositions(preset, 13, 10)) expectOrdered(net.evaluate(state.position.board));
    }
  });

  it.each(['khachapuri'] as const)(
    '%s: its own network gives ordered outputs on its own positions',
    (preset) => {
      const net = readLongNet(LONG_PRESETS[preset], preset);
      const start = net.evaluate(initialLongPosition(LONG_PRESETS[preset].initialPosition).board);
      expect(start.win).toBeGreaterThan(0.4);
      expect(start.win).toBeLessThan(0.7);
      for (const state of longPositions(preset, 17, 10)) expectOrdered(net.evaluate(state.position.board));
    },
  );
});
