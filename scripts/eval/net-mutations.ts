import { LongRules } from '../../src/engine/long/rules';
import { SeededRandom } from '../../src/engine/random';
import { NeuralEvaluator } from '../../src/eval/neural/evaluator';
import { NeuralWeights, decodeNeuralWeights } from '../../src/eval/neural/format';
import { evaluatorOf, readNetFiles } from '../train/nets';

/**
 * Broken copies of a committed network, to show that the yardstick tests
 * fail on them:
 * - `bias`: the forward pass reduced to sigmoid(output bias) — every input
 *   and output weight zeroed, so every position gets the same numbers;
 * - `shuffled`: the input weights permuted (seeded), the other layers kept;
 * - `untrained`: the output layer re-drawn at random (seeded, ±0.1).
 */
export type Mutation = 'bias' | 'shuffled' | 'untrained';

export const MUTATIONS: readonly Mutation[] = ['bias', 'shuffled', 'untrained'];

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
      if (mutation === 'bias') {
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
        for (let i = 0; i < outputWeights.length; i++) outputWeights[i] = (random.next() - 0.5) * 0.2;
      }
      return { ...n, parameters: { ...p, inputWeights, outputWeights } };
    }),
  };
}

/** A committed network with a mutation, as an evaluator on `rules` (long family) or backgammon. */
export function mutatedNet(name: string, mutation: Mutation, rules?: Readonly<LongRules>): NeuralEvaluator {
  return evaluatorOf(mutateWeights(committedWeights(name), mutation), rules, `mutated-${mutation}`);
}
