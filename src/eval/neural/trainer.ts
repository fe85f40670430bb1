import { SeededRandom } from '../../engine/random';
import {
  NETWORK_OUTPUTS,
  NetworkParameters,
  NetworkShape,
  NeuralNetwork,
  SparseInput,
  parameterCount,
  sigmoid,
} from './network';

/** Adam settings (Kingma & Ba) with an optional L2 penalty on the weights. */
export interface AdamSettings {
  readonly learningRate: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
  /** L2 penalty added to the weights' gradients (not the biases'). */
  readonly l2: number;
}

export const DEFAULT_ADAM: AdamSettings = Object.freeze({
  learningRate: 1e-3,
  beta1: 0.9,
  beta2: 0.999,
  epsilon: 1e-8,
  l2: 0,
});

/** What a trainer needs to be resumed exactly: parameters and optimiser state. */
export interface TrainerState extends NetworkShape {
  readonly parameters: Float64Array;
  readonly firstMoment: Float64Array;
  readonly secondMoment: Float64Array;
  readonly steps: number;
}

/**
 * Minibatch training of a network (network.ts) in float64: the loss of each
 * of the five sigmoid outputs is the cross-entropy against a target
 * probability (a gnubg label, a λ-return or a final result), so the
 * gradient at an output's pre-activation is simply `output − target`.
 * Gradients are accumulated over a batch by `accumulate`, then `step`
 * applies one Adam update. Deterministic: the same samples in the same
 * order give the same weights.
 *
 * Parameters are one flat array in the order of the binary format:
 * inputWeights (input-major), hiddenBias, outputWeights (output-major),
 * outputBias.
 */
export class NetworkTrainer {
  readonly inputs: number;
  readonly hidden: number;
  readonly parameters: Float64Array;
  readonly firstMoment: Float64Array;
  readonly secondMoment: Float64Array;
  steps: number;
  settings: AdamSettings;
  private readonly gradient: Float64Array;
  private readonly preActivation: Float64Array;
  private readonly hiddenGradient: Float64Array;
  private readonly outputs = new Float64Array(NETWORK_OUTPUTS);
  private batchCount = 0;
  private readonly hiddenBiasAt: number;
  private readonly outputWeightsAt: number;
  private readonly outputBiasAt: number;

  constructor(state: TrainerState, settings: AdamSettings = DEFAULT_ADAM) {
    this.inputs = state.inputs;
    this.hidden = state.hidden;
    const n = parameterCount(state);
    if (state.parameters.length !== n || state.firstMoment.length !== n || state.secondMoment.length !== n)
      throw new RangeError('trainer state does not match its shape');
    this.parameters = state.parameters;
    this.firstMoment = state.firstMoment;
    this.secondMoment = state.secondMoment;
    this.steps = state.steps;
    this.settings = settings;
    this.gradient = new Float64Array(n);
    this.preActivation = new Float64Array(state.hidden);
    this.hiddenGradient = new Float64Array(state.hidden);
    this.hiddenBiasAt = state.inputs * state.hidden;
    this.outputWeightsAt = this.hiddenBiasAt + state.hidden;
    this.outputBiasAt = this.outputWeightsAt + NETWORK_OUTPUTS * state.hidden;
  }

  /**
   * A fresh network with seeded random weights: He-uniform for the hidden
   * layer (scaled for about `activeInputs` non-zero inputs, the typical
   * count of a sparse encoding), small output weights, zero biases.
   */
  static initial(
    shape: NetworkShape,
    seed: number,
    activeInputs = 60,
    settings: AdamSettings = DEFAULT_ADAM,
  ): NetworkTrainer {
    const n = parameterCount(shape);
    const parameters = new Float64Array(n);
    const random = new SeededRandom(seed);
    const hiddenScale = Math.sqrt(6 / activeInputs);
    for (let i = 0; i < shape.inputs * shape.hidden; i++)
      parameters[i] = (2 * random.next() - 1) * hiddenScale;
    const at = shape.inputs * shape.hidden + shape.hidden;
    const outputScale = Math.sqrt(1 / shape.hidden);
    for (let i = 0; i < NETWORK_OUTPUTS * shape.hidden; i++)
      parameters[at + i] = (2 * random.next() - 1) * outputScale;
    return new NetworkTrainer(
      { ...shape, parameters, firstMoment: new Float64Array(n), secondMoment: new Float64Array(n), steps: 0 },
      settings,
    );
  }

