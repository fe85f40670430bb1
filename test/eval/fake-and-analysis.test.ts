import { initialLongPosition } from '../../src/engine/long/position';
import { LONG_PRESETS } from '../../src/engine/long/rules';
import { initialShortPosition } from '../../src/engine/short/position';
import { SHORT_STANDARD } from '../../src/engine/short/rules';
import { createLongAnalyzer, createShortAnalyzer } from '../../src/eval/analysis';
import { createFakeEvaluator } from '../../src/eval/fake';
import { longPipCounts, shortPipCounts } from '../../src/eval/pips';
import { database, shortBoard } from './support';

describe('pip counts (COM-3)', () => {
  it('start at 360 in long nardy and 167 in backgammon for each side', () => {
    expect(longPipCounts(initialLongPosition('head15').board)).toEqual({ mover: 360, opponent: 360 });
    expect(shortPipCounts(initialShortPosition().board)).toEqual({ mover: 167, opponent: 167 });
  });

  it('count the bar as 25 in backgammon', () => {
    expect(shortPipCounts(shortBoard({ points: { 6: 14 }, bar: 1 }, { points: { 6: 15 } })).mover).toBe(14 * 6 + 25);
  });
});

describe('FakeEvaluator', () => {
  it('is deterministic, pip-based by default, and counts its calls', () => {
    const fake = createFakeEvaluator({ family: 'short' });
    const board = initialShortPosition().board;
    expect(fake.evaluate(board)).toEqual(fake.evaluate(board));
    expect(fake.evaluate(board).win).toBe(0.5);
    expect(fake.calls).toBe(3);
    expect(fake.name).toBe('fake');
  });

  it('returns fixed probabilities when given them', () => {
    const fixed = { win: 0.6, winMars: 0.2, winKoks: 0.01, loseMars: 0.1, loseKoks: 0 };
    const fake = createFakeEvaluator({ family: 'long', probabilities: fixed, version: 'test' });
    expect(fake.evaluateBatch([initialLongPosition('head15').board, initialLongPosition('head15').board])).toEqual([fixed, fixed]);
    expect(fake.version).toBe('test');
  });

  it('drives the analyzers with exact, predictable numbers (for API tests)', () => {
    const fixed = { win: 0.6, winMars: 0.2, winKoks: 0.01, loseMars: 0.1, loseKoks: 0 };
    const short = createShortAnalyzer(SHORT_STANDARD, { evaluator: createFakeEvaluator({ family: 'short', probabilities: fixed }) });
    const e = short.evaluate(initialShortPosition(), 0);
    expect(e.ok && e.value.probabilities).toEqual(fixed);
    expect(e.ok && e.value.equity).toBeCloseTo(2 * 0.6 - 1 + 0.2 - 0.1 + 0.01, 12);
    const ranked = short.rankTurns(initialShortPosition(), [3, 1], 0);
    expect(ranked.ok && ranked.value).toHaveLength(16); // BG-T01
    const long = createLongAnalyzer(LONG_PRESETS.long, { evaluator: createFakeEvaluator({ family: 'long' }) });
    const plays = long.rankTurns({ position: initialLongPosition('head15'), pending: [] }, [6, 5], 1);
    expect(plays.ok && plays.value).toHaveLength(1); // LN-T06
  });
});

describe('analyzers', () => {
  const short = createShortAnalyzer(SHORT_STANDARD, { bearoff: (r) => database(r) });

  it('reject plies outside 0..2 with a stable code', () => {
    const r = short.evaluate(initialShortPosition(), 3);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('INVALID_REQUEST');
  });

  it('evaluate, rank and decide the cube for the opening position', () => {
    const e = short.evaluate(initialShortPosition(), 1);
    if (!e.ok) throw new Error(e.error.message);
    expect(e.value.race).toBe(false);
    expect(e.value.probabilities.win).toBeGreaterThan(0.4);
    expect(e.value.probabilities.win).toBeLessThan(0.65);
    const cube = short.cube(initialShortPosition(), { kind: 'money', value: 1, owner: 'centre' }, 0);
    expect(cube.ok && cube.value.action).toBe('noDouble');
  });

  it('long analyzer: evaluates the start of every preset and refuses the cube with a stage pending', () => {
    for (const rules of Object.values(LONG_PRESETS)) {
      const analyzer = createLongAnalyzer(rules, { bearoff: (r) => database(r) });
      const e = analyzer.evaluate({ position: initialLongPosition(rules.initialPosition), pending: [] }, 0);
      if (!e.ok) throw new Error(e.error.message);
      expect(e.value.probabilities.win).toBeGreaterThan(0.3);
      expect(e.value.probabilities.win).toBeLessThan(0.8);
    }
    const crazy = createLongAnalyzer(LONG_PRESETS.crazy, { bearoff: (r) => database(r) });
    const pending = crazy.cube(
      { position: initialLongPosition('head15'), pending: [{ actor: 'white', origin: 'cascade', units: [5, 5, 5, 5] }] },
      { kind: 'money', value: 1, owner: 'centre' },
      0,
    );
    expect(pending.ok).toBe(false);
  });
});
