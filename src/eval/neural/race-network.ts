import { Evaluator, makeEvaluator } from '../evaluator';
import { clampInPlace } from '../probabilities';
import { RaceEvaluator, isShortBearoff } from '../race';
import { NeuralEncoding, push } from './encoding';
import { NETWORK_OUTPUTS, NetworkParameters, NeuralNetwork, SparseInput } from './network';

/*
 * The backgammon race network: a correction of the race model (race.ts,
 * the effective-pip crossing model over the one-sided bear-off database)
 * learnt from gnubg's race evaluations. It reads the contact encoding's
 * inputs of the board, then the race model's five probabilities as
 * log-odds, and it starts as the race model itself (`relayParameters`):
 * two hidden units per output pass each log-odds through, so that
 * training only has to learn what the model gets wrong.
 */

/** Inputs after the encoding's: the race model's five probabilities as log-odds. */
export const RACE_MODEL_INPUTS = NETWORK_OUTPUTS;

/** Log-odds of a probability, kept within ±11.5 (p in [1e-5, 1 − 1e-5]) so that no input is infinite. */
function logOdds(p: number): number {
  const q = p < 1e-5 ? 1e-5 : p > 1 - 1e-5 ? 1 - 1e-5 : p;
  return Math.log(q / (1 - q));
}

/**
 * The race network's input encoding: `base` (the contact network's) and
 * then the log-odds of `model`'s five probabilities for the same board.
 * Allocation-free; not re-entrant (its own scratch).
 */
export function raceNetworkEncoding(base: NeuralEncoding, model: Evaluator): NeuralEncoding {
  const probs = new Float64Array(NETWORK_OUTPUTS);
  return {
    family: base.family,
    name: `${base.name}+race-model`,
    sideInputs: base.sideInputs,
    inputs: base.inputs + RACE_MODEL_INPUTS,
    sideInputNames: base.sideInputNames,
    encode(board: Int8Array, out: SparseInput): void {
      base.encode(board, out);
      model.evaluateInto(board, probs, 0);
      for (let i = 0; i < RACE_MODEL_INPUTS; i++) push(out, base.inputs + i, logOdds(probs[i]));
    },
  };
}

/**
 * A race network that answers as the race model: `parameters` (random
 * input weights, as a trainer starts them) with the output weights set to
 * zero except for the relay — hidden units 2i and 2i + 1 take +1 and −1
 * times the log-odds of output i, and output i adds the first and
 * subtracts the second (max(x, 0) − max(−x, 0) = x), so its sigmoid gives
 * back the model's probability. Needs 10 hidden units or more.
 */
export function relayParameters(parameters: NetworkParameters): NetworkParameters {
  const { inputs, hidden } = parameters;
  if (hidden < 2 * RACE_MODEL_INPUTS) throw new RangeError(`a race network needs ${2 * RACE_MODEL_INPUTS} hidden units or more`);
  const inputWeights = Float32Array.from(parameters.inputWeights);
  const hiddenBias = Float32Array.from(parameters.hiddenBias);
  const outputWeights = new Float32Array(NETWORK_OUTPUTS * hidden);
  const outputBias = new Float32Array(NETWORK_OUTPUTS);
  const first = inputs - RACE_MODEL_INPUTS;
  for (let i = 0; i < RACE_MODEL_INPUTS; i++) {
    for (const [unit, sign] of [
      [2 * i, 1],
      [2 * i + 1, -1],
    ] as const) {
      for (let k = 0; k < inputs; k++) inputWeights[k * hidden + unit] = 0;
      inputWeights[(first + i) * hidden + unit] = sign;
      hiddenBias[unit] = 0;
      outputWeights[i * hidden + unit] = sign;
    }
  }
  return { inputs, hidden, inputWeights, hiddenBias, outputWeights, outputBias };
}

/**
 * The race layer with the race network: a race where both sides are home
 * stays with `exact` (the one-sided bear-off database, exact); any other
 * race goes to the network, which reads `encoding` and `exact`'s own
 * answer (`raceNetworkEncoding`). Its version adds the network's.
 */
export function withRaceNetwork(exact: RaceEvaluator, parameters: NetworkParameters, encoding: NeuralEncoding, version: string): RaceEvaluator {
  const network = new NeuralNetwork(parameters);
  const input = network.inputBuffer();
  const inputs = raceNetworkEncoding(encoding, exact);
  const core = {
    family: exact.family,
    name: exact.name,
    version: `${exact.version}+race-${version}`,
    isRace: (board: Int8Array) => exact.isRace(board),
    expectedRolls: (board: Int8Array, mover: boolean) => exact.expectedRolls(board, mover),
    evaluateInto(board: Int8Array, out: Float64Array, offset: number): void {
      if (isShortBearoff(board)) {
        exact.evaluateInto(board, out, offset);
        return;
      }
      inputs.encode(board, input);
      network.forward(input, out, offset);
      clampInPlace(out, offset);
    },
  };
  return makeEvaluator(core);
}
