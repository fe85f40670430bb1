import { SeededRandom } from '../../engine/random';
import { OutcomeValues, equityAt } from '../equity';
import { NeuralEncoding } from './encoding';
import { SparseInput, sparseInput } from './network';
import { NetworkTrainer } from './trainer';

/**
 * Positions (boards seen from the side to move) with five target
 * probabilities each, in flat growable arrays. A position may name the
 * group it belongs to (the results of one roll, added one after another);
 * -1 is none.
 */
export class Dataset {
  boards: Int8Array;
  targets: Float32Array;
  groups: Int32Array;
  count = 0;

  constructor(
    readonly boardLength: number,
    capacity = 1024,
  ) {
    this.boards = new Int8Array(capacity * boardLength);
    this.targets = new Float32Array(capacity * 5);
    this.groups = new Int32Array(capacity);
  }

  add(board: ArrayLike<number>, target: ArrayLike<number>, targetOffset = 0, group = -1): void {
    if (this.count >= this.groups.length) {
      const boards = new Int8Array(this.boards.length * 2);
      boards.set(this.boards);
      this.boards = boards;
      const targets = new Float32Array(this.targets.length * 2);
      targets.set(this.targets);
      this.targets = targets;
      const groups = new Int32Array(this.groups.length * 2);
      groups.set(this.groups);
      this.groups = groups;
    }
    const n = this.count++;
    for (let i = 0; i < this.boardLength; i++) this.boards[n * this.boardLength + i] = board[i];
    for (let i = 0; i < 5; i++) this.targets[n * 5 + i] = target[targetOffset + i];
    this.groups[n] = group;
  }

  /**
   * The runs of consecutive positions of one group, as start indices with
   * the count at the end (run r is `starts[r] … starts[r + 1] − 1`); a
   * position without a group is a run of its own.
   */
  runs(): Int32Array {
    const starts: number[] = [];
    for (let k = 0; k < this.count; k++)
      if (k === 0 || this.groups[k] < 0 || this.groups[k] !== this.groups[k - 1]) starts.push(k);
    starts.push(this.count);
    return Int32Array.from(starts);
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

/** d(equity)/d(output) of the five outputs for `values` (equityAt is linear in them). */
function equityGradient(values: OutcomeValues): Float64Array {
  return Float64Array.from([
    2 * values.single,
    values.mars - values.single,
    values.koks - values.mars,
    values.single - values.mars,
    values.mars - values.koks,
  ]);
}

/**
 * One pass over whole groups (`order` holds run numbers of `runs`, see
 * `Dataset.runs`): the cross-entropy of `trainPass` plus, within each run
 * of two or more positions, a ranking loss `rankWeight / 2 · Σ (dᵢ − d̄)²`
 * where dᵢ is the network's cubeless equity of position i minus the
 * target's. It leaves a common offset of a group's equities free and
 * penalises only their differences, which are what a choice between the
 * plays of one roll reads. An Adam step after about `batch` positions (at a
 * run's end). Returns the mean cross-entropy per position and the positions
 * seen.
 */
export function trainRankPass(
  trainer: NetworkTrainer,
  encoding: NeuralEncoding,
  data: Dataset,
  runs: Int32Array,
  order: Int32Array,
  batch: number,
  values: OutcomeValues,
  rankWeight: number,
  shouldStop: () => boolean = () => false,
): { loss: number; samples: number } {
  const slope = equityGradient(values);
  const inputs: SparseInput[] = [];
  let diffs = new Float64Array(16);
  let outs = new Float64Array(16 * 5);
  const extra = new Float64Array(5);
  let loss = 0;
  let seen = 0;
  let sinceStep = 0;
  for (let i = 0; i < order.length; i++) {
    const r = order[i];
    const from = runs[r];
    const size = runs[r + 1] - from;
    while (inputs.length < size) inputs.push(sparseInput(encoding.inputs));
    if (diffs.length < size) {
      diffs = new Float64Array(2 * size);
      outs = new Float64Array(10 * size);
    }
    let mean = 0;
    if (size > 1 && rankWeight > 0) {
      for (let m = 0; m < size; m++) {
        const k = from + m;
        encoding.encode(data.board(k), inputs[m]);
        trainer.forward(inputs[m], outs, 5 * m);
        diffs[m] = equityAt(outs, 5 * m, values) - equityAt(data.targets, 5 * k, values);
        mean += diffs[m];
      }
      mean /= size;
    }
    for (let m = 0; m < size; m++) {
      const k = from + m;
      if (size > 1 && rankWeight > 0) {
        // d(loss)/d(preactivation o) = w (dᵢ − d̄) · slope[o] · y(1 − y); y from the forward pass above.
        const g = rankWeight * (diffs[m] - mean);
        for (let o = 0; o < 5; o++) {
          const y = outs[5 * m + o];
          extra[o] = g * slope[o] * y * (1 - y);
        }
        loss += trainer.accumulate(inputs[m], data.targets, 5 * k, 1, undefined, extra);
      } else {
        encoding.encode(data.board(k), inputs[0]);
        loss += trainer.accumulate(inputs[0], data.targets, 5 * k);
      }
      seen++;
      sinceStep++;
    }
    if (sinceStep >= batch) {
      trainer.step();
      sinceStep = 0;
      if (shouldStop()) break;
    }
  }
  trainer.step();
  return { loss: loss / Math.max(1, seen), samples: seen };
}

/**
 * How the network chooses between the positions of each group of two or
 * more in `order` (run numbers of `runs`): the share of groups where its
 * highest cubeless equity is the target's highest, and the mean equity the
 * target loses by its choice.
 */
export function rankAgreement(
  trainer: NetworkTrainer,
  encoding: NeuralEncoding,
  data: Dataset,
  runs: Int32Array,
  order: Int32Array,
  values: OutcomeValues,
): { groups: number; same: number; loss: number } {
  const input = sparseInput(encoding.inputs);
  const out = new Float64Array(5);
  let groups = 0;
  let same = 0;
  let lost = 0;
  for (let i = 0; i < order.length; i++) {
    const from = runs[order[i]];
    const size = runs[order[i] + 1] - from;
    if (size < 2) continue;
    let ours = -1;
    let oursEquity = -Infinity;
    let best = -1;
    let bestEquity = -Infinity;
    for (let m = 0; m < size; m++) {
      const k = from + m;
      encoding.encode(data.board(k), input);
      trainer.forward(input, out, 0);
      // The positions are seen from the opponent on roll: the mover's equity is the negation.
      const e = -equityAt(out, 0, values);
      const t = -equityAt(data.targets, 5 * k, values);
      if (e > oursEquity) {
        oursEquity = e;
        ours = m;
      }
      if (t > bestEquity) {
        bestEquity = t;
        best = m;
      }
    }
    groups++;
    if (ours === best) same++;
    lost += bestEquity + equityAt(data.targets, 5 * (from + ours), values);
  }
  return { groups, same: groups ? same / groups : 0, loss: groups ? lost / groups : 0 };
}
