import { moverPips as shortMoverPips, opponentPips as shortOpponentPips } from '../../engine/short/board';
import { LongPresetName, LongRules } from '../../engine/long/rules';
import { OutcomeValues, STANDARD_VALUES, equityAt, longOutcomeValues } from '../equity';
import { Evaluator, makeEvaluator } from '../evaluator';
import { evaluatorBot, pipGreedyBot, playPairedGame, summarise } from '../long/self-play';
import { clampInPlace } from '../probabilities';
import { ShortPlayer, createPrimerEvaluator, playShortPairedGame } from '../short/self-play';
import { NeuralEvaluator } from './evaluator';
import { sigmoid, sparseInput } from './network';

/**
 * Checks that a committed network is a trained one: its raw output on
 * bear-off positions against the exact answer of the bear-off database, and
 * a short seeded match against the pip-count greedy bot. Used by
 * test/eval/neural/yardstick.test.ts (which also runs them on mutated
 * networks, to show that they fail), scripts/eval/yardstick.ts and
 * scripts/eval/bearoff-positions.ts; the positions file is read by
 * `readBearoffPositions` (src/service/analysis/data.ts).
 */

/** The committed networks and the long-family preset each plays (null: backgammon). */
export const COMMITTED_NETS: Readonly<Record<string, LongPresetName | null>> = {
  backgammon: null,
  long: 'long',
  khachapuri: 'khachapuri',
};

/** The committed bear-off positions (scripts/eval/bearoff-positions.ts, data/benchmarks/bearoff-positions.json): boards by network name. */
export interface BearoffPositionsFile {
  readonly generator: string;
  /** Network name → boards (mover's view, comma-separated counts). */
  readonly positions: Readonly<Record<string, readonly string[]>>;
}

export function boardOf(text: string): Int8Array {
  return Int8Array.from(text.split(',').map(Number));
}

/**
 * The network's own output for a board, whatever the position is: the
 * evaluator sends races to the race evaluator, so this is the only way to
 * ask the network about them. Ordered like the evaluator's (`clampInPlace`).
 */
export function rawNetworkInto(net: NeuralEvaluator, board: Int8Array, out: Float64Array): void {
  const input = sparseInput(net.encoding.inputs);
  net.encoding.encode(board, input);
  net.contact.forward(input, out, 0);
  clampInPlace(out, 0);
}

/** Spearman's rank correlation (average ranks for ties). */
export function spearman(x: readonly number[], y: readonly number[]): number {
  const rx = ranks(x);
  const ry = ranks(y);
  const n = x.length;
  const mx = rx.reduce((s, v) => s + v, 0) / n;
  const my = ry.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) ** 2;
    syy += (ry[i] - my) ** 2;
  }
  // A constant series has no ranking at all: report no correlation.
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

function ranks(v: readonly number[]): number[] {
  const order = v.map((_, i) => i).sort((a, b) => v[a] - v[b]);
  const out = new Array<number>(v.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && v[order[j + 1]] === v[order[i]]) j++;
    for (let k = i; k <= j; k++) out[order[k]] = (i + j) / 2;
    i = j + 1;
  }
  return out;
}

export interface BearoffAgreement {
  readonly positions: number;
  /** Spearman correlation of the network's equities with the exact ones. */
  readonly rankCorrelation: number;
  /** Mean |network equity − exact equity|, in the rules' points. */
  readonly meanError: number;
}

/**
 * The network's cubeless equities against the exact ones (the race
 * evaluator, exact from the one-sided database when both sides are home)
 * on `boards`.
 */
export function bearoffAgreement(net: NeuralEvaluator, boards: readonly Int8Array[], values: OutcomeValues): BearoffAgreement {
  const own = new Float64Array(5);
  const exact = new Float64Array(5);
  const mine: number[] = [];
  const truth: number[] = [];
  let error = 0;
  for (const board of boards) {
    rawNetworkInto(net, board, own);
    net.race.evaluateInto(board, exact, 0);
    const a = equityAt(own, 0, values);
    const b = equityAt(exact, 0, values);
    mine.push(a);
    truth.push(b);
    error += Math.abs(a - b);
  }
  return { positions: boards.length, rankCorrelation: spearman(mine, truth), meanError: error / boards.length };
}

/** Outcome values of a network's game (backgammon: single / gammon / backgammon). */
export function valuesFor(net: NeuralEvaluator, rules?: Readonly<LongRules>): OutcomeValues {
  return net.family === 'short' || !rules ? STANDARD_VALUES : longOutcomeValues(rules);
}

export interface SmokeMatch {
  readonly games: number;
  readonly ppg: number;
  readonly stderrPairs: number;
}

/** A seeded paired match, the long-family network at 0 ply against the pip-count greedy bot. */
export function longSmokeMatch(rules: LongRules, net: Evaluator, games: number, seed: number): SmokeMatch {
  const a = evaluatorBot(rules, net, 0, 'net');
  const b = pipGreedyBot(seed);
  const records = [];
  for (let g = 0; g < games; g++) records.push(playPairedGame(rules, a, b, seed, g));
  const s = summarise(records);
  return { games: s.games, ppg: s.ppg, stderrPairs: s.stderrPairs };
}

/**
 * A backgammon evaluator that only counts pips: its equity rises with
 * (opponent pips − own pips), so a 0-ply player on it is the pip-count
 * greedy bot (hits and saves pips; first of equal plays).
 */
export function shortPipEvaluator(): Evaluator {
  return makeEvaluator({
    family: 'short',
    name: 'short-pips',
    version: '1',
    evaluateInto(board: Int8Array, out: Float64Array, offset: number): void {
      out.fill(0, offset, offset + 5);
      out[offset] = sigmoid((shortOpponentPips(board) - shortMoverPips(board)) / 20);
    },
  });
}

/**
 * A seeded paired backgammon match, the network at 0 ply against the
 * pip-count greedy bot or the hand-set primer of training (src/eval/short/self-play.ts).
 * The greedy bot is too weak to tell a broken backgammon network from a
 * good one (docs/neural.md, "Tests that can fail"); the primer is not.
 */
export function shortSmokeMatch(net: Evaluator, games: number, seed: number, opponent: 'greedy' | 'primer' = 'primer'): SmokeMatch {
  const a = new ShortPlayer(net);
  const b = new ShortPlayer(opponent === 'greedy' ? shortPipEvaluator() : createPrimerEvaluator());
  const points: number[] = [];
  for (let g = 0; g < games; g++) points.push(playShortPairedGame(a, b, seed, g));
  const s = summarise(points.map((p, game) => ({ game, points: p, winner: p > 0 ? 'a' : p < 0 ? 'b' : null, kind: Math.abs(p), stages: 0 })));
  return { games: s.games, ppg: s.ppg, stderrPairs: s.stderrPairs };
}
