import { CLASSIC } from '../../../src/engine/long/rules';
import { initialLongPosition } from '../../../src/engine/long/position';
import { initialShortPosition } from '../../../src/engine/short/position';
import { createFakeEvaluator } from '../../../src/eval/fake';
import { createNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { rollout, rolloutTurns } from '../../../src/eval/neural/rollout';
import { database, shortBoard } from '../support';
import { randomWeights } from './support';

describe('rollout', () => {
  // A pip-count evaluator keeps the tests fast and independent of trained weights.
  const short = createFakeEvaluator({ family: 'short' });
  const race = shortBoard({ points: { 6: 3, 5: 3, 4: 2 } }, { points: { 6: 2, 5: 3, 3: 3 } });

  it('is reproducible with a seed', () => {
    const a = rollout({ family: 'short', board: race }, short, { trials: 72, seed: 5 });
    const b = rollout({ family: 'short', board: race }, short, { trials: 72, seed: 5 });
    expect(a).toEqual(b);
    expect(a.trials).toBe(72);
    expect(a.stoppedBy).toBe('trials');
    const c = rollout({ family: 'short', board: race }, short, { trials: 72, seed: 6 });
    expect(c.probabilities).not.toEqual(a.probabilities);
  });

  it('gives standard errors that shrink with more trials (about 1/√n)', () => {
    const small = rollout({ family: 'short', board: race }, short, { trials: 36, seed: 1 });
    const large = rollout({ family: 'short', board: race }, short, { trials: 576, seed: 1 });
    expect(large.equityStandardError).toBeLessThan(small.equityStandardError);
    expect(large.equityStandardError).toBeLessThan(small.equityStandardError / 2.5);
    expect(large.standardErrors.win).toBeGreaterThan(0);
  });

  it('stops on the time budget of an injected clock', () => {
    let now = 0;
    const clock = (): number => (now += 10); // every reading advances 10 ms
    const r = rollout({ family: 'short', board: race }, short, {
      trials: 1000,
      seed: 1,
      timeBudgetMs: 50,
      clock,
    });
    expect(r.stoppedBy).toBe('time');
    expect(r.trials).toBeGreaterThanOrEqual(1);
    expect(r.trials).toBeLessThan(10);
    expect(() =>
      rollout({ family: 'short', board: race }, short, { trials: 2, seed: 1, timeBudgetMs: 5 }),
    ).toThrow(/clock/);
  });

  it('truncates trials and scores them with the evaluator', () => {
    const r = rollout({ family: 'short', board: initialShortPosition().board }, short, {
      trials: 36,
      seed: 2,
      truncateAfter: 2,
    });
    expect(r.truncatedTrials).toBe(36);
  });

  it('keeps the mean and lowers the noise with luck adjustment (exact race)', () => {
    const r = createNeuralEvaluator(randomWeights('short'), { database: () => database('standard') });
    if (!r.ok) throw new Error(r.error.message);
    const exact = r.value.evaluate(race);
    const plain = rollout({ family: 'short', board: race }, r.value, { trials: 144, seed: 3 });
    const adjusted = rollout({ family: 'short', board: race }, r.value, {
      trials: 144,
      seed: 3,
      luckAdjust: true,
    });
    expect(adjusted.standardErrors.win).toBeLessThan(plain.standardErrors.win);
    expect(Math.abs(adjusted.probabilities.win - exact.win)).toBeLessThan(
      4 * adjusted.standardErrors.win + 0.01,
    );
  });

  it('ranks candidate turns with common dice (backgammon and long nardy)', () => {
    const turns = rolloutTurns({ family: 'short', board: initialShortPosition().board }, [3, 1], short, {
      trials: 36,
      seed: 4,
      truncateAfter: 4,
    });
    if (!turns.ok) throw new Error(turns.error.message);
    expect(turns.value.length).toBe(16);
    for (let i = 1; i < turns.value.length; i++)
      expect(turns.value[i].result.equity).toBeLessThanOrEqual(turns.value[i - 1].result.equity);
    const long = createFakeEvaluator({ family: 'long' });
    const state = { position: initialLongPosition('head15'), pending: [] };
    const lt = rolloutTurns({ family: 'long', rules: CLASSIC, state }, [6, 5], long, {
      trials: 12,
      seed: 4,
      truncateAfter: 6,
    });
    if (!lt.ok) throw new Error(lt.error.message);
    expect(lt.value.length).toBeGreaterThan(0);
    const whole = rollout({ family: 'long', rules: CLASSIC, state }, long, {
      trials: 12,
      seed: 4,
      truncateAfter: 6,
    });
    expect(whole.trials).toBe(12);
  });
});
