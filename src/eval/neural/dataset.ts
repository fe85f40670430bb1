import { SeededRandom } from '../../engine/random';
import { OutcomeValues, equityAt } from '../equity';
import { NeuralEncoding } from './encoding';
import { SparseInput, sparseInput } from './network';
import { NetworkTrainer } from './trainer';

/** Positions (boards seen from the side to move) with five target probabilities each, in flat growable arrays. */
export class Dataset {
  boards: Int8Array;
  targets: Float32Array;
  count = 0;

  constructor(
    readonly boardLength: number,
    capacity = 1024,
  ) {
    this.boards = new Int8Array(capacity * boardLength);
    this.targets = new Float32Array(capacity * 5);
  }

  add(board: ArrayLike<number>, target: ArrayLike<number>, targetOffset = 0): void {
    if (this.count * this.boardLength >= this.boards.length) {
      const boards = new Int8Array(this.boards.length * 2);
      boards.set(this.boards);
      this.boards = boards;
      const targets = new Float32Array(this.targets.length * 2);
      targets.set(this.targets);
      this.targets = targets;
    }
    const n = this.count++;
    for (let i = 0; i < this.boardLength; i++) this.boards[n * this.boardLength + i] = board[i];
    for (let i = 0; i < 5; i++) this.targets[n * 5 + i] = target[targetOffset + i];
  }

  board(k: number): Int8Array {
    return this.boards.subarray(k * this.boardLength, (k + 1) * this.boardLength);
  }
}

/** Shuffles `order` in place (Fisher–Yates, seeded). */
export function shuffle(order: Int32Array, random: SeededRandom): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/**
 * One pass of minibatch training over `order` (indices into `data`).
 * Calls `shouldStop` between batches and returns early when it says so.
 * Returns the mean loss per sample and the samples seen.
 */
export function trainPass(
  trainer: NetworkTrainer,
  encoding: NeuralEncoding,
  data: Dataset,
  order: Int32Array,
  batch: number,
  outputWeights?: ArrayLike<number>,
  shouldStop: () => boolean = () => false,
): { loss: number; samples: number } {
  const input: SparseInput = sparseInput(encoding.inputs);
  let loss = 0;
  let seen = 0;
  for (let i = 0; i < order.length; i++) {
    const k = order[i];
    encoding.encode(data.board(k), input);
    loss += trainer.accumulate(input, data.targets, 5 * k, 1, outputWeights);
    seen++;
    if (seen % batch === 0) {
      trainer.step();
      if (shouldStop()) break;
    }
  }
  trainer.step();
  return { loss: loss / Math.max(1, seen), samples: seen };
}

/** Mean cross-entropy and mean absolute cubeless-equity error of the trainer on `order`. */
export function validate(
  trainer: NetworkTrainer,
  encoding: NeuralEncoding,
  data: Dataset,
  order: Int32Array,
  values: OutcomeValues,
): { loss: number; equityError: number } {
  const input = sparseInput(encoding.inputs);
  const out = new Float64Array(5);
  const target = new Float64Array(5);
  let loss = 0;
  let error = 0;
  for (let i = 0; i < order.length; i++) {
    const k = order[i];
    encoding.encode(data.board(k), input);
    trainer.forward(input, out, 0);
    for (let o = 0; o < 5; o++) {
      const t = data.targets[5 * k + o];
      target[o] = t;
      const q = Math.min(1 - 1e-12, Math.max(1e-12, out[o]));
      loss -= t * Math.log(q) + (1 - t) * Math.log(1 - q);
    }
    error += Math.abs(equityAt(out, 0, values) - equityAt(target, 0, values));
  }
  return { loss: loss / Math.max(1, order.length), equityError: error / Math.max(1, order.length) };
}
