import { BoardSlots, KernelEncoding, WasmForward, wasmForward } from './kernel';
import { SparseInput, sparseInput } from './sparse';

export { SparseInput, sparseInput } from './sparse';

/**
 * A small multilayer perceptron for position evaluation: one hidden layer
 * of ReLU units and five sigmoid outputs (win, winMars, winKoks, loseMars,
 * loseKoks for the side to move, probabilities.ts order).
 *
 * Layout (float32, the order of the binary format, format.ts):
 * - `inputWeights`: **input-major**, `inputs × hidden` — the `hidden`
 *   weights of one input side by side. The hidden pre-activations are the
 *   bias plus one row per non-zero input, so a sparse encoding (most raw
 *   point units are 0) costs only its active rows, and an incremental
 *   update (a few checkers moved) adds and subtracts rows the same way;
 * - `hiddenBias` (`hidden`);
 * - `outputWeights`: output-major, `5 × hidden`;
 * - `outputBias` (5).
 *
 * The forward pass allocates nothing: it accumulates into scratch buffers
 * owned by the network, so a network is not re-entrant (one per worker,
 * like the searches). Its loops run in the WebAssembly SIMD kernel
 * (kernel.ts, kernel/forward.ts) where the runtime has it, else in
 * JavaScript; both give the same outputs, bit for bit.
 */
export const NETWORK_OUTPUTS = 5;

/** Where a network's forward pass runs: the WebAssembly SIMD kernel or the JavaScript loops. */
export type NetworkKernel = 'wasm' | 'js';

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

/** The five sigmoids of the pre-sigmoid outputs `z` into `out[offset …]`. */
function sigmoidsInto(z: Float64Array, out: Float64Array, offset: number): void {
  out[offset] = sigmoid(z[0]);
  out[offset + 1] = sigmoid(z[1]);
  out[offset + 2] = sigmoid(z[2]);
  out[offset + 3] = sigmoid(z[3]);
  out[offset + 4] = sigmoid(z[4]);
}

/**
 * The grid of the first layer's sums: every term is rounded to a multiple
 * of 2^−30, so that any sum of terms below 2^21 in magnitude is exact in
 * float64 (53 bits). Sums are then independent of order, and an
 * accumulator updated by adding and subtracting rows holds exactly what a
 * fresh sum would: the answer never depends on which position was
 * evaluated before. The rounding moves a pre-activation by at most a few
 * 1e-9 — far below float32's own precision in the weights.
 */
const GRID = 2 ** 30;
/** Adding and subtracting this rounds |x| < 2^21 to the 2^−30 grid (ulp of [2^22, 2^23) is 2^−30). */
const ROUNDER = 1.5 * 2 ** 22;
/** Bound on the hidden pre-activations under which the grid sums are exact. */
const EXACT_BOUND = 2 ** 21;
/** Bound on an input value of the encodings (the largest is bar/2 = 7.5), for the exactness check. */
const INPUT_BOUND = 16;

/** `x` on the 2^−30 grid (|x| < 2^21). */
function onGrid(x: number): number {
  return x + ROUNDER - ROUNDER;
}

/**
 * A network ready to evaluate (float32 weights, scratch of its own).
 *
 * The forward pass is incremental (NNUE style): the network keeps the
 * hidden pre-activations of the last input it saw, and when the next input
 * differs from it in fewer entries than it has (the plays of one roll, a
 * position and its successors), it adds and subtracts only the rows of the
 * inputs that changed. Sums on a fixed grid (`GRID`) make this exact, so
 * the outputs are the same whatever was evaluated before; they agree with
 * `referenceForward` to about 1e-9.
 */
