import { readFileSync } from 'fs';
import { Dice } from '../src/engine/dice';
import { flipBoardInto as flipLongBoardInto } from '../src/engine/long/board';
import { CLASSIC } from '../src/engine/long/rules';
import { LongState, legalLongTurns } from '../src/engine/long/turn';
import { flipBoardInto as flipShortBoardInto } from '../src/engine/short/board';
import { ShortStageSolver } from '../src/engine/short/stage';
import { OutcomeValues, equityAt } from '../src/eval/equity';
import { NeuralEvaluator } from '../src/eval/neural/evaluator';
import { PruningNetwork, loadPruningNetwork } from '../src/eval/neural/pruning';
import { flipInPlace } from '../src/eval/probabilities';
import { PRUNING_FILTER, PrunedEvaluator, PruningFilter, ReplyPruner, withPruning } from '../src/eval/prune';
import { SHORT_ROLLS } from '../src/eval/short/features';
import { dataFile } from './nets';

/**
 * Reply pruning for the benchmarks (bench/search.ts): the committed pruning
 * networks attached to the full ones, and how often the pruned choice of a
 * reply equals the full-width one.
 *
 * PRUNE_NET_<NAME>=<path without .bin> tries another pruning network (e.g.
 * PRUNE_NET_BACKGAMMON=/tmp/bg-h16); PRUNE_KEEP and PRUNE_WINDOW another
 * default filter.
 */

/** The pruning network of a committed network (`data/nets/<name>-prune`, or PRUNE_NET_<NAME>). */
export function pruningNetwork(name: string): PruningNetwork {
  const other = process.env[`PRUNE_NET_${name.toUpperCase()}`];
  const bytes = other ? readFileSync(`${other}.bin`) : dataFile('nets', `${name}-prune.bin`);
  const manifest = JSON.parse((other ? readFileSync(`${other}.json`) : dataFile('nets', `${name}-prune.json`)).toString('utf8')) as unknown;
  const loaded = loadPruningNetwork(new Uint8Array(bytes), manifest);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

/** The benchmarks' default filter (PRUNE_KEEP / PRUNE_WINDOW, else the service's). */
export function benchFilter(): PruningFilter {
  return {
    keep: Number(process.env.PRUNE_KEEP ?? PRUNING_FILTER.keep),
    window: Number(process.env.PRUNE_WINDOW ?? PRUNING_FILTER.window),
  };
}

/** `evaluator` with its family's pruning network attached. */
export function pruned(evaluator: NeuralEvaluator, name: string, filter: PruningFilter = benchFilter()): PrunedEvaluator {
  const attached = withPruning(evaluator, pruningNetwork(name), filter);
  if (!attached.ok) throw new Error(attached.error.message);
  return attached.value;
}

/** A node of the agreement count: a position before the roll, by family. */
export type ReplyNode = { family: 'short'; board: Int8Array } | { family: 'long'; state: LongState };

export interface Agreement {
  readonly filter: PruningFilter;
  /** Reply choices with more than one play. */
  readonly choices: number;
  /** …where the pruned choice is the full-width one. */
  readonly same: number;
  /** Mean and largest 0-ply equity the pruned choice gives up against the full-width one. */
  readonly meanLoss: number;
  readonly maxLoss: number;
  /** Plays per choice, and of them those the full network scored under pruning. */
  readonly plays: number;
  readonly passed: number;
}

/**
 * For every node and each of the 21 rolls: the full network's 0-ply
 * favourite among all plays against its favourite among the plays the
 * pruner keeps (what a 1-ply search chooses, with and without pruning).
 */
export function replyAgreement(
  evaluator: NeuralEvaluator,
  name: string,
  nodes: readonly ReplyNode[],
  values: OutcomeValues,
  filters: readonly PruningFilter[],
): Agreement[] {
  const pruners = filters.map((f) => new ReplyPruner(pruned(evaluator, name, f), values));
  const stats = filters.map(() => ({ same: 0, loss: 0, max: 0, passed: 0 }));
  const solver = new ShortStageSolver();
  let boards = new Int8Array(64 * 28);
  let equities = new Float64Array(64);
  const scratch = new Float64Array(64);
  const flipped = new Int8Array(28);
  const flippedLong = new Int8Array(26);
  const probs = new Float64Array(5);
  let choices = 0;
  let plays = 0;
  for (const node of nodes) {
    for (const [a, b] of SHORT_ROLLS) {
      // The results of the roll's plays, each seen from the mover.
      let n: number;
      let stride: number;
      if (node.family === 'short') {
        stride = 28;
        n = solver.solve(node.board, a, b);
        if (boards.length < n * stride) boards = new Int8Array(2 * n * stride);
        for (let k = 0; k < n; k++) solver.playBoardInto(k, boards.subarray(k * stride, (k + 1) * stride));
      } else {
        stride = 26;
        const answer = legalLongTurns(CLASSIC, node.state, [a, b] as Dice);
        if (!answer.ok) throw new Error(answer.error.message);
        const turns = answer.value.turns.filter((t) => t.state.pending.length === 0);
        n = turns.length;
        if (boards.length < n * stride) boards = new Int8Array(2 * n * stride);
        turns.forEach((t, k) => boards.set(t.board, k * stride));
      }
      if (n < 2) continue;
      if (equities.length < n) equities = new Float64Array(2 * n);
      let best = 0;
      for (let k = 0; k < n; k++) {
        const board = boards.subarray(k * stride, (k + 1) * stride);
        evaluator.evaluateInto(node.family === 'short' ? flipShortBoardInto(board, flipped) : flipLongBoardInto(board, flippedLong), probs, 0);
        flipInPlace(probs, 0);
        equities[k] = equityAt(probs, 0, values);
        if (equities[k] > equities[best]) best = k;
      }
      choices++;
      plays += n;
      pruners.forEach((pruner, f) => {
        const m = pruner.select(boards, stride, n, scratch.length >= n ? scratch : new Float64Array(n));
        let chosen = pruner.kept[0];
        for (let i = 1; i < m; i++) if (equities[pruner.kept[i]] > equities[chosen]) chosen = pruner.kept[i];
        const s = stats[f];
        const loss = equities[best] - equities[chosen];
        if (chosen === best || loss === 0) s.same++;
        s.loss += loss;
        s.max = Math.max(s.max, loss);
        s.passed += m;
      });
    }
  }
  return filters.map((filter, f) => ({
    filter,
    choices,
    same: stats[f].same,
    meanLoss: stats[f].loss / Math.max(1, choices),
    maxLoss: stats[f].max,
    plays: plays / Math.max(1, choices),
    passed: stats[f].passed / Math.max(1, choices),
  }));
}
