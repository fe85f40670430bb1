import { CLASSIC } from '../../../src/engine/long/rules';
import { SeededRandom } from '../../../src/engine/random';
import { createNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { createLongEncoding } from '../../../src/eval/neural/long-encoding';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';
import { tdTargets } from '../../../src/eval/neural/training';
import { Dataset, rankAgreement, trainPass, trainRankPass } from '../../../src/eval/neural/dataset';
import { STANDARD_VALUES, equityAt } from '../../../src/eval/equity';
import { sparseInput } from '../../../src/eval/neural/network';
import { createShortEncoding } from '../../../src/eval/neural/short-encoding';
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

describe('ranking loss over the results of one roll', () => {
  // Three backgammon positions of one group and one alone; a small network on the short-1 encoding.
  const encoding = createShortEncoding();
  const start = Int8Array.from([0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0, 0, 0]);
  const boards = [0, 1, 2, 3].map((k) => {
    const b = Int8Array.from(start);
    b[13] -= k; // move k checkers from the mid-point to the eight / bar points
    b[8] += k === 3 ? 0 : k;
    b[7] += k === 3 ? 3 : 0;
    return b;
  });
  const targets = [
    [0.55, 0.15, 0.01, 0.1, 0.005],
    [0.5, 0.12, 0.01, 0.12, 0.006],
    [0.6, 0.2, 0.02, 0.08, 0.004],
    [0.45, 0.1, 0.0, 0.15, 0.01],
  ];
  const groups = [4, 4, 4, -1];
  const rankWeight = 3;

  function dataset(): Dataset {
    const data = new Dataset(28);
    boards.forEach((b, k) => data.add(b, targets[k], 0, groups[k]));
    return data;
  }

  /** The mean over the positions of the cross-entropy plus rankWeight/2 · Σ (dᵢ − d̄)² over the group. */
  function loss(trainer: NetworkTrainer): number {
    const input = sparseInput(encoding.inputs);
    const out = new Float64Array(5);
    let total = 0;
    const diffs: number[] = [];
    boards.forEach((b, k) => {
      encoding.encode(b, input);
      trainer.forward(input, out, 0);
      for (let o = 0; o < 5; o++) {
        const t = targets[k][o];
        total -= t * Math.log(out[o]) + (1 - t) * Math.log(1 - out[o]);
      }
      if (groups[k] >= 0) diffs.push(equityAt(out, 0, STANDARD_VALUES) - equityAt(targets[k], 0, STANDARD_VALUES));
    });
    const mean = diffs.reduce((s, d) => s + d, 0) / diffs.length;
    for (const d of diffs) total += (rankWeight / 2) * (d - mean) ** 2;
    return total / boards.length;
  }

  it('groups consecutive positions of one roll into runs', () => {
    expect(Array.from(dataset().runs())).toEqual([0, 3, 4]);
  });

  it('follows the gradient of cross-entropy plus the ranking loss (finite differences)', () => {
    // With β1 = β2 = 0 and a huge ε, one Adam step moves each parameter by −rate · g / (|g| + ε) ≈ −g · rate / ε.
    const settings = { learningRate: 1, beta1: 0, beta2: 0, epsilon: 1e8, l2: 0 };
    const trainer = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 6 }, 3, 60, settings);
    const before = Float64Array.from(trainer.parameters);
    const data = dataset();
    const runs = data.runs();
    trainRankPass(trainer, encoding, data, runs, Int32Array.from([0, 1]), 100, STANDARD_VALUES, rankWeight);
    const analytic = before.map((p, i) => ((p - trainer.parameters[i]) * settings.epsilon) / settings.learningRate);
    const probe = new NetworkTrainer({ ...trainer.state(), parameters: Float64Array.from(before) }, settings);
    const random = new SeededRandom(11);
    let checked = 0;
    for (let n = 0; n < 400 && checked < 40; n++) {
      const i = random.below(before.length);
      if (Math.abs(analytic[i]) < 1e-4) continue;
      const h = 1e-6;
      probe.parameters[i] = before[i] + h;
      const up = loss(probe);
      probe.parameters[i] = before[i] - h;
      const down = loss(probe);
      probe.parameters[i] = before[i];
      const numeric = (up - down) / (2 * h);
      expect(Math.abs(analytic[i] - numeric)).toBeLessThan(1e-5 + 1e-3 * Math.abs(numeric));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('is the plain cross-entropy pass when the weight is 0', () => {
    const settings = { learningRate: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, l2: 0 };
    const a = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 6 }, 5, 60, settings);
    const b = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 6 }, 5, 60, settings);
    const data = dataset();
    trainRankPass(a, encoding, data, data.runs(), Int32Array.from([0, 1]), 100, STANDARD_VALUES, 0);
    trainPass(b, encoding, data, Int32Array.from([0, 1, 2, 3]), 100);
    expect(Array.from(a.parameters)).toEqual(Array.from(b.parameters));
  });

  it('counts the held-out rolls where the network picks the target\'s best play', () => {
    const trainer = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 6 }, 3);
    const data = dataset();
    const a = rankAgreement(trainer, encoding, data, data.runs(), Int32Array.from([0, 1]), STANDARD_VALUES);
    // The lone position is not a choice; the group of three is one.
    expect(a.groups).toBe(1);
    expect([0, 1]).toContain(a.same);
    expect(a.loss).toBeGreaterThanOrEqual(0);
  });
});
