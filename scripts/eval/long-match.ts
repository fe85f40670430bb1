import { spawn } from 'child_process';
import { join } from 'path';
import { Dice } from '../../src/engine/dice';
import { moverPips, opponentPips } from '../../src/engine/long/board';
import { longLossCounts } from '../../src/engine/long/board';
import { LONG_PRESETS, LongPresetName, LongRules } from '../../src/engine/long/rules';
import { LongStageSolver } from '../../src/engine/long/stage';
import { LongState, LongTurn, legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { effectiveLongScoring } from '../../src/engine/scoring/long';
import { longTripleMeasure, lossKind } from '../../src/engine/scoring/loss';
import { Side } from '../../src/engine/side';
import { createLongEvaluator, longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { LONG_FEATURES, LONG_SIDE_FEATURES } from '../../src/eval/long/features';
import { LinearWeights } from '../../src/eval/linear';
import { searchSettings } from '../../src/eval/search-options';
import { longNetBot } from '../train/long-game';
import { LongSelfPlay } from '../../src/eval/neural/self-play';
import { readBearoffDatabase } from './data';

/**
 * Long-family bots and paired matches between them, for the strength
 * instrument (scripts/eval/strength.ts) and the training script.
 */
export interface LongBot {
  readonly name: string;
  /** Index of the chosen play among `turns` (all legal plays of the stage). */
  choose(state: LongState, dice: Dice | undefined, turns: readonly LongTurn[]): number;
}

/**
 * The pip-count greedy bot: maximises (opponent pips − own pips) after the
 * play — in long nardy every full play moves the same pips, so this only
 * avoids wasted pips in the bear-off — and breaks ties at random (seeded).
 */
export function pipGreedyBot(seed: number): LongBot {
  const random = new SeededRandom(seed);
  return {
    name: 'greedy',
    choose(_state, _dice, turns) {
      let best: number[] = [];
      let bestScore = -Infinity;
      turns.forEach((t, k) => {
        const score = opponentPips(t.board) - moverPips(t.board);
        if (score > bestScore) {
          bestScore = score;
          best = [k];
        } else if (score === bestScore) best.push(k);
      });
      return best[random.below(best.length)];
    },
  };
}

/** Uniformly random legal plays (seeded). */
export function randomBot(seed: number): LongBot {
  const random = new SeededRandom(seed);
  return { name: 'random', choose: (_s, _d, turns) => random.below(turns.length) };
}

/** Our evaluator at `plies` through `LongSearch.rankTurns`. */
export function searchBot(rules: LongRules, plies: number, weights?: LinearWeights, label = 'heuristic', epsilon = 0, seed = 1): LongBot {
  const evaluator = createLongEvaluator({
    rules,
    database: () => readBearoffDatabase(longBearoffRuleSet(rules)),
    weights,
    weightsVersion: weights ? 'custom' : undefined,
  });
  const search = new LongSearch(rules, evaluator);
  const settings = searchSettings(plies);
  const random = new SeededRandom(seed);
  return {
    name: `${label}@${plies}`,
    choose(state, dice, turns) {
      if (turns.length === 1) return 0;
      if (epsilon > 0 && random.next() < epsilon) return random.below(turns.length);
      const ranked = search.rankTurns(state, dice, settings);
      if (!ranked.ok) throw new Error(ranked.error.message);
      const best = ranked.value[0];
      const k = turns.findIndex((t) => t.board.every((v, i) => v === best.board[i]));
      return k >= 0 ? k : 0;
    },
  };
}

/**
 * A bot from a spec: `greedy`, `random`, `heuristic@P` (the v1 evaluator at
 * P plies), `pips@P` (pip-race evaluator), `net@P` (the committed long
 * network, data/nets/long) or `net:<name>@P` (another network under
 * data/nets, or a path).
 */
export function botOf(spec: string, rules: LongRules, seed: number): LongBot {
  if (spec === 'greedy') return pipGreedyBot(seed);
  if (spec === 'random') return randomBot(seed);
  const m = /^(heuristic|pips|net)(?::([\w./-]+))?(?:@([0-2]))?$/.exec(spec);
  if (!m || (m[2] !== undefined && m[1] !== 'net')) {
    throw new Error(`unknown bot ${spec}: greedy | random | heuristic@0..2 | pips@0..2 | net@0..2 | net:<name>@0..2`);
  }
  const plies = m[3] ? Number(m[3]) : 0;
  if (m[1] === 'net') return longNetBot(rules, plies, m[2]);
  if (m[1] === 'pips') return searchBot(rules, plies, pipRaceWeights(), 'pips');
  return searchBot(rules, plies);
}

/** Weights that use only the race features (a pip-count evaluator with race-exact endings). */
export function pipRaceWeights(): LinearWeights {
  const w = new Float64Array(5 * LONG_FEATURES);
  w[2 * LONG_SIDE_FEATURES + 2] = 0.35;
  for (let h = 1; h < 5; h++) w[h * LONG_FEATURES + 2 * LONG_SIDE_FEATURES] = -3;
  return { features: LONG_FEATURES, weights: w };
}

/** One finished game. */
export interface GameRecord {
  readonly game: number;
  /** Points for bot A (negative when B won). */
  readonly points: number;
  readonly winner: 'a' | 'b' | null;
  readonly kind: number;
  readonly stages: number;
}

/**
 * Plays game `game` of a paired match on the game reducer: games 2k and
 * 2k+1 share one dice stream (seeded by the match seed and k) and swap the
 * bots' seats, so bot A moves first in even games and bot B in odd ones.
 * The points are the reducer's score (LN-SCORE-1…4, KH-4, FV-6); `kind` is
 * the scoring core's class of the loss (1 oin, 2 mars, 3 the triple slot).
 */
export function playPairedGame(rules: LongRules, a: LongBot, b: LongBot, seed: number, game: number, maxStages = 4000): GameRecord {
  const pair = Math.floor(game / 2);
  const dice = new SeededRandom((seed * 1000003 + pair) >>> 0);
  const aSeat: Side = game % 2 === 0 ? 'white' : 'black';
  const play = new LongSelfPlay(rules, 'white');
  const solver = new LongStageSolver();
  for (let stage = 0; stage < maxStages; stage++) {
    const result = play.result;
    if (result) {
      if (!result.winner) break;
      const board = play.position;
      const kind = lossKind(longLossCounts(board.position.board, board.position.turn !== result.winner), longTripleMeasure(effectiveLongScoring(rules)));
      const aWon = result.winner === aSeat;
      return { game, points: aWon ? result.points : -result.points, winner: aWon ? 'a' : 'b', kind, stages: stage };
    }
    const state = play.position;
    const roll: Dice | undefined = play.needsRoll ? dice.dice() : undefined;
    const answer = legalLongTurns(rules, state, roll, {}, solver);
    if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
    const turns = answer.value.turns;
    const bot = state.position.turn === aSeat ? a : b;
    const k = turns.length === 1 ? 0 : bot.choose(state, roll, turns);
    stage += play.step(roll, turns[k]);
  }
  return { game, points: 0, winner: null, kind: 0, stages: maxStages };
}

/** ppg of bot A with the standard error over pairs (and over games). */
export function summarise(records: readonly GameRecord[]): { games: number; ppg: number; stderr: number; stderrPairs: number; aWins: number; aMars: number; bMars: number; unfinished: number } {
  const n = records.length;
  const mean = records.reduce((s, r) => s + r.points, 0) / n;
  const variance = records.reduce((s, r) => s + (r.points - mean) ** 2, 0) / Math.max(1, n - 1);
  const pairs = new Map<number, number[]>();
  for (const r of records) {
    const k = Math.floor(r.game / 2);
    const list = pairs.get(k) ?? [];
    list.push(r.points);
    pairs.set(k, list);
  }
  const pairMeans = [...pairs.values()].filter((v) => v.length === 2).map((v) => (v[0] + v[1]) / 2);
  const pm = pairMeans.reduce((s, v) => s + v, 0) / Math.max(1, pairMeans.length);
  const pv = pairMeans.reduce((s, v) => s + (v - pm) ** 2, 0) / Math.max(1, pairMeans.length - 1);
  return {
    games: n,
    ppg: mean,
    stderr: Math.sqrt(variance / n),
    stderrPairs: Math.sqrt(pv / Math.max(1, pairMeans.length)),
    aWins: records.filter((r) => r.winner === 'a').length,
    aMars: records.filter((r) => r.winner === 'a' && r.kind >= 2).length,
    bMars: records.filter((r) => r.winner === 'b' && r.kind >= 2).length,
    unfinished: records.filter((r) => r.winner === null).length,
  };
}

/**
 * Plays games [0, games) of a paired match in `workers` child processes
 * (whole pairs per worker, which keeps the paired standard error exact).
 * Each child runs `tsx script ...args --slice from:to` and must print its
 * `GameRecord[]` as JSON on stdout. Returns the records in game order.
 */
export async function playInWorkers(script: string, args: readonly string[], games: number, workers: number): Promise<GameRecord[]> {
  const tsx = join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
  const pairs = Math.ceil(games / 2);
  const per = Math.ceil(pairs / Math.max(1, workers));
  const jobs: Promise<GameRecord[]>[] = [];
  for (let w = 0; w < workers; w++) {
    const from = Math.min(games, 2 * w * per);
    const to = Math.min(games, 2 * (w + 1) * per);
    if (from >= to) continue;
    jobs.push(
      new Promise((resolve, reject) => {
        const child = spawn(tsx, [script, ...args, '--slice', `${from}:${to}`], { stdio: ['ignore', 'pipe', 'inherit'] });
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(JSON.parse(text) as GameRecord[]) : reject(new Error(`worker exited with ${code}`))));
      }),
    );
  }
  return (await Promise.all(jobs)).flat().sort((x, y) => x.game - y.game);
}

/** The rules of a preset name. */
export function presetRules(name: string): LongRules {
  const rules = (LONG_PRESETS as Record<string, LongRules | undefined>)[name];
  if (!rules) throw new Error(`unknown preset ${name}: ${Object.keys(LONG_PRESETS).join(', ')}`);
  return { ...rules, scoring: { ...rules.scoring } };
}

export type { LongPresetName };
