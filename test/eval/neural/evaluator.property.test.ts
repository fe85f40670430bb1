import fc from 'fast-check';
import { LONG_PRESETS, LongPresetName } from '../../../src/engine/long/rules';
import { longBearoffRuleSet } from '../../../src/eval/long/evaluator';
import { LongSearch } from '../../../src/eval/long/search';
import { NeuralEvaluator, createNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { ShortSearch } from '../../../src/eval/short/search';
import { searchSettings } from '../../../src/eval/search-options';
import { database, longBoard, shortBoard } from '../support';
import { expectOrdered, longPositions, randomWeights, shortPositions } from './support';
import { runs } from '../../support/runs';

function shortNet(seed: number): NeuralEvaluator {
  const r = createNeuralEvaluator(randomWeights('short', 16, seed), { database: () => database('standard') });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function longNet(preset: LongPresetName, seed: number): NeuralEvaluator {
  const rules = LONG_PRESETS[preset];
  const r = createNeuralEvaluator(randomWeights('long', 16, seed), {
    rules,
    database: () => database(longBearoffRuleSet(rules)),
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('neural evaluators: output invariants', () => {
  const boards = shortPositions(21, 200);

  it('backgammon: ordered probabilities on self-play positions, any weights', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: boards.length - 1 }),
        fc.integer({ min: 1, max: 50 }),
        (k, seed) => {
          expectOrdered(shortNet(seed).evaluate(boards[k]));
        },
      ),
      { numRuns: runs(60), seed: 7 },
    );
  });

  it('long family: ordered probabilities, koks 0 under K0, on every long preset', () => {
    const presets = Object.keys(LONG_PRESETS) as LongPresetName[];
    const states = new Map(presets.map((p) => [p, longPositions(p, 3, 40)]));
    const nets = new Map(presets.map((p) => [p, longNet(p, 5)]));
    fc.assert(
      fc.property(fc.constantFrom(...presets), fc.integer({ min: 0, max: 39 }), (preset, k) => {
        const p = (nets.get(preset) as NeuralEvaluator).evaluate(
          (states.get(preset) as ReturnType<typeof longPositions>)[k].position.board,
        );
        expectOrdered(p);
        expect(p.winKoks).toBe(0);
        expect(p.loseKoks).toBe(0);
      }),
      { numRuns: runs(120), seed: 8 },
    );
  });

  it('hands races to the race evaluator and finished games to their result', () => {
    const net = shortNet(1);
    const race = shortBoard({ points: { 1: 3, 2: 3 } }, { points: { 3: 4, 5: 4 } });
    expect(net.isRace(race)).toBe(true);
    expect(net.evaluate(race)).toEqual(net.race.evaluate(race));
    const won = shortBoard({ points: {} }, { points: { 19: 2, 6: 13 } });
    expect(net.evaluate(won)).toEqual({ win: 1, winMars: 1, winKoks: 1, loseMars: 0, loseKoks: 0 });
    const long = longNet('long', 2);
    const longRace = longBoard({ points: { 1: 5, 12: 5 } }, { points: { 3: 6 } });
    expect(long.isRace(longRace)).toBe(true);
    expect(long.evaluate(longRace)).toEqual(long.race.evaluate(longRace));
  });

  it('plugs into the searches unchanged (0 and 1 ply)', () => {
    const short = new ShortSearch(shortNet(4));
    const ranked = short.rankTurns(boards[10], [6, 5], searchSettings(1));
    expect(ranked.length).toBeGreaterThan(0);
    for (const t of ranked) expectOrdered(t.probabilities);
    const rules = LONG_PRESETS.long;
    const search = new LongSearch(rules, longNet('long', 4));
    const state = longPositions('long', 9, 5)[4];
    const r = search.rankTurns(state, [4, 2], searchSettings(1));
    if (!r.ok) throw new Error(r.error.message);
    for (const t of r.value) expectOrdered(t.probabilities);
  });
});
