import { CLASSIC } from '../../../src/engine/long/rules';
import { SeededRandom } from '../../../src/engine/random';
import { NeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { NeuralNetwork, SparseInput, referenceForward, sparseInput } from '../../../src/eval/neural/network';
import { readLongNet, readShortNet } from '../../../src/service/analysis/nets';
import { encodeAll, longBoardsAndPlays, shortBoardsAndPlays } from './support';

/**
 * The incremental forward pass (network.ts) against the plain reference:
 * the same numbers (within 1e-5; in practice about 1e-9), whatever order the
 * positions come in, on thousands of positions of the committed networks —
 * game positions one after another and the plays of one roll in a row, the
 * order a search evaluates them in.
 */
function forwardAll(network: NeuralNetwork, inputs: readonly SparseInput[]): Float64Array {
  const out = new Float64Array(inputs.length * 5);
  inputs.forEach((input, i) => network.forward(input, out, i * 5));
  return out;
}

function expectAgreement(net: NeuralEvaluator, inputs: readonly SparseInput[]): void {
  const network = net.contact;
  const rows0 = network.rowsApplied;
  const fast = forwardAll(network, inputs);
  const reference = new Float64Array(5);
  let worst = 0;
  inputs.forEach((input, i) => {
    referenceForward(network, input, reference, 0);
    for (let o = 0; o < 5; o++) worst = Math.max(worst, Math.abs(fast[i * 5 + o] - reference[o]));
  });
  expect(worst).toBeLessThanOrEqual(1e-5);
  // The incremental path was the one taken: fewer rows than active inputs.
  const active = inputs.reduce((s, input) => s + input.count, 0);
  expect(network.rowsApplied - rows0).toBeLessThan(active * 0.6);
  // Order does not matter: a fresh network on the reversed sequence gives the very same numbers.
  const reversed = forwardAll(new NeuralNetwork(network), [...inputs].reverse());
  const back = new Float64Array(fast.length);
  for (let i = 0; i < inputs.length; i++) back.set(reversed.subarray((inputs.length - 1 - i) * 5, (inputs.length - i) * 5), i * 5);
  expect(Array.from(back)).toEqual(Array.from(fast));
}

describe('incremental forward pass', () => {
  it('backgammon: agrees with the reference on game positions and on the plays of one roll', () => {
    const net = readShortNet();
    const boards = shortBoardsAndPlays(37, 41, 1500);
    expect(boards.length).toBeGreaterThan(3000);
    expectAgreement(net, encodeAll(net.encoding, boards));
  });

  it('long: agrees with the reference on game positions and on the plays of one roll', () => {
    const net = readLongNet(CLASSIC);
    const boards = longBoardsAndPlays(39, 43, 1500);
    expect(boards.length).toBeGreaterThan(3000);
    expectAgreement(net, encodeAll(net.encoding, boards));
  });

  it('adds, removes and changes inputs of any value (a hidden size not a multiple of four)', () => {
    const random = new SeededRandom(5);
    const parameters = {
      inputs: 12,
      hidden: 7,
      inputWeights: Float32Array.from({ length: 84 }, () => random.below(2000) / 1000 - 1),
      hiddenBias: Float32Array.from({ length: 7 }, () => random.below(200) / 1000 - 0.1),
      outputWeights: Float32Array.from({ length: 35 }, () => random.below(2000) / 1000 - 1),
      outputBias: Float32Array.from({ length: 5 }, () => random.below(200) / 1000 - 0.1),
    };
    const network = new NeuralNetwork(parameters);
    const inputs: SparseInput[] = [];
    for (let n = 0; n < 400; n++) {
      const input = sparseInput(12);
      for (let i = 0; i < 12; i++) {
        if (random.below(3) !== 0) continue;
        input.index[input.count] = i;
        input.value[input.count] = random.below(2) === 0 ? 1 : random.below(90) / 10 + 0.05;
        input.count++;
      }
      inputs.push(input);
    }
    const fast = forwardAll(network, inputs);
    const reference = new Float64Array(5);
    inputs.forEach((input, i) => {
      referenceForward(parameters, input, reference, 0);
      for (let o = 0; o < 5; o++) expect(Math.abs(fast[i * 5 + o] - reference[o])).toBeLessThan(1e-8);
    });
  });
});
