import { Dice } from '../../src/engine/dice';
import { flipBoard as flipLongBoard } from '../../src/engine/long/board';
import { newLongGame } from '../../src/engine/long/game';
import { LONG_PRESETS } from '../../src/engine/long/rules';
import { LongState, legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { flipBoard as flipShortBoard } from '../../src/engine/short/board';
import { initialShortPosition } from '../../src/engine/short/position';
import { SHORT_STANDARD } from '../../src/engine/short/rules';
import { legalShortTurns } from '../../src/engine/short/turn';
import { STANDARD_VALUES, OIN_MARS_VALUES, cubelessEquity } from '../../src/eval/equity';
import { createLongEvaluator } from '../../src/eval/long/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { flipProbabilities } from '../../src/eval/probabilities';
import { ROOT_FILTER, STEP_FILTERS, SearchBudgetExceeded, bestTurnSettings, searchSettings } from '../../src/eval/search-options';
import { createFakeEvaluator } from '../../src/eval/fake';
import { createShortAnalyzer } from '../../src/eval/analysis';
import { parseLongState } from '../../src/engine/long/state';
import { SHORT_ROLLS } from '../../src/eval/short/features';
import { createShortEvaluator } from '../../src/eval/short/evaluator';
import { ShortSearch } from '../../src/eval/short/search';
import { given } from '../support/long-builder';
import { database, shortBoard } from './support';

const shortEvaluator = createShortEvaluator({ database: () => database('standard') });
const shortSearch = new ShortSearch(shortEvaluator);
const longRules = LONG_PRESETS.long;
const longEvaluator = createLongEvaluator({ rules: longRules, database: () => database('standard') });
const longSearch = new LongSearch(longRules, longEvaluator);

/** Positions from a seeded random backgammon game, with the roll to play. */
function shortPositions(seed: number, count: number): { board: Int8Array; dice: Dice }[] {
  const random = new SeededRandom(seed);
  const out: { board: Int8Array; dice: Dice }[] = [];
  let position = initialShortPosition('white');
  while (out.length < count) {
    const dice = random.dice();
    out.push({ board: position.board, dice });
    const answer = legalShortTurns(SHORT_STANDARD, position, dice);
    if (!answer.ok) throw new Error(answer.error.message);
    const turn = random.pick(answer.value.turns);
    if (turn.gameOver) position = initialShortPosition('white');
    else position = turn.position;
  }
  return out;
}

function longPositions(seed: number, count: number): { state: LongState; dice: Dice }[] {
  const random = new SeededRandom(seed);
  const out: { state: LongState; dice: Dice }[] = [];
  let state = newLongGame(longRules, 'white');
  while (out.length < count) {
    const dice = random.dice();
    out.push({ state, dice });
    const answer = legalLongTurns(longRules, state, dice);
    if (!answer.ok) throw new Error(answer.error.message);
    const turn = random.pick(answer.value.turns);
    state = turn.next.kind === 'gameOver' ? newLongGame(longRules, 'white') : turn.state;
  }
  return out;
}

describe('expectimax consistency (backgammon)', () => {
  it('the 0-ply best turn is the argmax of the 0-ply evaluations of the resulting positions', () => {
    for (const { board, dice } of shortPositions(11, 60)) {
      const ranked = shortSearch.rankTurns(board, dice, searchSettings(0));
      const answer = legalShortTurns(SHORT_STANDARD, { turn: 'white', board }, dice);
      if (!answer.ok) throw new Error(answer.error.message);
      let best = -Infinity;
      for (const t of answer.value.turns) {
        const e = t.gameOver ? 3 : cubelessEquity(flipProbabilities(shortEvaluator.evaluate(flipShortBoard(t.board))), STANDARD_VALUES);
        best = Math.max(best, e);
      }
      expect(ranked[0].equity).toBeCloseTo(best, 9);
      expect(ranked).toHaveLength(answer.value.turns.length);
      expect(ranked[0].equityDiff).toBe(0);
      for (let i = 1; i < ranked.length; i++) expect(ranked[i].equity).toBeLessThanOrEqual(ranked[i - 1].equity);
    }
  });

  it('1-ply value = average over the 21 rolls of the best 0-ply result', () => {
    const board = shortBoard({ points: { 6: 3, 5: 3, 4: 2, 8: 2 } }, { points: { 6: 2, 5: 3, 3: 3, 9: 1 } });
    const manual = [0, 0, 0, 0, 0];
    for (const [a, b] of SHORT_ROLLS) {
      const answer = legalShortTurns(SHORT_STANDARD, { turn: 'white', board }, [a, b]);
      if (!answer.ok) throw new Error(answer.error.message);
      let best: number[] | null = null;
      let bestEquity = -Infinity;
      for (const t of answer.value.turns) {
        const p = flipProbabilities(shortEvaluator.evaluate(flipShortBoard(t.board)));
        const e = cubelessEquity(p);
        if (e > bestEquity) {
          bestEquity = e;
          best = [p.win, p.winMars, p.winKoks, p.loseMars, p.loseKoks];
        }
      }
      const w = a === b ? 1 / 36 : 2 / 36;
      for (let i = 0; i < 5; i++) manual[i] += w * (best as number[])[i];
    }
    const searched = shortSearch.evaluate(board, 1);
    expect(searched.win).toBeCloseTo(manual[0], 9);
    expect(searched.winMars).toBeCloseTo(manual[1], 9);
    expect(searched.loseMars).toBeCloseTo(manual[3], 9);
  });

  it('a turn that bears off the last checker ranks first as a certain win', () => {
    const board = shortBoard({ points: { 1: 1 }, off: 14 }, { points: { 6: 15 } });
    const ranked = shortSearch.rankTurns(board, [6, 5], searchSettings(1));
    expect(ranked[0].probabilities.win).toBe(1);
    expect(ranked[0].probabilities.winMars).toBe(1);
  });

  it('deeper rankings are sorted, searched candidates first, and report their depth', () => {
    for (const { board, dice } of shortPositions(5, 4)) {
      const ranked = shortSearch.rankTurns(board, dice, searchSettings(1));
      expect(ranked[0].equityDiff).toBe(0);
      const searched = ranked.filter((r) => r.plies === 1);
      if (ranked.length > 1) expect(searched.length).toBeGreaterThan(0);
      expect(searched.length).toBeLessThanOrEqual(8);
      // Searched turns compare with each other; the rest keep 0-ply values (search-options.ts).
      for (const r of searched) expect(r.equityDiff).toBeLessThanOrEqual(1e-12);
    }
  });
});

describe('the 2-ply cascade (stepFilter)', () => {
  it('searches at 2 plies only the best root candidates by their 1-ply equity, each valued as without the cascade', () => {
    const root = { keep: 3, window: 0.3 };
    const step = { keep: 2, window: 0.1 };
    const inner = { keep: 1, window: 0 }; // gnubg's inner filter, to keep the test short
    const key = (board: Int8Array): string => board.join(',');
    let checked = 0;
    for (const { board, dice } of shortPositions(9, 3)) {
      const one = shortSearch.rankTurns(board, dice, searchSettings(1, root, inner));
      const two = shortSearch.rankTurns(board, dice, searchSettings(2, root, inner, null));
      const cascade = shortSearch.rankTurns(board, dice, searchSettings(2, root, inner, step));
      const at1 = new Map(one.filter((r) => r.plies === 1).map((r) => [key(r.board), r.equity]));
      const at2 = new Map(two.filter((r) => r.plies === 2).map((r) => [key(r.board), r.equity]));
      if (at1.size < 2) continue; // one candidate: nothing to cascade
      checked++;
      const deep = cascade.filter((r) => r.plies === 2);
      const middle = cascade.filter((r) => r.plies === 1);
      expect(deep.length).toBeGreaterThanOrEqual(1);
      expect(deep.length).toBeLessThanOrEqual(step.keep);
      expect(deep.length + middle.length).toBe(at1.size);
      expect(cascade.slice(0, deep.length).every((r) => r.plies === 2)).toBe(true);
      for (const r of deep) expect(r.equity).toBeCloseTo(at2.get(key(r.board)) as number, 12);
      for (const r of middle) expect(r.equity).toBeCloseTo(at1.get(key(r.board)) as number, 12);
      // The ones that went on are the best at 1 ply, within the step window of the best.
      const best1 = Math.max(...at1.values());
      const deep1 = deep.map((r) => at1.get(key(r.board)) as number);
      expect(Math.max(...deep1)).toBe(best1);
      for (const e of deep1) expect(e).toBeGreaterThanOrEqual(best1 - step.window);
      for (const r of middle) expect(at1.get(key(r.board)) as number).toBeLessThanOrEqual(Math.min(...deep1));
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('a kept play (the play made, in an analysis)', () => {
  const stepsKey = (steps: readonly { from: number; to: number }[]): string => steps.map((x) => `${x.from}/${x.to}`).join(' ');
  const root = { keep: 2, window: 0.3 };
  const inner = { keep: 1, window: 0 };

  it('is searched at the full depth through the root filter and the cascade; the other plays are valued as without it', () => {
    let checked = 0;
    for (const { board, dice } of shortPositions(9, 4)) {
      const settings = searchSettings(2, root, inner, { keep: 1, window: 0.1 });
      const plain = shortSearch.rankTurns(board, dice, settings);
      const left = plain[plain.length - 1];
      if (plain.length < 2 || left.plies === 2) continue; // a single play, or every play searched anyway
      checked++;
      const kept = shortSearch.rankTurns(board, dice, settings, (steps) => stepsKey(steps) === stepsKey(left.steps));
      const mine = kept.find((r) => stepsKey(r.steps) === stepsKey(left.steps));
      expect(mine?.plies).toBe(2);
      // Its 2-ply value is the one a search that kept every play finds.
      const wide = shortSearch.rankTurns(board, dice, searchSettings(2, { keep: 100, window: 10 }, inner, null));
      expect(mine?.equity).toBeCloseTo(wide.find((r) => stepsKey(r.steps) === stepsKey(left.steps))?.equity as number, 12);
      for (const r of plain) {
        if (stepsKey(r.steps) === stepsKey(left.steps)) continue;
        const same = kept.find((k) => stepsKey(k.steps) === stepsKey(r.steps));
        expect(same?.plies).toBe(r.plies);
        expect(same?.equity).toBeCloseTo(r.equity, 12);
      }
      // Searched plays first, then by equity.
      const depths = kept.map((r) => r.plies);
      expect([...depths].sort((a, b) => b - a)).toEqual(depths);
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('is searched at the full depth in long nardy too', () => {
    let checked = 0;
    for (const { state, dice } of longPositions(3, 6)) {
      const plain = longSearch.rankTurns(state, dice, searchSettings(1, root, inner));
      if (!plain.ok) throw new Error(plain.error.message);
      const left = plain.value[plain.value.length - 1];
      if (plain.value.length < 2 || left.plies === 1) continue; // a single play is not searched: nothing to rank
      checked++;
      const kept = longSearch.rankTurns(state, dice, searchSettings(1, root, inner), (steps) => stepsKey(steps) === stepsKey(left.steps));
      if (!kept.ok) throw new Error(kept.error.message);
      expect(kept.value.find((r) => stepsKey(r.steps) === stepsKey(left.steps))?.plies).toBe(1);
      expect(kept.value.filter((r) => r.plies === 1)).toHaveLength(plain.value.filter((r) => r.plies === 1).length + 1);
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('the analyzers’ best-turn settings (bestTurnSettings)', () => {
  it('cascade at 2 plies in backgammon only, and the backgammon analyzer ranks by it', () => {
    expect(bestTurnSettings('short', 2).stepFilter).toEqual(STEP_FILTERS.short);
    expect(bestTurnSettings('long', 2).stepFilter).toBeNull();
    // A fake evaluator values every result alike: all 14 plays of 6-4 tie, so each filter keeps its full count.
    const analyzer = createShortAnalyzer(SHORT_STANDARD, { evaluator: createFakeEvaluator({ family: 'short' }) });
    const ranked = analyzer.rankTurns(initialShortPosition('white'), [6, 4], 2);
    if (!ranked.ok) throw new Error(ranked.error.message);
    const depths = ranked.value.map((t) => t.plies);
    const step = STEP_FILTERS.short?.keep ?? 0;
    expect(depths.filter((p) => p === 2)).toHaveLength(step);
    expect(depths.filter((p) => p === 1)).toHaveLength(ROOT_FILTER.keep - step);
    expect(depths.filter((p) => p === 0)).toHaveLength(ranked.value.length - ROOT_FILTER.keep);
    expect([...depths].sort((a, b) => b - a)).toEqual(depths);
  });
});

describe('expectimax consistency (long nardy)', () => {
  it('the 0-ply best play is the argmax of the 0-ply evaluations of the resulting positions', () => {
    for (const { state, dice } of longPositions(3, 40)) {
      const ranked = longSearch.rankTurns(state, dice, searchSettings(0));
      if (!ranked.ok) throw new Error(ranked.error.message);
      const answer = legalLongTurns(longRules, state, dice);
      if (!answer.ok) throw new Error(answer.error.message);
      let best = -Infinity;
      for (const t of answer.value.turns) {
        const p = flipProbabilities(longEvaluator.evaluate(flipLongBoard(t.board)));
        best = Math.max(best, cubelessEquity(p, OIN_MARS_VALUES));
      }
      expect(ranked.value[0].equity).toBeCloseTo(best, 9);
    }
  });

  it('1-ply rankings of the opening are sorted and use the first-turn head rule (LN-HEAD-2)', () => {
    const state = newLongGame(longRules, 'white');
    const ranked = longSearch.rankTurns(state, [6, 6], searchSettings(1));
    if (!ranked.ok) throw new Error(ranked.error.message);
    // LN-T01: 6-6 on the first turn has exactly one result.
    expect(ranked.value).toHaveLength(1);
    const three = longSearch.rankTurns(state, [3, 3], searchSettings(1));
    if (!three.ok) throw new Error(three.error.message);
    expect(three.value).toHaveLength(2); // LN-T03
    expect(three.value[0].equity).toBeGreaterThanOrEqual(three.value[1].equity);
  });

  it('cascades (CR-1) and debts (TM-4) are ranked through the turn model', () => {
    const crazy = LONG_PRESETS.crazy;
    const search = new LongSearch(crazy, createLongEvaluator({ rules: crazy, database: () => database('exactOnly') }));
    // V-T02 position: White rolls 2-2 with the cascade active.
    const state = given({ white: { 13: 1, 3: 14 }, black: { 13: 1, 14: 14 } });
    const ranked = search.rankTurns(state, [2, 2], searchSettings(1));
    if (!ranked.ok) throw new Error(ranked.error.message);
    expect(ranked.value.length).toBeGreaterThan(0);
    const gulbar = LONG_PRESETS['crazy-gulbar'];
    const debtSearch = new LongSearch(gulbar, createLongEvaluator({ rules: gulbar, database: () => database('exactOnly') }));
    // V-T06: a cascade whose 4-stage cannot start leaves Black a debt.
    const before = given({ white: { 20: 1, 1: 14 }, black: { 1: 14, 16: 1 } });
    const plays = debtSearch.rankTurns(before, [3, 3], searchSettings(1));
    if (!plays.ok) throw new Error(plays.error.message);
    expect(plays.value[0].next.kind).toBe('cascade');
    const fours = debtSearch.rankTurns(plays.value[0].state, undefined, searchSettings(1));
    if (!fours.ok) throw new Error(fours.error.message);
    expect(fours.value[0].next.kind).toBe('debt');
    const value = debtSearch.evaluateState(fours.value[0].state, 1);
    expect(value.win).toBeGreaterThanOrEqual(0);
    expect(value.win).toBeLessThanOrEqual(1);
  });
});

describe('search depth and budget', () => {
  const crazy = LONG_PRESETS.crazy;
  const fake = createFakeEvaluator({ family: 'long' });

  it('CR-1: a cascade chain (2-2 … 6-6) below a roll that cascades again goes deeper than the preallocated levels', () => {
    // White owes the rest of a cascade from 1-1: 2-2, then 3-3 … 6-6; at 1 ply Black's 1-1 cascades as far.
    // Checkers are spread, so every stage has several plays (the search then looks at each).
    const parsed = parseLongState(
      {
        turn: 'white',
        white: { points: { '24': 5, '20': 2, '18': 2, '15': 2, '13': 2, '10': 2 } },
        black: { points: { '24': 5, '19': 2, '17': 2, '16': 2, '14': 2, '11': 2 } },
        firstTurn: { white: false, black: false },
        pending: [{ actor: 'white', origin: 'cascade', units: [2, 2, 2, 2] }],
      },
      crazy,
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    const search = new LongSearch(crazy, fake);
    const p = search.evaluateState(parsed.value, 1);
    expect(p.win).toBeGreaterThan(0);
    expect(p.win).toBeLessThan(1);
  });

  it('a search past its budget throws, and the analyzer answers at fewer plies', () => {
    let now = 0;
    const clock = (): number => (now += 1000);
    const search = new ShortSearch(createFakeEvaluator({ family: 'short' }));
    search.guard.set({ clock, deadline: 1 });
    expect(() => search.evaluate(initialShortPosition('white').board, 1)).toThrow(SearchBudgetExceeded);
    search.guard.set(null);
    expect(() => search.evaluate(initialShortPosition('white').board, 1)).not.toThrow();

    const analyzer = createShortAnalyzer(SHORT_STANDARD, { evaluator: createFakeEvaluator({ family: 'short' }) });
    const e = analyzer.evaluateWithin(initialShortPosition('white'), 2, { clock, deadline: 1 });
    expect(e.ok && e.value.plies).toBe(0);
    const ranked = analyzer.rankTurnsWithin(initialShortPosition('white'), [6, 4], 2, { clock, deadline: 1 });
    expect(ranked.ok && ranked.value.plies).toBe(0);
    const unhurried = analyzer.rankTurnsWithin(initialShortPosition('white'), [6, 4], 1, { clock: () => 0, deadline: 1 });
    expect(unhurried.ok && unhurried.value.plies).toBe(1);
  });
});
