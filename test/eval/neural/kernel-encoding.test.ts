import { SeededRandom } from '../../../src/engine/random';
import { wasmKernelAvailable } from '../../../src/eval/neural/kernel';
import { NeuralNetwork, sparseInput } from '../../../src/eval/neural/network';
import { createShortEncoding, createShortEncoding2 } from '../../../src/eval/neural/short-encoding';
import { NeuralEncoding } from '../../../src/eval/neural/encoding';
import { createNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';
import { database } from '../support';
import { shortBoardsAndPlays } from './support';

/**
 * The WebAssembly kernel's copies of the backgammon encodings `short-1` and
 * `short-2` (src/eval/neural/kernel/short-encoding.ts) against the
 * TypeScript ones, which stay the reference: the same inputs, index for
 * index and bit for bit, on positions of random play and on random boards
 * (checkers anywhere, bars and bear-offs included), and an evaluator's
 * outputs the same on both paths.
 */

/** A random legal-looking backgammon board: each side's 15 checkers spread over its points, bar and off. */
function randomBoard(random: SeededRandom): Int8Array {
  const board = new Int8Array(28);
  // The mover's slots: points 1..24, bar 25, off 0; the opponent's: points 1..24 (negative), bar 26, off 27.
  for (const side of [1, -1]) {
    let left = 15;
    while (left > 0) {
      const roll = random.below(30);
      const n = 1 + random.below(Math.min(left, 1 + random.below(6)));
      if (roll < 24) {
        const p = 1 + roll;
        if (board[p] * side < 0) continue;
        board[p] += side * n;
      } else if (roll < 27) board[side > 0 ? 25 : 26] += n;
      else board[side > 0 ? 0 : 27] += n;
      left -= n;
    }
  }
  return board;
}

function boards(): Int8Array[] {
  const random = new SeededRandom(83);
  const out = shortBoardsAndPlays(79, 81, 600);
  for (let i = 0; i < 3000; i++) out.push(randomBoard(random));
  return out;
}

const tested: [string, () => NeuralEncoding][] = [
  ['short-1', createShortEncoding],
  ['short-2', createShortEncoding2],
];

const available = wasmKernelAvailable();
if (!available) console.log('kernel-encoding.test.ts: skipped — this runtime has no WebAssembly SIMD (the kernel is not used here)');
const describeKernel = available ? describe : describe.skip;

describeKernel('the kernel encodes backgammon boards as the TypeScript encodings do', () => {
  const all = boards();

  it.each(tested)('%s: the same sparse input on every board', (_name, create) => {
    const encoding = create();
    const kernel = encoding.kernel;
    expect(kernel).toBeDefined();
    const network = new NeuralNetwork(NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 8 }, 5).networkParameters());
    const want = sparseInput(encoding.inputs);
    const out = new Float64Array(5);
    let compared = 0;
    for (const board of all) {
      encoding.encode(board, want);
      expect(network.forwardShortBoard(board, kernel!, out, 0)).toBe(true);
      const got = network.kernelInput()!;
      expect(got.count).toBe(want.count);
      for (let k = 0; k < want.count; k++) {
        if (got.index[k] !== want.index[k] || !Object.is(got.value[k], want.value[k]))
          throw new Error(`board ${Array.from(board).join(',')}: input ${k} is ${got.index[k]}=${got.value[k]}, want ${want.index[k]}=${want.value[k]}`);
      }
      compared++;
    }
    expect(compared).toBe(all.length);
  });

  it.each(tested)('%s: an evaluator gives the same outputs on the kernel path and the JavaScript one', (name, create) => {
    const encoding = create();
    const parameters = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 16 }, 9).networkParameters();
    const make = () => {
      const made = createNeuralEvaluator(
        { family: 'short', encoding: name, networks: [{ name: 'contact', parameters }] },
        { database: () => database('standard') },
      );
      if (!made.ok) throw new Error(made.error.message);
      return made.value;
    };
    const wasm = make();
    const js = make();
    js.contact.kernel = 'js';
    const a = new Float64Array(5);
    const b = new Float64Array(5);
    for (const board of all) {
      if (js.isRace(board) || board[0] === 15 || board[27] === 15) continue;
      wasm.evaluateInto(board, a, 0);
      js.evaluateInto(board, b, 0);
      for (let i = 0; i < 5; i++) if (!Object.is(a[i], b[i])) throw new Error(`board ${Array.from(board).join(',')}: output ${i} ${a[i]} ≠ ${b[i]}`);
    }
  });
});
