import { CLASSIC } from '../../../src/engine/long/rules';
import { SeededRandom } from '../../../src/engine/random';
import { NeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { decodeBase64, wasmKernelAvailable } from '../../../src/eval/neural/kernel';
import {
  NetworkKernel,
  NeuralNetwork,
  SparseInput,
  referenceForward,
} from '../../../src/eval/neural/network';
import { createLongEncoding } from '../../../src/eval/neural/long-encoding';
import { createShortEncoding } from '../../../src/eval/neural/short-encoding';
import { createShortRawEncoding, encodeShortRawFlipped, shortRawFlippedSlots } from '../../../src/eval/neural/raw-encoding';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';
import { sigmoid } from '../../../src/eval/neural/network';
import { readLongNet, readShortNet } from '../../../src/service/analysis/nets';
import { encodeAll, longBoardsAndPlays, randomWeights, shortBoardsAndPlays } from './support';

/**
 * The WebAssembly SIMD kernel of the forward pass (src/eval/neural/kernel/):
 * on thousands of positions of both families' networks its outputs are the
 * JavaScript loops' bit for bit, and the plain reference's within 1e-5 —
 * incremental and full sums, inputs copied in or written in place.
 */

describe('kernel base64', () => {
  it('base64 decoding agrees with Node', () => {
    const random = new SeededRandom(5);
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n * 7 + (n % 3) }, () => random.below(256));
      expect(Array.from(decodeBase64(Buffer.from(bytes).toString('base64')))).toEqual(Array.from(bytes));
    }
  });
});

// The boards are generated once per file: several tests walk the same seeded positions.
let shortMemo: Int8Array[] | undefined;
let longMemo: Int8Array[] | undefined;

function shortBoards(): Int8Array[] {
  shortMemo ??= shortBoardsAndPlays(59, 61, 1200);
  return shortMemo;
}

function longBoards(): Int8Array[] {
  longMemo ??= longBoardsAndPlays(71, 67, 1200);
  return longMemo;
}

/** The first index where `a` and `b` differ bit for bit (Object.is, as toEqual compares numbers), or null. */
function firstDifference(a: Float64Array, b: Float64Array): { index: number; got: number; want: number } | null {
  if (a.length !== b.length) return { index: Math.min(a.length, b.length), got: a.length, want: b.length };
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return { index: i, got: a[i], want: b[i] };
  return null;
}

/** All outputs of a fresh copy of `network` on `kernel`, each input copied into `network.inputBuffer()` first when `inPlace`. */
function run(
  network: NeuralNetwork,
  kernel: NetworkKernel,
  incremental: boolean,
  inputs: readonly SparseInput[],
  inPlace: boolean,
): { out: Float64Array; rows: number } {
  const copy = new NeuralNetwork(network);
  copy.kernel = kernel;
  copy.incremental = incremental;
  expect(copy.kernel).toBe(kernel);
  const buffer = copy.inputBuffer();
  const out = new Float64Array(inputs.length * 5);
  inputs.forEach((input, i) => {
    if (inPlace) {
      buffer.index.set(input.index.subarray(0, input.count));
      buffer.value.set(input.value.subarray(0, input.count));
      buffer.count = input.count;
      copy.forward(buffer, out, i * 5);
    } else copy.forward(input, out, i * 5);
  });
  return { out, rows: copy.rowsApplied };
}

function expectSame(network: NeuralNetwork, inputs: readonly SparseInput[]): void {
  // The reference outputs do not depend on the kernel's settings: computed once for the four runs below.
  const reference = new Float64Array(inputs.length * 5);
  inputs.forEach((input, i) => referenceForward(network, input, reference, i * 5));
  const js = run(network, 'js', true, inputs, false);
  const active = inputs.reduce((s, input) => s + input.count, 0);
  for (const incremental of [true, false]) {
    for (const inPlace of [false, true]) {
      const wasm = run(network, 'wasm', incremental, inputs, inPlace);
      let worst = 0;
      for (let i = 0; i < reference.length; i++) worst = Math.max(worst, Math.abs(wasm.out[i] - reference[i]));
      expect(worst).toBeLessThanOrEqual(1e-5);
      // Bit for bit the JavaScript loops' outputs, incremental or not.
      expect(firstDifference(wasm.out, js.out)).toBeNull();
      // The incremental path was the one taken: as many rows as the JavaScript loops, fewer than active inputs.
      if (incremental) {
        expect(wasm.rows).toBe(js.rows);
        expect(wasm.rows).toBeLessThan(active * 0.6);
      } else expect(wasm.rows).toBe(active);
    }
  }
}

