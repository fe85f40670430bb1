import { EvaluateRequest } from '../../src/contract/requests';
import { Dice } from '../../src/engine/dice';
import { SeededRandom } from '../../src/engine/random';
import { VARIANTS } from '../../src/engine/variants';
import { FakeEvaluator, createFakeEvaluator } from '../../src/eval/fake';
import { bindOpaque as bind } from '../../src/engine/family';
import { Analyzers } from '../../src/service/analysis/evaluators';
import { AnalysisService } from '../../src/service/analysis/service';

/*
 * Every preset, positions from seeded random games (cascades, re-rolls,
 * debts, bear-offs included): the analysis endpoints answer each one at 0
 * to 2 plies, rank exactly the legal plays, keep the probabilities in
 * order, and roll out. A fake evaluator keeps it fast; a short search budget (below) bounds the
 * cascade presets.
 */

/*
 * The search budget counts evaluations, not milliseconds: the engine's clock
 * is the number of boards the fake evaluators have evaluated. A 2-ply search
 * then gives up after the same work whatever the load of the machine, so the
 * same searches finish at 2 plies and the same ones fall back to fewer plies
 * on every run. (With a wall-clock budget of 150 ms most 2-ply calls spent
 * the whole budget, and which of them fell back changed with the load.)
 * 1,000 evaluations let the small trees finish at 2 plies and send the large
 * ones of the cascade presets to the fallback.
 */
const fakes: FakeEvaluator[] = [];
const fake = (family: 'short' | 'long'): FakeEvaluator => {
  const evaluator = createFakeEvaluator({ family });
  fakes.push(evaluator);
  return evaluator;
};
const evaluations = () => fakes.reduce((sum, evaluator) => sum + evaluator.calls, 0);
const service = new AnalysisService(
  new Analyzers({ kind: 'fake', short: () => fake('short'), long: () => fake('long') }),
  undefined,
  { searchBudgetMs: 1000, clock: evaluations },
);

describe.each(VARIANTS.map((v) => [v.name, v] as const))('%s', (name, variant) => {
  it('evaluates and ranks positions of a random game at 0, 1 and 2 plies', async () => {
    const bound = bind(variant, undefined);
    if (!bound.ok) throw new Error(bound.error.message);
    const { family, rules } = bound.value;
    const random = new SeededRandom(name.length * 7919 + 11);
    let state = family.initial(rules, 'white');
    let checked = 0;
    for (let step = 0; step < 400 && checked < 12; step++) {
      if (family.winner(state)) state = family.initial(rules, 'white');
      const dice: Dice | undefined = family.needsDice(state) ? random.dice() : undefined;
      const legal = family.legal(rules, state, dice);
      if (!legal.ok) throw new Error(`${legal.error.code}: ${legal.error.message}`);
      if (step % 9 === 4) {
        const position = family.positionView(state) as EvaluateRequest['position'];
        const plies = checked % 3;
        const e = (await service.evaluate({ variant: name, position, plies })).value!;
        expect(e.probabilities.winMars).toBeLessThanOrEqual(e.probabilities.win + 1e-9);
        expect(e.probabilities.loseMars).toBeLessThanOrEqual(1 - e.probabilities.win + 1e-9);
        expect(e.evaluator.plies).toBeLessThanOrEqual(plies);
        const best = (await service.bestMoves({ variant: name, position, ...(dice ? { dice: dice as unknown as number[] } : {}), plies })).value!;
        expect(best.count).toBe(legal.value.turns.length);
        expect(new Set(best.turns.map((t) => t.positionId))).toEqual(new Set(legal.value.turns.map((t) => t.view.positionId)));
        if (checked % 4 === 1) {
          // A rollout of the position, and of every play of the roll (or of the pending stage).
          const r = await service.rollout({ variant: name, position, trials: 2, truncateAfter: 3, seed: step });
          expect(r.estimate?.trials ?? r.count).toBeGreaterThan(0);
          const plays = await service.rollout({ variant: name, position, ...(dice ? { dice: dice as unknown as number[] } : {}), trials: 2, truncateAfter: 3, seed: step });
          if (plays.turns) expect(plays.count).toBe(legal.value.turns.length);
        }
        checked++;
      }
      const turns = legal.value.turns;
      state = random.pick(turns).state;
    }
    expect(checked).toBe(12);
  });
});
