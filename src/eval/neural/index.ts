/**
 * Neural evaluators (docs/neural.md): small MLPs over a per-family input
 * encoding, behind the `Evaluator` interface, with the exact race /
 * bear-off evaluation taking over where it applies; their binary weights
 * format and manifest; the pure training pieces (Adam trainer, TD(λ)
 * targets); Monte Carlo rollouts. Pure: the caller reads the files.
 */
export type { NeuralEncoding } from './encoding';
export { createShortEncoding, createShortEncoding2, escapeRolls } from './short-encoding';
export { createLongEncoding } from './long-encoding';
export type { NetworkParameters, NetworkShape, SparseInput } from './network';
export { NETWORK_OUTPUTS, NeuralNetwork, parameterCount, sigmoid, sparseInput } from './network';
export type { NamedNetwork, NetworkName, NeuralWeights } from './format';
export {
  NEURAL_FORMAT_VERSION,
  decodeNeuralWeights,
  encodeNeuralWeights,
  fnv1a,
  weightsHash,
} from './format';
export type { NeuralManifest } from './manifest';
export { parseNeuralManifest } from './manifest';
export type { NeuralEvaluator, NeuralEvaluatorOptions } from './evaluator';
export { createNeuralEvaluator, encodingFor, loadNeuralEvaluator } from './evaluator';
export type { AdamSettings, TrainerState } from './trainer';
export { DEFAULT_ADAM, NetworkTrainer } from './trainer';
export { tdTargets } from './training';
export type { RolledOutTurn, RolloutOptions, RolloutResult, RolloutStart } from './rollout';
export { rollout, rolloutTurns } from './rollout';
