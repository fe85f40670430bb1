import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { CLASSIC } from '../../../src/engine/long/rules';
import { SeededRandom } from '../../../src/engine/random';
import { NeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { decodeBase64, wasmKernelAvailable } from '../../../src/eval/neural/kernel';
import { KERNEL_WASM_BASE64, KERNEL_WASM_SHA256 } from '../../../src/eval/neural/kernel-wasm';
import {
  NetworkKernel,
  NeuralNetwork,
  SparseInput,
  referenceForward,
} from '../../../src/eval/neural/network';
import { createLongEncoding } from '../../../src/eval/neural/long-encoding';
import { createShortEncoding } from '../../../src/eval/neural/short-encoding';
import { KERNEL_WASM, compileKernel, sha256 } from '../../../scripts/build-kernel';
import { readLongNet, readShortNet } from '../../../scripts/train/nets';
import { encodeAll, longBoardsAndPlays, randomWeights, shortBoardsAndPlays } from './support';

/**
 * The WebAssembly SIMD kernel of the forward pass (src/eval/neural/kernel/):
 * the committed bytes are what `npm run build:kernel` builds, and on
 * thousands of positions of both families' networks its outputs are the
 * JavaScript loops' bit for bit, and the plain reference's within 1e-5 —
 * incremental and full sums, inputs copied in or written in place.
 */

describe('kernel build', () => {
  it('the committed .wasm and its embedded base64 are a fresh build of kernel/forward.ts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kernel-'));
    try {
      const fresh = compileKernel(join(dir, 'forward.wasm'));
      const committed = readFileSync(KERNEL_WASM);
      const embedded = decodeBase64(KERNEL_WASM_BASE64);
      expect(fresh.length).toBeGreaterThan(500);
      expect(sha256(fresh)).toBe(sha256(committed));
      expect(sha256(embedded)).toBe(sha256(committed));
      expect(KERNEL_WASM_SHA256).toBe(sha256(committed));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('base64 decoding agrees with Node', () => {
    const random = new SeededRandom(5);
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n * 7 + (n % 3) }, () => random.below(256));
      expect(Array.from(decodeBase64(Buffer.from(bytes).toString('base64')))).toEqual(Array.from(bytes));
    }
  });
});

function shortBoards(): Int8Array[] {
  return shortBoardsAndPlays(59, 61, 1200);
}

function longBoards(): Int8Array[] {
  return longBoardsAndPlays(71, 67, 1200);
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
  const reference = new Float64Array(5);
  const js = run(network, 'js', true, inputs, false);
  const active = inputs.reduce((s, input) => s + input.count, 0);
  for (const incremental of [true, false]) {
    for (const inPlace of [false, true]) {
      const wasm = run(network, 'wasm', incremental, inputs, inPlace);
      let worst = 0;
      inputs.forEach((input, i) => {
        referenceForward(network, input, reference, 0);
        for (let o = 0; o < 5; o++) worst = Math.max(worst, Math.abs(wasm.out[i * 5 + o] - reference[o]));
      });
      expect(worst).toBeLessThanOrEqual(1e-5);
      // Bit for bit the JavaScript loops' outputs, incremental or not.
      expect(Array.from(wasm.out)).toEqual(Array.from(js.out));
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
    expect(Array.from(mixed)).toEqual(Array.from(run(net.contact, 'js', true, inputs, false).out));
  });
});
