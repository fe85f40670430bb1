import { writeFileSync } from 'fs';
import { join } from 'path';
import { Dice } from '../../src/engine/dice';
import { needsDice, newLongGame, winnerOf } from '../../src/engine/long/game';
import { LongState, legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { effectiveLongScoring } from '../../src/engine/scoring/long';
import { LONG_FEATURES, longFeatures } from '../../src/eval/long/features';
import { LONG_CONTACT_WEIGHTS } from '../../src/eval/long/weights';
import { longLoserKind, longTripleMeasure } from '../../src/eval/long/terminal';
import { HEADS, LinearWeights } from '../../src/eval/linear';
import { isLongRace } from '../../src/eval/race';
import { fitLogistic } from './fit';
import { GameRecord, playPairedGame, presetRules, summarise } from '../../src/eval/long/self-play';
import { pipRaceWeights, searchBot } from '../eval/long-match';

/**
 * Trains the long-nardy contact evaluator (src/eval/long/weights.ts) by
 * self-play Monte Carlo regression, on classic rules:
 *
 * 1. play G games with the current weights at 0 ply, choosing a random play
 *    with probability ε (exploration);
 * 2. label every contact position where a player is about to roll (nothing
 *    pending) with that player's final result: won / mars / koks;
 * 3. fit the five logistic heads (linear.ts) to those labels;
 * 4. repeat R rounds, starting from the pip-race weights.
 *
 *   npx tsx scripts/train/train-long.ts [--rounds 5] [--games 3000] [--epsilon 0.1] [--lambda 3] [--seed 7] [--check 400] [--keep 3] [--from-current]
 *
 * Each fit uses the positions of the last `--keep` rounds (experience
 * replay). Monte Carlo policy iteration is noisy — a round can be worse than
 * the one before — so after each round the new weights play `--check`
 * paired games at 0 ply against the best weights so far (the champion) and
 * replace them only if they win; the champion is written at the end.
 * `--from-current` starts from the weights in src/eval/long/weights.ts.
 */
function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

interface Sample {
  features: Float64Array;
  won: boolean;
  kind: number;
}

function playAndRecord(weights: LinearWeights, games: number, epsilon: number, seed: number): Sample[] {
  const rules = presetRules('long');
  const triple = longTripleMeasure(effectiveLongScoring(rules));
  const bot = searchBot(rules, 0, weights, 'train', epsilon, seed);
  const random = new SeededRandom(seed * 7919 + 1);
  const samples: Sample[] = [];
  for (let g = 0; g < games; g++) {
    let state: LongState = newLongGame(rules, random.below(2) === 0 ? 'white' : 'black');
    const positions: { features: Float64Array; side: string }[] = [];
    for (let stage = 0; stage < 4000; stage++) {
      const winner = winnerOf(state);
      if (winner) {
        const board = state.position.board;
        for (const p of positions) {
          const won = p.side === winner;
          const loserIsMover = state.position.turn !== winner;
          samples.push({ features: p.features, won, kind: longLoserKind(board, loserIsMover, triple) });
        }
        break;
      }
      const roll: Dice | undefined = needsDice(state) ? random.dice() : undefined;
      if (roll && state.pending.length === 0 && !isLongRace(state.position.board)) {
        const f = new Float64Array(LONG_FEATURES);
        longFeatures(state.position.board, f);
        positions.push({ features: f, side: state.position.turn });
      }
      const answer = legalLongTurns(rules, state, roll);
      if (!answer.ok) throw new Error(answer.error.message);
      const turns = answer.value.turns;
      const k = turns.length === 1 ? 0 : bot.choose(state, roll, turns);
      state = turns[k].state;
    }
  }
  return samples;
}

function fit(samples: Sample[], lambda: number, previous: Float64Array): Float64Array {
  const rows = samples.map((s) => s.features);
  const weights = new Float64Array(HEADS * LONG_FEATURES);
  for (let h = 0; h < HEADS; h++) {
    const targets = new Float64Array(samples.length);
    const w = new Float64Array(samples.length);
    samples.forEach((s, i) => {
      switch (h) {
        case 0:
          targets[i] = s.won ? 1 : 0;
          w[i] = 1;
          break;
        case 1:
          targets[i] = s.kind >= 2 ? 1 : 0;
          w[i] = s.won ? 1 : 0;
          break;
        case 2:
          targets[i] = s.kind >= 3 ? 1 : 0;
          w[i] = s.won && s.kind >= 2 ? 1 : 0;
          break;
        case 3:
          targets[i] = s.kind >= 2 ? 1 : 0;
          w[i] = s.won ? 0 : 1;
          break;
        case 4:
          targets[i] = s.kind >= 3 ? 1 : 0;
          w[i] = !s.won && s.kind >= 2 ? 1 : 0;
          break;
      }
    });
    if (w.every((v) => v === 0)) continue; // no such result under these rules (koks in K0)
    const head = fitLogistic({ rows, targets, weights: w }, LONG_FEATURES, lambda, 12, previous.subarray(h * LONG_FEATURES, (h + 1) * LONG_FEATURES));
    weights.set(head, h * LONG_FEATURES);
  }
  return weights;
}

function main(): void {
  const rounds = option('rounds', 5);
  const games = option('games', 3000);
  const epsilon = option('epsilon', 0.1);
  const lambda = option('lambda', 3);
  const seed = option('seed', 7);
  const check = option('check', 400);
  const rules = presetRules('long');
  let weights = process.argv.includes('--from-current') ? Float64Array.from(LONG_CONTACT_WEIGHTS) : pipRaceWeights().weights;
  let champion = weights;
  let total = 0;
  // Experience replay: each fit sees the positions of the last `keep`
  // rounds, which damps the oscillation of plain Monte Carlo policy iteration.
  const keep = option('keep', 3);
  const history: Sample[][] = [];
  for (let r = 1; r <= rounds; r++) {
    const t0 = Date.now();
    const fresh = playAndRecord({ features: LONG_FEATURES, weights }, games, epsilon, seed + r);
    history.push(fresh);
    if (history.length > keep) history.shift();
    const samples = history.flat();
    total += fresh.length;
    const next = fit(samples, lambda, weights);
    const t1 = Date.now();
    let line = `round ${r}: ${games} games, ${fresh.length} new positions (${samples.length} fitted), ${((t1 - t0) / 1000).toFixed(0)} s`;
    if (check > 0) {
      const a = searchBot(rules, 0, { features: LONG_FEATURES, weights: next }, 'new');
      const b = searchBot(rules, 0, { features: LONG_FEATURES, weights: champion }, 'champion');
      const records: GameRecord[] = [];
      for (let g = 0; g < check; g++) records.push(playPairedGame(rules, a, b, 1000 + r, g));
      const s = summarise(records);
      line += `; new vs champion@0: ${s.ppg >= 0 ? '+' : ''}${s.ppg.toFixed(3)} ± ${s.stderrPairs.toFixed(3)} ppg`;
      if (s.ppg > 0) {
        champion = next;
        line += ' (new champion)';
      }
    } else champion = next;
    console.log(line);
    weights = next;
  }
  weights = champion;
  const version = `td-mc-${rounds}x${games}-${lambda}`;
  const lines: string[] = [];
  for (let i = 0; i < weights.length; i += 8) {
    lines.push('  ' + Array.from(weights.slice(i, i + 8), (v) => Number(v.toPrecision(6)).toString()).join(', ') + ',');
  }
  const text = `/*
 * Generated by scripts/train/train-long.ts — do not edit by hand.
 * Self-play Monte Carlo regression on classic long nardy: ${rounds} rounds of
 * ${games} games (ε = ${epsilon}), ${total} labelled contact positions in all;
 * L2 penalty ${lambda}.
 */
export const LONG_WEIGHTS_VERSION = '${version}';

// prettier-ignore
export const LONG_CONTACT_WEIGHTS: Float64Array = Float64Array.from([
${lines.join('\n')}
]);
`;
  const path = join(__dirname, '..', '..', 'src', 'eval', 'long', 'weights.ts');
  writeFileSync(path, text);
  console.log(`wrote ${path} (${version})`);
}

main();