  /**
   * The same function with more hidden units (net2net widening): the old
   * units keep their weights, each new unit gets seeded He-uniform input
   * weights (as `initial`), a zero bias and **zero output weights**, so the
   * wider network evaluates every input exactly as the narrower one; training
   * then moves the new output weights first (their gradient is the unit's
   * activation) and the new input weights after them.
   */
  static widen(p: NetworkParameters, hidden: number, seed: number, activeInputs = 60): NetworkParameters {
    if (!Number.isInteger(hidden) || hidden < p.hidden) throw new RangeError(`cannot widen ${p.hidden} hidden units to ${hidden}`);
    const old = p.hidden;
    const inputWeights = new Float32Array(p.inputs * hidden);
    const random = new SeededRandom(seed);
    const scale = Math.sqrt(6 / activeInputs);
    for (let i = 0; i < p.inputs; i++) {
      inputWeights.set(p.inputWeights.subarray(i * old, i * old + old), i * hidden);
      for (let j = old; j < hidden; j++) inputWeights[i * hidden + j] = (2 * random.next() - 1) * scale;
    }
    const hiddenBias = new Float32Array(hidden);
    hiddenBias.set(p.hiddenBias);
    const outputWeights = new Float32Array(NETWORK_OUTPUTS * hidden);
    for (let o = 0; o < NETWORK_OUTPUTS; o++)
      outputWeights.set(p.outputWeights.subarray(o * old, o * old + old), o * hidden);
    return { inputs: p.inputs, hidden, inputWeights, hiddenBias, outputWeights, outputBias: Float32Array.from(p.outputBias) };
  }

  /**
   * The same function over a larger input vector: old input `i` becomes
   * input `map[i]` of `inputs`, and every new input starts with zero
   * weights, so the network computes what it did until training moves them.
   * For an encoding that extends another (each side block gains inputs).
   */
  static extendInputs(p: NetworkParameters, inputs: number, map: ArrayLike<number>): NetworkParameters {
    if (map.length !== p.inputs) throw new RangeError(`the map has ${map.length} entries for ${p.inputs} inputs`);
    const h = p.hidden;
    const inputWeights = new Float32Array(inputs * h);
    const used = new Uint8Array(inputs);
    for (let i = 0; i < p.inputs; i++) {
      const to = map[i];
      if (!Number.isInteger(to) || to < 0 || to >= inputs || used[to]) throw new RangeError(`input ${i} maps to ${to}`);
      used[to] = 1;
      inputWeights.set(p.inputWeights.subarray(i * h, i * h + h), to * h);
    }
    return {
      inputs,
      hidden: h,
      inputWeights,
      hiddenBias: Float32Array.from(p.hiddenBias),
      outputWeights: Float32Array.from(p.outputWeights),
      outputBias: Float32Array.from(p.outputBias),
    };
  }

  /** A trainer starting from stored (float32) parameters, with a fresh optimiser. */
  static fromParameters(p: NetworkParameters, settings: AdamSettings = DEFAULT_ADAM): NetworkTrainer {
    const n = parameterCount(p);
    const parameters = new Float64Array(n);
    let at = 0;
    for (const a of [p.inputWeights, p.hiddenBias, p.outputWeights, p.outputBias]) {
      parameters.set(a, at);
      at += a.length;
    }
    return new NetworkTrainer(
      {
        inputs: p.inputs,
        hidden: p.hidden,
        parameters,
        firstMoment: new Float64Array(n),
        secondMoment: new Float64Array(n),
        steps: 0,
      },
      settings,
    );
  }

  /** The state to checkpoint (shared arrays, not copies). */
  state(): TrainerState {
    return {
      inputs: this.inputs,
      hidden: this.hidden,
      parameters: this.parameters,
      firstMoment: this.firstMoment,
      secondMoment: this.secondMoment,
      steps: this.steps,
    };
  }

  /** The current weights as float32 parameters (fresh arrays). */
  networkParameters(): NetworkParameters {
    const p = this.parameters;
    return {
      inputs: this.inputs,
      hidden: this.hidden,
      inputWeights: Float32Array.from(p.subarray(0, this.hiddenBiasAt)),
      hiddenBias: Float32Array.from(p.subarray(this.hiddenBiasAt, this.outputWeightsAt)),
      outputWeights: Float32Array.from(p.subarray(this.outputWeightsAt, this.outputBiasAt)),
      outputBias: Float32Array.from(p.subarray(this.outputBiasAt)),
    };
  }

