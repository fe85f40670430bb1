import { LongRules } from '../../src/engine/long/rules';
import { SeededRandom } from '../../src/engine/random';
import { NeuralEvaluator, createNeuralEvaluator } from '../../src/eval/neural/evaluator';
import { longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { NeuralWeights, decodeNeuralWeights } from '../../src/eval/neural/format';
import { committedBearoff, readNetFiles } from '../../src/service/analysis/nets';

/**
 * Broken copies of a committed network, to show that the yardstick tests
 * fail on them:
 * - `bias`: the forward pass reduced to sigmoid(output bias) — every input
 *   and output weight zeroed, so every position gets the same numbers;
 * - `shuffled`: the input weights permuted (seeded), the other layers kept;
 * - `untrained`: the output layer re-drawn at random (seeded, ±0.1);
 * - `random`: every weight and bias re-drawn at random (seeded, ±0.1), a
 *   network that was never trained;
 * - `swapped`: the outputs in reverse order (win ↔ lose-koks, win-mars ↔
 *   lose-mars), a network read with its outputs mixed up.
 */
export type Mutation = 'bias' | 'shuffled' | 'untrained' | 'random' | 'swapped';

export const MUTATIONS: readonly Mutation[] = ['bias', 'shuffled', 'untrained', 'random', 'swapped'];

export function committedWeights(name: string): NeuralWeights {
  const decoded = decodeNeuralWeights(readNetFiles(name).bytes);
  if (!decoded.ok) throw new Error(decoded.error.message);
  return decoded.value;
}

export function mutateWeights(weights: NeuralWeights, mutation: Mutation, seed = 5): NeuralWeights {
  const random = new SeededRandom(seed);
  return {
    ...weights,
    networks: weights.networks.map((n) => {
      const p = n.parameters;
      const inputWeights = p.inputWeights.slice();
      const outputWeights = p.outputWeights.slice();
      let hiddenBias = p.hiddenBias;
      let outputBias = p.outputBias;
      const redraw = (a: Float32Array) => {
        for (let i = 0; i < a.length; i++) a[i] = (random.next() - 0.5) * 0.2;
      };
      if (mutation === 'random') {
        hiddenBias = p.hiddenBias.slice();
        outputBias = p.outputBias.slice();
        for (const a of [inputWeights, hiddenBias, outputWeights, outputBias]) redraw(a);
      } else if (mutation === 'swapped') {
        const outputs = p.outputBias.length;
        const hidden = p.outputWeights.length / outputs;
        outputBias = p.outputBias.slice().reverse();
        for (let k = 0; k < outputs; k++) outputWeights.set(p.outputWeights.subarray((outputs - 1 - k) * hidden, (outputs - k) * hidden), k * hidden);
      } else if (mutation === 'bias') {
        inputWeights.fill(0);
        outputWeights.fill(0);
      } else if (mutation === 'shuffled') {
        for (let i = inputWeights.length - 1; i > 0; i--) {
          const j = random.below(i + 1);
          const t = inputWeights[i];
          inputWeights[i] = inputWeights[j];
          inputWeights[j] = t;
        }
      } else {
        redraw(outputWeights);
      }
      return { ...n, parameters: { ...p, inputWeights, hiddenBias, outputWeights, outputBias } };
    }),
  };
}

/** A committed network with a mutation, as an evaluator on `rules` (long family) or backgammon. */
export function mutatedNet(name: string, mutation: Mutation, rules?: Readonly<LongRules>): NeuralEvaluator {
  const weights = mutateWeights(committedWeights(name), mutation);
  const ruleSet = weights.family === 'long' && rules ? longBearoffRuleSet(rules) : 'standard';
  const created = createNeuralEvaluator(weights, { database: () => committedBearoff(ruleSet), rules, version: `mutated-${mutation}` });
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}
