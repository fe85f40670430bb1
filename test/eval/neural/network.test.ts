import { NeuralNetwork, sigmoid, sparseInput } from '../../../src/eval/neural/network';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';

/**
 * A tiny network computed by hand: 3 inputs, 2 hidden ReLU units, 5 sigmoid outputs.
 *   hidden pre-activations = bias + Σ input × row (rows are input-major)
 */
const tiny = {
  inputs: 3,
  hidden: 2,
  // input 0 → (1, −1), input 1 → (0.5, 2), input 2 → (−3, 0.25)
  inputWeights: Float32Array.from([1, -1, 0.5, 2, -3, 0.25]),
  hiddenBias: Float32Array.from([0.1, -0.2]),
  outputWeights: Float32Array.from([1, 1, 0.5, -1, 0, 2, -1, 0, 0.25, 0.25]),
  outputBias: Float32Array.from([0, 0.5, -1, 0, 1]),
};

describe('NeuralNetwork', () => {
  it('matches a forward pass computed by hand', () => {
    const net = new NeuralNetwork(tiny);
    const input = sparseInput(3);
    // x = (2, 0, 0.5): only inputs 0 and 2 are active.
    input.index.set([0, 2]);
    input.value.set([2, 0.5]);
    input.count = 2;
    // h0 = relu(0.1 + 2·1 + 0.5·(−3)) = relu(0.6) = 0.6; h1 = relu(−0.2 + 2·(−1) + 0.5·0.25) = relu(−2.075) = 0
    const h0 = 0.6;
    const expected = [
      sigmoid(0 + 1 * h0),
      sigmoid(0.5 + 0.5 * h0),
      sigmoid(-1 + 0 * h0),
      sigmoid(0 + -1 * h0),
      sigmoid(1 + 0.25 * h0),
    ];
    const out = new Float64Array(7);
    net.forward(input, out, 2);
    expected.forEach((e, i) => expect(out[2 + i]).toBeCloseTo(e, 6));
    expect(out[0]).toBe(0);
    expect(out[1]).toBe(0);
  });

  it('rejects arrays that do not match the sizes', () => {
    expect(() => new NeuralNetwork({ ...tiny, hiddenBias: new Float32Array(3) })).toThrow(RangeError);
    expect(() => new NeuralNetwork({ ...tiny, inputs: 0 })).toThrow(RangeError);
  });

  it('agrees with the float64 training forward pass', () => {
    const trainer = NetworkTrainer.initial({ inputs: 20, hidden: 16 }, 9);
    const net = trainer.network();
    const input = sparseInput(20);
    input.index.set([1, 4, 7, 19]);
    input.value.set([1, 0.5, 1, 2.5]);
    input.count = 4;
    const a = new Float64Array(5);
    const b = new Float64Array(5);
    net.forward(input, a, 0);
    trainer.forward(input, b, 0);
    for (let i = 0; i < 5; i++) expect(a[i]).toBeCloseTo(b[i], 5);
  });

  it('learns a fixed target: the loss falls, deterministically', () => {
    const run = (): { first: number; last: number; weights: Float64Array } => {
      const trainer = NetworkTrainer.initial({ inputs: 10, hidden: 8 }, 4, 3, {
        learningRate: 0.02,
        beta1: 0.9,
        beta2: 0.999,
        epsilon: 1e-8,
        l2: 0,
      });
      const input = sparseInput(10);
      input.index.set([0, 3, 9]);
      input.value.set([1, 1, 0.5]);
      input.count = 3;
      const target = [0.7, 0.2, 0.01, 0.1, 0.005];
      let first = 0;
      let last = 0;
      for (let i = 0; i < 200; i++) {
        const loss = trainer.accumulate(input, target);
        trainer.step();
        if (i === 0) first = loss;
        last = loss;
      }
      return { first, last, weights: trainer.parameters.slice() };
    };
    const a = run();
    const b = run();
    expect(a.last).toBeLessThan(a.first);
    expect(Array.from(a.weights)).toEqual(Array.from(b.weights));
    // The minimum of the cross-entropy is the entropy of the target; close to it after training.
    const entropy = [0.7, 0.2, 0.01, 0.1, 0.005].reduce(
      (s, t) => s - t * Math.log(t) - (1 - t) * Math.log(1 - t),
      0,
    );
    expect(a.last).toBeLessThan(entropy + 0.01);
  });
});
