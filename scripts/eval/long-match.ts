import { spawn } from 'child_process';
import { join } from 'path';
import { LongPresetName, LongRules } from '../../src/engine/long/rules';
import { SeededRandom } from '../../src/engine/random';
import { createLongEvaluator, longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { LONG_FEATURES, LONG_SIDE_FEATURES } from '../../src/eval/long/features';
import { LinearWeights } from '../../src/eval/linear';
import { searchSettings } from '../../src/eval/search-options';
import { GameRecord, LongBot, pipGreedyBot, randomBot } from '../../src/eval/long/self-play';
import { longNetBot } from '../train/long-game';
import { readBearoffDatabase } from './data';

/**
 * Long-family bots that read data/ (the v1 evaluator with its bear-off
 * database, committed networks) and paired matches in worker processes,
 * for the strength instrument (scripts/eval/strength.ts) and the training
 * scripts. The bots that read nothing and the paired games themselves are
 * src/eval/long/self-play.ts.
 */

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

export type { LongPresetName };
