import fc from 'fast-check';
import { needsDice, newLongGame, winnerOf } from '../../src/engine/long/game';
import { LONG_PRESETS, LongPresetName } from '../../src/engine/long/rules';
import { LongState, legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { initialShortPosition } from '../../src/engine/short/position';
import { SHORT_STANDARD } from '../../src/engine/short/rules';
import { legalShortTurns } from '../../src/engine/short/turn';
import { Evaluator } from '../../src/eval/evaluator';
import { createLongEvaluator, longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { Probabilities } from '../../src/eval/probabilities';
import { createShortEvaluator } from '../../src/eval/short/evaluator';
import { ShortSearch } from '../../src/eval/short/search';
import { database } from './support';
import { runs } from '../support/runs';

/** The invariants every evaluator output satisfies (probabilities.ts). */
function expectValid(p: Probabilities): void {
  for (const v of [p.win, p.winMars, p.winKoks, p.loseMars, p.loseKoks]) {
    expect(Number.isFinite(v)).toBe(true);
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(1);
  }
  expect(p.winKoks).toBeLessThanOrEqual(p.winMars + 1e-12);
  expect(p.winMars).toBeLessThanOrEqual(p.win + 1e-12);
  expect(p.loseKoks).toBeLessThanOrEqual(p.loseMars + 1e-12);
  expect(p.loseMars).toBeLessThanOrEqual(1 - p.win + 1e-9);
}

/** A position of a seeded random self-play game after `stages` stages (nothing pending, game not over). */
function longSelfPlay(preset: LongPresetName, seed: number, stages: number): LongState | null {
  const rules = LONG_PRESETS[preset];
  const random = new SeededRandom(seed);
  let state = newLongGame(rules, 'white');
  let last: LongState | null = null;
  for (let n = 0; n < stages; n++) {
    if (winnerOf(state)) break;
    if (state.pending.length === 0) last = state;
    const answer = legalLongTurns(rules, state, needsDice(state) ? random.dice() : undefined);
    if (!answer.ok) throw new Error(answer.error.message);
    state = random.pick(answer.value.turns).state;
  }
  return last;
}

function shortSelfPlay(seed: number, turns: number): Int8Array | null {
  const random = new SeededRandom(seed);
  let position = initialShortPosition('white');
  let last: Int8Array | null = null;
  for (let n = 0; n < turns; n++) {
    const answer = legalShortTurns(SHORT_STANDARD, position, random.dice());
    if (!answer.ok) break;
    const turn = random.pick(answer.value.turns);
    if (turn.gameOver) break;
    position = turn.position;
    last = position.board;
  }
  return last;
}

const PRESETS: LongPresetName[] = ['long', 'nardgammon', 'crazy', 'gulbar', 'crazy-gulbar', 'khachapuri', 'fevga', 'giul'];

describe('evaluator invariants over self-play positions (fast-check)', () => {
  const shortEvaluator = createShortEvaluator({ database: () => database('standard') });
  const longEvaluators = new Map<LongPresetName, Evaluator>(
    PRESETS.map((name) => [
      name,
      createLongEvaluator({ rules: LONG_PRESETS[name], database: () => database(longBearoffRuleSet(LONG_PRESETS[name])) }),
    ]),
  );

  it('backgammon: probabilities in [0, 1], koks ≤ mars ≤ win, lose koks ≤ lose mars ≤ 1 − win', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 120 }), (seed, turns) => {
        const board = shortSelfPlay(seed, turns);
        if (board) expectValid(shortEvaluator.evaluate(board));
      }),
      { numRuns: runs(300) },
    );
  });

  it('long family, every preset: the same invariants', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRESETS), fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 250 }), (preset, seed, stages) => {
        const state = longSelfPlay(preset, seed, stages);
        if (state) expectValid((longEvaluators.get(preset) as Evaluator).evaluate(state.position.board));
      }),
      { numRuns: runs(300) },
    );
  });

  it('1-ply search values keep the invariants too', () => {
    const shortSearch = new ShortSearch(shortEvaluator);
    const longSearch = new LongSearch(LONG_PRESETS.long, longEvaluators.get('long') as Evaluator);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), (seed) => {
        const board = shortSelfPlay(seed, 1 + (seed % 60));
        if (board) expectValid(shortSearch.evaluate(board, 1));
        const state = longSelfPlay('long', seed, 1 + (seed % 150));
        if (state) expectValid(longSearch.evaluateState(state, 1));
      }),
      { numRuns: runs(15) },
    );
  });

  it('K0 scoring has no koks: winKoks and loseKoks are 0 in classic long nardy', () => {
    const evaluator = longEvaluators.get('long') as Evaluator;
    for (let seed = 1; seed <= 40; seed++) {
      const state = longSelfPlay('long', seed, 40 + seed * 3);
      if (!state) continue;
      const p = evaluator.evaluate(state.position.board);
      expect(p.winKoks).toBe(0);
      expect(p.loseKoks).toBe(0);
    }
  });
});
