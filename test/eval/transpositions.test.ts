import { newLongGame } from '../../src/engine/long/game';
import { LONG_PRESETS } from '../../src/engine/long/rules';
import { legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { initialShortPosition } from '../../src/engine/short/position';
import { SHORT_STANDARD } from '../../src/engine/short/rules';
import { legalShortTurns } from '../../src/engine/short/turn';
import { makeEvaluator } from '../../src/eval/evaluator';
import { createLongEvaluator } from '../../src/eval/long/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { createShortEvaluator } from '../../src/eval/short/evaluator';
import { ShortSearch } from '../../src/eval/short/search';
import { TranspositionCache, TranspositionTable } from '../../src/eval/transpositions';
import { database } from './support';

/** The transposition cache of the searches: the same answers as without it, fewer evaluations at 2 plies. */
describe('transposition cache', () => {
  it('answers a repeated board from the table and a different board from the evaluator', () => {
    let calls = 0;
    const evaluator = makeEvaluator({
      family: 'short',
      name: 'sum',
      version: '1',
      evaluateInto(board: Int8Array, out: Float64Array, offset: number) {
        calls++;
        for (let i = 0; i < 5; i++) out[offset + i] = (board[1] + i) / 100;
      },
    });
    // One slot: every board lands on it, so a different board must not be answered from it.
    const cache = new TranspositionCache(evaluator, 28, new TranspositionTable(0));
    cache.begin(2);
    const a = new Int8Array(28);
    a[1] = 3;
    const b = new Int8Array(28);
    b[1] = 7;
    const out = new Float64Array(5);
    expect(cache.evaluateInto(a, out, 0)).toBe(1);
    expect(cache.evaluateInto(a, out, 0)).toBe(0);
    expect(out[0]).toBe(0.03);
    expect(cache.evaluateInto(b, out, 0)).toBe(1);
    expect(out[0]).toBe(0.07);
    expect(calls).toBe(2);
    // A new search starts empty; a 1-ply search does not use the table.
    cache.begin(2);
    expect(cache.evaluateInto(b, out, 0)).toBe(1);
    cache.begin(1);
    expect(cache.evaluateInto(b, out, 0)).toBe(1);
    expect(calls).toBe(4);
  });

  it('backgammon: 2-ply values are the same with and without it, with fewer evaluations', () => {
    const evaluator = createShortEvaluator({ database: () => database('standard') });
    const cached = new ShortSearch(evaluator);
    const plain = new ShortSearch(evaluator);
    plain.transpositions.fromPlies = Infinity;
    const random = new SeededRandom(8);
    let position = initialShortPosition('white');
    for (let n = 0; n < 6; n++) {
      const dice = random.dice();
      expect(cached.evaluate(position.board, 2)).toEqual(plain.evaluate(position.board, 2));
      const answer = legalShortTurns(SHORT_STANDARD, position, dice);
      if (!answer.ok) throw new Error(answer.error.message);
      position = random.pick(answer.value.turns).position;
    }
    expect(cached.transpositions.hits).toBeGreaterThan(0);
    expect(cached.evaluations).toBeLessThan(plain.evaluations);
  });

  it('long nardy: 2-ply values are the same with and without it', () => {
    const rules = LONG_PRESETS.long;
    const evaluator = createLongEvaluator({ rules, database: () => database('standard') });
    const cached = new LongSearch(rules, evaluator);
    const plain = new LongSearch(rules, evaluator);
    plain.transpositions.fromPlies = Infinity;
    const random = new SeededRandom(9);
    let state = newLongGame(rules, 'white');
    for (let n = 0; n < 6; n++) {
      const dice = random.dice();
      expect(cached.evaluateState(state, 2)).toEqual(plain.evaluateState(state, 2));
      const answer = legalLongTurns(rules, state, dice);
      if (!answer.ok) throw new Error(answer.error.message);
      state = random.pick(answer.value.turns).state;
    }
    expect(cached.evaluations).toBeLessThanOrEqual(plain.evaluations);
  });

  it('two searches sharing one table never read each other\'s entries', () => {
    let calls = 0;
    const constant = (value: number) =>
      makeEvaluator({
        family: 'short',
        name: `constant ${value}`,
        version: '1',
        evaluateInto(_board: Int8Array, out: Float64Array, offset: number) {
          calls++;
          out.fill(value, offset, offset + 5);
        },
      });
    const table = new TranspositionTable(4);
    const a = new TranspositionCache(constant(0.25), 28, table);
    const b = new TranspositionCache(constant(0.5), 28, table);
    const board = new Int8Array(28);
    const out = new Float64Array(5);
    a.begin(2);
    a.evaluateInto(board, out, 0);
    // b starts inside a's search (nested) with another evaluator on the same board.
    b.begin(2);
    b.evaluateInto(board, out, 0);
    expect(out[0]).toBe(0.5);
    a.evaluateInto(board, out, 0);
    expect(out[0]).toBe(0.25);
    expect(calls).toBe(3);
  });
});