describe('WebAssembly kernel against the JavaScript loops and the reference', () => {
  it('is available on the supported Node versions', () => {
    expect(wasmKernelAvailable()).toBe(true);
  });

  it('backgammon network: game positions and the plays of one roll', () => {
    const net: NeuralEvaluator = readShortNet();
    const boards = shortBoards();
    expect(boards.length).toBeGreaterThan(3000);
    expect(net.contact.kernel).toBe('wasm');
    expectSame(net.contact, encodeAll(net.encoding, boards));
  });

  it('long network: game positions and the plays of one roll', () => {
    const net = readLongNet(CLASSIC);
    const boards = longBoards();
    expect(boards.length).toBeGreaterThan(3000);
    expectSame(net.contact, encodeAll(net.encoding, boards));
  });

  it('untrained networks whose hidden layer is not a multiple of the kernel step', () => {
    for (const [family, hidden, encoding, boards] of [
      ['short', 13, createShortEncoding(), shortBoards().slice(0, 600)],
      ['long', 5, createLongEncoding(), longBoards().slice(0, 600)],
    ] as const) {
      const network = new NeuralNetwork(randomWeights(family, hidden, 11).networks[0].parameters);
      expectSame(network, encodeAll(encoding, boards));
    }
  });

  it('switching kernels mid-sequence changes no output', () => {
    const net = readShortNet();
    const inputs = encodeAll(net.encoding, shortBoards().slice(0, 400));
    const network = new NeuralNetwork(net.contact);
    const mixed = new Float64Array(inputs.length * 5);
    inputs.forEach((input, i) => {
      network.kernel = i % 3 === 0 ? 'js' : 'wasm';
      network.forward(input, mixed, i * 5);
    });
    expect(firstDifference(mixed, run(net.contact, 'js', true, inputs, false).out)).toBeNull();
  });
});

describe('WebAssembly kernel on whole boards (board slots)', () => {
  /** Every board's outputs through the board kernel, `batch` boards a call, against `forward` of its encoding. */
  function expectBoardsSame(network: NeuralNetwork, boards: readonly Int8Array[], batch: number): void {
    const kernel = network.boardKernel(shortRawFlippedSlots(), batch);
    expect(kernel).not.toBeNull();
    if (!kernel) return;
    const input = new NeuralNetwork(network).inputBuffer();
    const one = new NeuralNetwork(network);
    const expected = new Float64Array(5);
    const got = new Float64Array(5);
    let compared = 0;
    // Every board is compared; the first few that differ are reported together (one expect, not one per board).
    const differences: string[] = [];
    for (let start = 0; start < boards.length; start += batch) {
      const chunk = boards.slice(start, start + batch);
      const flat = new Int8Array(chunk.length * 28);
      chunk.forEach((board, k) => flat.set(board, k * 28));
      kernel.forwardBoards(flat, chunk.length);
      chunk.forEach((_, k) => {
        encodeShortRawFlipped(flat, k * 28, input);
        one.forward(input, expected, 0);
        for (let o = 0; o < 5; o++) got[o] = sigmoid(kernel.plays[k * 6 + o]);
        const difference = firstDifference(got, expected);
        if (difference && differences.length < 5) differences.push(`board ${start + k}: ${JSON.stringify(difference)}`);
        compared++;
      });
    }
    expect(differences).toEqual([]);
    expect(compared).toBe(boards.length);
  }

  it('backgammon pruning encoding: the outputs of forward, bit for bit, on thousands of boards', () => {
    const boards = shortBoards();
    // Checkers on the bar and borne off, on both sides, beyond the positions of play.
    const extreme = Int8Array.from(boards[0]);
    extreme[25] = 3;
    extreme[26] = 2;
    extreme[0] = 4;
    extreme[27] = -5;
    const all = [...boards, extreme];
    const encoding = createShortRawEncoding();
    for (const hidden of [16, 13]) {
      const network = new NeuralNetwork(NetworkTrainer.initial({ inputs: encoding.inputs, hidden }, hidden).networkParameters());
      expectBoardsSame(network, all, 37);
    }
  });

  it('has room for the boards a call it was made for', () => {
    const encoding = createShortRawEncoding();
    const network = new NeuralNetwork(NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 8 }, 1).networkParameters());
    expect(network.boardKernel(shortRawFlippedSlots(), 5)?.capacity).toBe(5);
  });
});
