/**
 * A small multilayer perceptron for position evaluation: one hidden layer
 * of ReLU units and five sigmoid outputs (win, winMars, winKoks, loseMars,
 * loseKoks for the side to move, probabilities.ts order).
 *
 * Layout (float32, the order of the binary format, format.ts):
 * - `inputWeights`: **input-major**, `inputs × hidden` — the `hidden`
 *   weights of one input side by side. The hidden pre-activations are the
 *   bias plus one row per non-zero input, so a sparse encoding (most raw
 *   point units are 0) costs only its active rows, and a later incremental
 *   update (a few checkers moved) would add and subtract rows the same way;
 * - `hiddenBias` (`hidden`);
 * - `outputWeights`: output-major, `5 × hidden`;
 * - `outputBias` (5).
 *
 * The forward pass allocates nothing: it accumulates into a scratch buffer
 * owned by the network, so a network is not re-entrant (one per worker,
 * like the searches).
 */
export const NETWORK_OUTPUTS = 5;

/** Sizes of a network. */
export interface NetworkShape {
  readonly inputs: number;
  readonly hidden: number;
}

/** The parameters of a network as plain arrays (float32 when stored, float64 while training). */
export interface NetworkParameters<
  A extends Float32Array | Float64Array = Float32Array,
> extends NetworkShape {
  readonly inputWeights: A;
  readonly hiddenBias: A;
  readonly outputWeights: A;
  readonly outputBias: A;
}

/** Number of float parameters of a shape. */
export function parameterCount(shape: NetworkShape): number {
  return shape.inputs * shape.hidden + shape.hidden + NETWORK_OUTPUTS * shape.hidden + NETWORK_OUTPUTS;
}

/** The logistic function, saturating early so that `exp` never overflows. */
export function sigmoid(z: number): number {
  if (z > 40) return 1;
  if (z < -40) return 0;
  return 1 / (1 + Math.exp(-z));
}

/** A sparse input vector: `count` pairs (`index[i]`, `value[i]`), indices increasing, values non-zero. */
export interface SparseInput {
  readonly index: Int32Array;
  readonly value: Float64Array;
  count: number;
}

/** A sparse input buffer able to hold every input of a network with `inputs` inputs. */
export function sparseInput(inputs: number): SparseInput {
  return { index: new Int32Array(inputs), value: new Float64Array(inputs), count: 0 };
}

/** A network ready to evaluate (float32 weights, scratch of its own). */
export class NeuralNetwork implements NetworkParameters {
  readonly inputs: number;
  readonly hidden: number;
  readonly inputWeights: Float32Array;
  readonly hiddenBias: Float32Array;
  readonly outputWeights: Float32Array;
  readonly outputBias: Float32Array;
  private readonly activations: Float64Array;

  constructor(parameters: NetworkParameters) {
    const { inputs, hidden } = parameters;
    if (!Number.isInteger(inputs) || inputs < 1 || !Number.isInteger(hidden) || hidden < 1)
      throw new RangeError('network sizes must be positive integers');
    if (
      parameters.inputWeights.length !== inputs * hidden ||
      parameters.hiddenBias.length !== hidden ||
      parameters.outputWeights.length !== NETWORK_OUTPUTS * hidden ||
      parameters.outputBias.length !== NETWORK_OUTPUTS
    ) {
      throw new RangeError(`network arrays do not match ${inputs} × ${hidden} × ${NETWORK_OUTPUTS}`);
    }
    this.inputs = inputs;
    this.hidden = hidden;
    this.inputWeights = parameters.inputWeights;
    this.hiddenBias = parameters.hiddenBias;
    this.outputWeights = parameters.outputWeights;
    this.outputBias = parameters.outputBias;
    this.activations = new Float64Array(hidden);
  }

  /**
   * Forward pass over a sparse input: writes the five sigmoid outputs into
   * `out[offset … offset+4]`. Allocation-free.
   */
  forward(input: SparseInput, out: Float64Array, offset: number): void {
    const h = this.hidden;
    const a = this.activations;
    const w1 = this.inputWeights;
    const b1 = this.hiddenBias;
    for (let j = 0; j < h; j++) a[j] = b1[j];
    const index = input.index;
    const value = input.value;
    for (let k = 0; k < input.count; k++) {
      const v = value[k];
      const row = index[k] * h;
      if (v === 1) {
        for (let j = 0; j < h; j++) a[j] += w1[row + j];
      } else {
        for (let j = 0; j < h; j++) a[j] += v * w1[row + j];
      }
    }
    for (let j = 0; j < h; j++) if (a[j] < 0) a[j] = 0;
    const w2 = this.outputWeights;
    const b2 = this.outputBias;
    for (let o = 0; o < NETWORK_OUTPUTS; o++) {
      let z = b2[o];
      const row = o * h;
      for (let j = 0; j < h; j++) z += w2[row + j] * a[j];
      out[offset + o] = sigmoid(z);
    }
  }
}