  /** The current weights as an evaluating network (float32). */
  network(): NeuralNetwork {
    return new NeuralNetwork(this.networkParameters());
  }

  /** Float64 forward pass; leaves the hidden pre-activations for `accumulate`. */
  forward(input: SparseInput, out: Float64Array, offset = 0): void {
    const h = this.hidden;
    const p = this.parameters;
    const z = this.preActivation;
    for (let j = 0; j < h; j++) z[j] = p[this.hiddenBiasAt + j];
    for (let k = 0; k < input.count; k++) {
      const v = input.value[k];
      const row = input.index[k] * h;
      for (let j = 0; j < h; j++) z[j] += v * p[row + j];
    }
    for (let o = 0; o < NETWORK_OUTPUTS; o++) {
      let s = p[this.outputBiasAt + o];
      const row = this.outputWeightsAt + o * h;
      for (let j = 0; j < h; j++) if (z[j] > 0) s += p[row + j] * z[j];
      out[offset + o] = sigmoid(s);
    }
  }

  /**
   * Adds one sample's gradient: `target[targetOffset …+4]` are the five
   * target probabilities; `weight` scales the sample (0 skips an output
   * when given per output through `outputWeights`). `extra`, when given,
   * adds a gradient of another loss at each output's pre-activation (the
   * ranking loss of `trainRankPass`). Returns the sample's cross-entropy
   * loss (summed over the outputs).
   */
  accumulate(
    input: SparseInput,
    target: ArrayLike<number>,
    targetOffset = 0,
    weight = 1,
    outputWeights?: ArrayLike<number>,
    extra?: ArrayLike<number>,
  ): number {
    const h = this.hidden;
    const p = this.parameters;
    const g = this.gradient;
    const z = this.preActivation;
    const y = this.outputs;
    this.forward(input, y, 0);
    const gh = this.hiddenGradient;
    gh.fill(0);
    let loss = 0;
    for (let o = 0; o < NETWORK_OUTPUTS; o++) {
      const t = target[targetOffset + o];
      const w = outputWeights ? weight * outputWeights[o] : weight;
      const e = extra ? extra[o] : 0;
      if (w === 0 && e === 0) continue;
      const q = y[o] < 1e-12 ? 1e-12 : y[o] > 1 - 1e-12 ? 1 - 1e-12 : y[o];
      loss -= w * (t * Math.log(q) + (1 - t) * Math.log(1 - q));
      const d = w * (y[o] - t) + e;
      g[this.outputBiasAt + o] += d;
      const row = this.outputWeightsAt + o * h;
      for (let j = 0; j < h; j++) {
        if (z[j] <= 0) continue;
        g[row + j] += d * z[j];
        gh[j] += d * p[row + j];
      }
    }
    for (let j = 0; j < h; j++) g[this.hiddenBiasAt + j] += gh[j];
    for (let k = 0; k < input.count; k++) {
      const v = input.value[k];
      const row = input.index[k] * h;
      for (let j = 0; j < h; j++) g[row + j] += v * gh[j];
    }
    this.batchCount++;
    return loss;
  }

  /** Applies one Adam update with the mean gradient of the samples accumulated since the last step. */
  step(): void {
    if (this.batchCount === 0) return;
    const s = this.settings;
    const scale = 1 / this.batchCount;
    this.steps++;
    const c1 = 1 - Math.pow(s.beta1, this.steps);
    const c2 = 1 - Math.pow(s.beta2, this.steps);
    const rate = (s.learningRate * Math.sqrt(c2)) / c1;
    const p = this.parameters;
    const g = this.gradient;
    const m = this.firstMoment;
    const v = this.secondMoment;
    const l2 = s.l2;
    const weightsEnd = this.hiddenBiasAt;
    for (let i = 0; i < p.length; i++) {
      let gi = g[i] * scale;
      if (l2 !== 0 && (i < weightsEnd || (i >= this.outputWeightsAt && i < this.outputBiasAt)))
        gi += l2 * p[i];
      m[i] = s.beta1 * m[i] + (1 - s.beta1) * gi;
      v[i] = s.beta2 * v[i] + (1 - s.beta2) * gi * gi;
      p[i] -= (rate * m[i]) / (Math.sqrt(v[i]) + s.epsilon);
      g[i] = 0;
    }
    this.batchCount = 0;
  }
}
