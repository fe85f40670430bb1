import { CLASSIC } from '../../../src/engine/long/rules';
import { initialLongPosition } from '../../../src/engine/long/position';
import { initialShortPosition } from '../../../src/engine/short/position';
import { createFakeEvaluator } from '../../../src/eval/fake';
import { createNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import {
  RolloutOptions,
  RolloutStart,
  mergeRolloutTrials,
  rollout,
  rolloutTrials,
  rolloutTurns,
  summarizeRollout,
  trialRanges,
} from '../../../src/eval/neural/rollout';
import { Evaluator } from '../../../src/eval/evaluator';
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

  describe('split into ranges of trials', () => {
    const long = createFakeEvaluator({ family: 'long' });
    const cases: [string, RolloutStart, Evaluator, RolloutOptions][] = [
      [
        'backgammon',
        { family: 'short', board: initialShortPosition().board },
        short,
        { trials: 100, seed: 9, truncateAfter: 7 },
      ],
      [
        'backgammon, luck-adjusted race',
        { family: 'short', board: race },
        short,
        { trials: 40, seed: 3, luckAdjust: true },
      ],
      [
        'long nardy',
        { family: 'long', rules: CLASSIC, state: { position: initialLongPosition('head15'), pending: [] } },
        long,
        { trials: 80, seed: 21, truncateAfter: 12, settleRaces: true },
      ],
    ];
    it.each(cases)(
      'merges to exactly the serial rollout (%s), whatever the ranges and their order',
      (_, start, evaluator, options) => {
        const serial = rollout(start, evaluator, options);
        expect(serial.trials).toBe(options.trials);
        for (const parts of [1, 2, 3]) {
          const ranges = trialRanges(options.trials, parts);
          expect(ranges.reduce((n, r) => n + r.trials, 0)).toBe(options.trials);
          const played = ranges.map((r) => rolloutTrials(start, evaluator, { ...options, ...r })).reverse();
          const merged = summarizeRollout(mergeRolloutTrials(played, options.trials));
          expect(merged).toEqual(serial);
          // Bit for bit, not just to toEqual's tolerance-free number comparison of the view.
          expect(Object.is(merged.equity, serial.equity)).toBe(true);
          expect(Object.is(merged.equityStandardError, serial.equityStandardError)).toBe(true);
        }
        // Odd ranges that do not follow blocks of 36 merge exactly too.
        const odd = [0, 7, 50].map((firstTrial, k, all) =>
          rolloutTrials(start, evaluator, {
            ...options,
            firstTrial,
            trials: (all[k + 1] ?? options.trials) - firstTrial,
          }),
        );
        expect(summarizeRollout(mergeRolloutTrials(odd, options.trials))).toEqual(serial);
      },
    );

    it('keeps the trials before the first gap when a range stopped early: the serial rollout of that many trials', () => {
      const start: RolloutStart = { family: 'short', board: initialShortPosition().board };
      const options = { trials: 108, seed: 5, truncateAfter: 5 };
      let now = 0;
      const clock = (): number => (now += 10); // every reading advances 10 ms
      const cut = rolloutTrials(start, short, {
        ...options,
        firstTrial: 0,
        trials: 36,
        timeBudgetMs: 100,
        clock,
      });
      expect(cut.stoppedBy).toBe('time');
      const played = cut.truncated.length;
      expect(played).toBeGreaterThan(0);
      expect(played).toBeLessThan(36);
      const later = rolloutTrials(start, short, { ...options, firstTrial: 36, trials: 72 });
      const merged = mergeRolloutTrials([later, cut], options.trials);
      expect(merged.stoppedBy).toBe('time');
      const partial = summarizeRollout(merged);
      expect(partial).toEqual({
        ...rollout(start, short, { ...options, trials: played }),
        stoppedBy: 'time',
      });
      // A range missing at the end (never started) leaves the answer short of its trials.
      const head = rolloutTrials(start, short, { ...options, firstTrial: 0, trials: 72 });
      expect(summarizeRollout(mergeRolloutTrials([head], options.trials))).toEqual({
        ...rollout(start, short, { ...options, trials: 72 }),
        stoppedBy: 'time',
      });
      // A range cancelled by its caller makes the merge cancelled.
      const cancelled = rolloutTrials(start, short, {
        ...options,
        firstTrial: 36,
        trials: 72,
        aborted: () => true,
      });
      expect(cancelled.truncated.length).toBe(0);
      expect(mergeRolloutTrials([cut, cancelled], options.trials).stoppedBy).toBe('cancelled');
    });

    it('plays no trial of a later range once the budget has run out (trial 0 always)', () => {
      const start: RolloutStart = { family: 'short', board: race };
      const late = rolloutTrials(start, short, {
        trials: 36,
        firstTrial: 36,
        seed: 1,
        timeBudgetMs: 0,
        clock: () => 0,
      });
      expect(late.truncated.length).toBe(0);
      expect(late.stoppedBy).toBe('time');
      const first = rolloutTrials(start, short, { trials: 36, seed: 1, timeBudgetMs: 0, clock: () => 0 });
      expect(first.truncated.length).toBe(1);
    });

    it('cuts trials into whole blocks of 36 in order', () => {
      expect(trialRanges(360, 4)).toEqual([
        { firstTrial: 0, trials: 72 },
        { firstTrial: 72, trials: 72 },
        { firstTrial: 144, trials: 108 },
        { firstTrial: 252, trials: 108 },
      ]);
      expect(trialRanges(40, 8)).toEqual([
        { firstTrial: 0, trials: 36 },
        { firstTrial: 36, trials: 4 },
      ]);
      expect(trialRanges(10, 3)).toEqual([{ firstTrial: 0, trials: 10 }]);
    });
  });
});
