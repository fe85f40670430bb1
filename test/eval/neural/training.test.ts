import { CLASSIC } from '../../../src/engine/long/rules';
import { SeededRandom } from '../../../src/engine/random';
import { createNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { createLongEncoding } from '../../../src/eval/neural/long-encoding';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';
import { tdTargets } from '../../../src/eval/neural/training';
import { Dataset, trainPass } from '../../../src/eval/neural/dataset';
import { LongChooser, playTdGame } from '../../../src/eval/neural/self-play';
import { database } from '../support';

describe('TD(λ) targets', () => {
  // Three positions, sides alternating: u = value after each chosen play for the side that played.
  const after = Float64Array.from([0.6, 0.2, 0, 0.1, 0, 0.3, 0.1, 0, 0.3, 0, 1, 1, 0, 0, 0]);
  const movers = Int8Array.from([0, 1, 0]);

  it('λ = 0 learns from the next evaluation', () => {
    expect(Array.from(tdTargets(after, movers, 0))).toEqual(Array.from(after));
  });

  it('λ = 1 learns from the final result, seen from each side', () => {
    const t = tdTargets(after, movers, 1);
    expect(Array.from(t.subarray(10))).toEqual([1, 1, 0, 0, 0]); // the last mover won a mars
    expect(Array.from(t.subarray(5, 10))).toEqual([0, 0, 0, 1, 0]); // his opponent lost one
    expect(Array.from(t.subarray(0, 5))).toEqual([1, 1, 0, 0, 0]);
  });

  it('λ = ½ mixes by hand', () => {
    const t = tdTargets(after, movers, 0.5);
    // G1 = ½·(0.3, 0.1, 0, 0.3, 0) + ½·flip(1, 1, 0, 0, 0) = ½·(0.3, 0.1, 0, 0.3, 0) + ½·(0, 0, 0, 1, 0)
    const g1 = [0.15, 0.05, 0, 0.65, 0];
    t.subarray(5, 10).forEach((v, i) => expect(v).toBeCloseTo(g1[i], 12));
    // G0 = ½·(0.6, 0.2, 0, 0.1, 0) + ½·flip(G1) = ½·u0 + ½·(0.85, 0.65, 0, 0.05, 0)
    const g0 = [0.725, 0.425, 0, 0.075, 0];
    t.subarray(0, 5).forEach((v, i) => expect(v).toBeCloseTo(g0[i], 12));
  });
});

describe('training smoke test (long nardy, seeded self-play)', () => {
  function run(): { losses: number[]; weights: Float64Array } {
    const encoding = createLongEncoding();
    const trainer = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 12 }, 1, 60, {
      learningRate: 3e-3,
      beta1: 0.9,
      beta2: 0.999,
      epsilon: 1e-8,
      l2: 0,
    });
    const losses: number[] = [];
    // Two self-play games with the untrained network, then repeated passes over their TD targets.
    const made = createNeuralEvaluator(
      {
        family: 'long',
        encoding: encoding.name,
        networks: [{ name: 'contact', parameters: trainer.networkParameters() }],
      },
      { rules: CLASSIC, database: () => database('standard') },
    );
    if (!made.ok) throw new Error(made.error.message);
    const chooser = new LongChooser(CLASSIC, made.value);
    const data = new Dataset(26);
    for (let g = 0; g < 2; g++) {
      const game = playTdGame(CLASSIC, chooser, new SeededRandom(100 + g), 0.7);
      for (let i = 0; i < game.positions; i++)
        data.add(game.boards.subarray(26 * i, 26 * i + 26), game.targets, 5 * i);
    }
    const order = Int32Array.from({ length: data.count }, (_, k) => k);
    for (let epoch = 0; epoch < 6; epoch++) losses.push(trainPass(trainer, encoding, data, order, 16).loss);
    return { losses, weights: trainer.parameters.slice() };
  }

  it('lowers the loss and is deterministic', () => {
    const a = run();
    const b = run();
    expect(a.losses[a.losses.length - 1]).toBeLessThan(a.losses[0]);
    expect(a.losses).toEqual(b.losses);
    expect(Array.from(a.weights)).toEqual(Array.from(b.weights));
  });
});

describe('widening a network (net2net)', () => {
  const encoding = createLongEncoding();
  const narrow = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 8 }, 3).networkParameters();
  const wide = NetworkTrainer.widen(narrow, 12, 5);

  it('keeps the function: every output is the narrower network\'s', () => {
    const evaluate = (parameters: typeof narrow): Float64Array => {
      const made = createNeuralEvaluator(
        { family: 'long', encoding: encoding.name, networks: [{ name: 'contact', parameters }] },
        { rules: CLASSIC, database: () => database('standard') },
      );
      if (!made.ok) throw new Error(made.error.message);
      const out = new Float64Array(5 * 20);
      const random = new SeededRandom(9);
      // Self-play boards of the narrow network: contact positions reach the network itself.
      const chooser = new LongChooser(CLASSIC, made.value);
      const game = playTdGame(CLASSIC, chooser, random, 0.7);
      for (let i = 0; i < 20; i++) made.value.evaluateInto(game.boards.subarray(26 * i, 26 * i + 26), out, 5 * i);
      return out;
    };
    expect(wide.hidden).toBe(12);
    expect(Array.from(evaluate(wide))).toEqual(Array.from(evaluate(narrow)));
  });

  it('gives the new units zero output weights and seeded input weights', () => {
    for (let o = 0; o < 5; o++)
      for (let j = 8; j < 12; j++) expect(wide.outputWeights[o * 12 + j]).toBe(0);
    expect(wide.inputWeights.subarray(8, 12).some((w) => w !== 0)).toBe(true);
    expect(Array.from(NetworkTrainer.widen(narrow, 12, 5).inputWeights)).toEqual(Array.from(wide.inputWeights));
    expect(() => NetworkTrainer.widen(narrow, 6, 5)).toThrow(RangeError);
  });
});
