import { Dice } from '../../engine/dice';
import { longLossCounts, moverPips, opponentPips } from '../../engine/long/board';
import { LONG_PRESETS, LongRules } from '../../engine/long/rules';
import { LongStageSolver } from '../../engine/long/stage';
import { LongState, LongTurn, legalLongTurns } from '../../engine/long/turn';
import { SeededRandom } from '../../engine/random';
import { effectiveLongScoring } from '../../engine/scoring/long';
import { longTripleMeasure, lossKind } from '../../engine/scoring/loss';
import { Side } from '../../engine/side';
import { Evaluator } from '../evaluator';
import { LongChooser, LongSelfPlay } from '../neural/self-play';
import { searchSettings } from '../search-options';
import { LongSearch } from './search';

/*
 * Long-family bots and seeded paired matches between them on the game
 * reducer, for the strength instruments, training and the benchmark
 * (scripts/eval/long-match.ts adds the bots that read data/ and the
 * worker processes).
 */

/** A player of paired games: picks one of a stage's legal plays. */
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

/** A bot for paired games: an evaluator through `LongSearch.rankTurns` at `plies`. */
export function evaluatorBot(
  rules: Readonly<LongRules>,
  evaluator: Evaluator,
  plies: number,
  label: string,
): LongBot {
  // One stage per turn (doubles = standard): the 0-ply choice is exactly
  // the search's, without its second move generation.
  const chooser = plies === 0 && rules.doubles === 'standard' ? new LongChooser(rules, evaluator) : null;
  const search = new LongSearch(rules, evaluator);
  const settings = searchSettings(plies);
  return {
    name: `${label}@${plies}`,
    choose(state, dice, turns) {
      if (turns.length === 1) return 0;
      if (chooser) return chooser.best(state, turns);
      const ranked = search.rankTurns(state, dice, settings);
      if (!ranked.ok) throw new Error(ranked.error.message);
      const best = ranked.value[0].board;
      const k = turns.findIndex((t) => t.board.every((v, i) => v === best[i]));
      return k >= 0 ? k : 0;
    },
  };
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

/** The rules of a preset name. */
export function presetRules(name: string): LongRules {
  const rules = (LONG_PRESETS as Record<string, LongRules | undefined>)[name];
  if (!rules) throw new Error(`unknown preset ${name}: ${Object.keys(LONG_PRESETS).join(', ')}`);
  return { ...rules, scoring: { ...rules.scoring } };
}