export class NeuralNetwork implements NetworkParameters {
  readonly inputs: number;
  readonly hidden: number;
  readonly inputWeights: Float32Array;
  readonly hiddenBias: Float32Array;
  readonly outputWeights: Float32Array;
  readonly outputBias: Float32Array;
  /** `inputWeights` on the grid (still float32: the rounding only touches weights below 2^−6). */
  private readonly rows: Float32Array;
  /** `hiddenBias` on the grid. */
  private readonly bias: Float64Array;
  /** Hidden pre-activations of `last`. */
  private readonly sums: Float64Array;
  /** The input `sums` belong to (valid when `hasLast`). */
  private readonly last: SparseInput;
  private hasLast = false;
  /** `outputWeights` hidden-major (the five weights of one hidden unit side by side). */
  private readonly outputColumns: Float32Array;
  /** Whether the weights are small enough for exact incremental sums (always, for trained nets). */
  private readonly exact: boolean;
  /**
   * Whether to update from the last input (default); benchmarks switch it
   * off to time the full sum. The outputs are the same either way.
   */
  incremental = true;
  /** Rows added or subtracted by the JavaScript loops. */
  private jsRows = 0;
  /** The kernel instance (made on first use of the 'wasm' kernel); null where WebAssembly SIMD is missing. */
  private wasm: WasmForward | null | undefined;
  private kernelChoice: NetworkKernel;

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
    this.rows = new Float32Array(inputs * hidden);
    // A value k·2^−30 with |k| < 2^24 is a float32; a larger one was a float32 on the grid already.
    for (let i = 0; i < this.rows.length; i++) this.rows[i] = Math.round(this.inputWeights[i] * GRID) / GRID;
    this.bias = new Float64Array(hidden);
    for (let j = 0; j < hidden; j++) this.bias[j] = Math.round(this.hiddenBias[j] * GRID) / GRID;
    this.sums = new Float64Array(hidden);
    this.last = sparseInput(inputs);
    this.outputColumns = new Float32Array(NETWORK_OUTPUTS * hidden);
    for (let o = 0; o < NETWORK_OUTPUTS; o++)
      for (let j = 0; j < hidden; j++) this.outputColumns[j * NETWORK_OUTPUTS + o] = this.outputWeights[o * hidden + j];
    let bound = 0;
    for (let j = 0; j < hidden; j++) {
      let s = Math.abs(this.bias[j]);
      for (let i = 0; i < inputs; i++) s += INPUT_BOUND * Math.abs(this.rows[i * hidden + j]);
      bound = Math.max(bound, s);
    }
    this.exact = bound < EXACT_BOUND;
    this.kernelChoice = 'wasm';
  }

  /**
   * Where the forward pass runs: 'wasm' (the default; the JavaScript loops
   * where the runtime lacks WebAssembly SIMD) or 'js'. Benchmarks and tests
   * switch it; the outputs are the same either way.
   */
  get kernel(): NetworkKernel {
    return this.kernelChoice === 'wasm' && this.wasmKernel() ? 'wasm' : 'js';
  }

  set kernel(kernel: NetworkKernel) {
    this.kernelChoice = kernel;
    this.hasLast = false;
    this.wasm?.reset();
  }

  /** Rows added or subtracted so far, by either kernel (benchmarks: the incremental saving). */
  get rowsApplied(): number {
    return this.jsRows + (this.wasm ? this.wasm.rowsApplied : 0);
  }

  /**
   * A sparse input buffer for this network: with the WebAssembly kernel,
   * views of its memory, so an encoding writing into it hands the kernel
   * its input without a copy (one buffer per network; any other
   * `SparseInput` works too, copied in).
   */
  inputBuffer(): SparseInput {
    const wasm = this.kernelChoice === 'wasm' ? this.wasmKernel() : null;
    return wasm ? wasm.input : sparseInput(this.inputs);
  }

  /**
   * A kernel instance of this network that evaluates whole boards through
   * `slots` (an encoding whose inputs each read one board entry,
   * kernel.ts `BoardSlots`), up to `capacity` boards a call, with the same
   * outputs as `forward` of their encodings; null where WebAssembly SIMD is
   * missing or the weights are too large for exact sums.
   */
  boardKernel(slots: BoardSlots, capacity: number): WasmForward | null {
    if (!this.exact) return null;
    const weights = { inputs: this.inputs, hidden: this.hidden, rows: this.rows, bias: this.bias };
    return wasmForward({ ...weights, outputWeights: this.outputWeights, outputBias: this.outputBias }, { slots, capacity });
  }

  private wasmKernel(): WasmForward | null {
    if (this.wasm === undefined)
      this.wasm = wasmForward({
        inputs: this.inputs,
        hidden: this.hidden,
        rows: this.rows,
        bias: this.bias,
        outputWeights: this.outputWeights,
        outputBias: this.outputBias,
      });
    return this.wasm;
  }

  /**
   * Forward pass over a sparse input: writes the five sigmoid outputs into
   * `out[offset … offset+4]`. Allocation-free.
   */
  forward(input: SparseInput, out: Float64Array, offset: number): void {
    if (this.kernelChoice === 'wasm') {
      const wasm = this.wasmKernel();
      if (wasm) {
        wasm.forward(input, this.incremental && this.exact);
        sigmoidsInto(wasm.z, out, offset);
        return;
      }
    }
    if (this.incremental && this.exact && this.hasLast && this.changes(input) < input.count) this.update(input);
    else this.recompute(input);
    const last = this.last;
    const count = input.count;
    for (let k = 0; k < count; k++) {
      last.index[k] = input.index[k];
      last.value[k] = input.value[k];
    }
    last.count = count;
    this.hasLast = true;
    this.output(out, offset);
  }

  /**
   * The forward pass of a backgammon board that the kernel encodes itself
   * with its copy of `encoding` (kernel.ts `KernelEncoding`), in one call:
   * true when done, the five sigmoid outputs in `out[offset …]`; false
   * when the JavaScript loops are in use, and the caller encodes the board
   * and calls `forward` — the same outputs, bit for bit.
   */
  forwardShortBoard(board: Int8Array, encoding: KernelEncoding, out: Float64Array, offset: number): boolean {
    if (this.kernelChoice !== 'wasm') return false;
    const wasm = this.wasmKernel();
    if (!wasm) return false;
    wasm.forwardShort(board, encoding, this.incremental && this.exact);
    sigmoidsInto(wasm.z, out, offset);
    return true;
  }

  /** The kernel's encoding of the board of the last `forwardShortBoard` (tests), or null without the kernel. */
  kernelInput(): SparseInput | null {
    return this.kernelChoice === 'wasm' ? (this.wasmKernel()?.encodedInput() ?? null) : null;
  }

  /** Entries in which `input` differs from `last` (both sorted by index), counted up to `input.count`. */
  private changes(input: SparseInput): number {
    const last = this.last;
    let i = 0;
    let k = 0;
    let n = 0;
    while (i < last.count && k < input.count && n < input.count) {
      const a = last.index[i];
      const b = input.index[k];
      if (a === b) {
        if (last.value[i] !== input.value[k]) n += 2;
        i++;
        k++;
      } else if (a < b) {
        n++;
        i++;
      } else {
        n++;
        k++;
      }
    }
    return n + (last.count - i) + (input.count - k);
  }

  private recompute(input: SparseInput): void {
    const h = this.hidden;
    const sums = this.sums;
    const bias = this.bias;
    for (let j = 0; j < h; j++) sums[j] = bias[j];
    for (let k = 0; k < input.count; k++) this.addRow(input.index[k], input.value[k], 1);
  }

  /** From `last` to `input`: subtract the rows that left or changed, add the new ones. */
  private update(input: SparseInput): void {
    const last = this.last;
    let i = 0;
    let k = 0;
    while (i < last.count || k < input.count) {
      const a = i < last.count ? last.index[i] : this.inputs;
      const b = k < input.count ? input.index[k] : this.inputs;
      if (a === b) {
        if (last.value[i] !== input.value[k]) this.changeRow(a, last.value[i], input.value[k]);
        i++;
        k++;
      } else if (a < b) {
        this.addRow(a, last.value[i], -1);
        i++;
      } else {
        this.addRow(b, input.value[k], 1);
        k++;
      }
    }
  }

  /** `sums += sign · value · row(index)`, each term on the grid. Unrolled by four: V8 does not vectorise. */
  private addRow(index: number, value: number, sign: number): void {
    const h = this.hidden;
    const h4 = h & ~3;
    const sums = this.sums;
    const w = this.rows;
    const row = index * h;
    this.jsRows++;
    let j = 0;
    if (value === 1 && sign > 0) {
      for (; j < h4; j += 4) {
        const r = row + j;
        sums[j] += w[r];
        sums[j + 1] += w[r + 1];
        sums[j + 2] += w[r + 2];
        sums[j + 3] += w[r + 3];
      }
      for (; j < h; j++) sums[j] += w[row + j];
    } else if (value === 1) {
      for (; j < h4; j += 4) {
        const r = row + j;
        sums[j] -= w[r];
        sums[j + 1] -= w[r + 1];
        sums[j + 2] -= w[r + 2];
        sums[j + 3] -= w[r + 3];
      }
      for (; j < h; j++) sums[j] -= w[row + j];
    } else {
      const v = sign * value;
      for (; j < h; j++) sums[j] += onGrid(v * w[row + j]);
    }
  }

  /** `sums += (to − from) · row(index)` in one pass, as two terms on the grid (a pip count, a share of shots). */
  private changeRow(index: number, from: number, to: number): void {
    const h = this.hidden;
    const sums = this.sums;
    const w = this.rows;
    const row = index * h;
    this.jsRows++;
    for (let j = 0; j < h; j++) {
      const x = w[row + j];
      sums[j] += onGrid(to * x) - onGrid(from * x);
    }
  }

  /** ReLU, then the five sigmoid outputs: one pass over the active hidden units. */
  private output(out: Float64Array, offset: number): void {
    const h = this.hidden;
    const sums = this.sums;
    const w = this.outputColumns;
    const b = this.outputBias;
    let z0 = b[0];
    let z1 = b[1];
    let z2 = b[2];
    let z3 = b[3];
    let z4 = b[4];
    for (let j = 0; j < h; j++) {
      const a = sums[j];
      if (a <= 0) continue;
      const c = j * NETWORK_OUTPUTS;
      z0 += w[c] * a;
      z1 += w[c + 1] * a;
      z2 += w[c + 2] * a;
      z3 += w[c + 3] * a;
      z4 += w[c + 4] * a;
    }
    out[offset] = sigmoid(z0);
    out[offset + 1] = sigmoid(z1);
    out[offset + 2] = sigmoid(z2);
    out[offset + 3] = sigmoid(z3);
    out[offset + 4] = sigmoid(z4);
  }
}

/**
 * The plain forward pass (float64 sums in input order, no grid, no memory
 * of the last input): the reference the incremental `NeuralNetwork.forward`
 * is tested against. Allocates; not for hot paths.
 */
export function referenceForward(
  parameters: NetworkParameters,
  input: SparseInput,
  out: Float64Array,
  offset: number,
): void {
  const h = parameters.hidden;
  const a = new Float64Array(h);
  const w1 = parameters.inputWeights;
  for (let j = 0; j < h; j++) a[j] = parameters.hiddenBias[j];
  for (let k = 0; k < input.count; k++) {
    const v = input.value[k];
    const row = input.index[k] * h;
    for (let j = 0; j < h; j++) a[j] += v * w1[row + j];
  }
  const w2 = parameters.outputWeights;
  for (let o = 0; o < NETWORK_OUTPUTS; o++) {
    let z = parameters.outputBias[o];
    const row = o * h;
    for (let j = 0; j < h; j++) if (a[j] > 0) z += w2[row + j] * a[j];
    out[offset + o] = sigmoid(z);
  }
}
