import { Dice } from '../src/engine/dice';
import { playLongGame } from '../src/engine/long/game';
import { LONG_PRESETS } from '../src/engine/long/rules';
import { LongStageSolver, movementOf } from '../src/engine/long/stage';
import { LongState, activeStage, legalLongTurns } from '../src/engine/long/turn';
import { SeededRandom } from '../src/engine/random';

/**
 * Long-nardy legal-turn generation throughput over a fixed, seeded corpus
 * of self-play positions (classic rules): the raw stage solver (what the
 * evaluator uses) and the public `legalLongTurns` (fresh result objects,
 * next states and first-turn handling included).
 */
export interface Corpus {
  states: LongState[];
  dice: Dice[];
}

export function longCorpus(games: number, seed: number): Corpus {
  const random = new SeededRandom(seed);
  const corpus: Corpus = { states: [], dice: [] };
  for (let g = 0; g < games; g++) {
    playLongGame(LONG_PRESETS.long, random, (step) => {
      if (step.dice) {
        corpus.states.push(step.before);
        corpus.dice.push(step.dice);
      }
    });
  }
  return corpus;
}

export interface Rate {
  positionsPerSecond: number;
  microsecondsPerPosition: number;
  averagePlays: number;
}

function measure(corpus: Corpus, rounds: number, work: (i: number) => number): Rate {
  const n = corpus.states.length;
  let best = Infinity;
  let plays = 0;
  for (let r = 0; r < rounds; r++) {
    plays = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) plays += work(i);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    best = Math.min(best, seconds);
  }
  return { positionsPerSecond: n / best, microsecondsPerPosition: (best / n) * 1e6, averagePlays: plays / n };
}

export function benchLongMovegen(corpus: Corpus, rounds = 5): { solver: Rate; api: Rate } {
  const rules = LONG_PRESETS.long;
  const movement = movementOf(rules);
  const solver = new LongStageSolver();
  // The stage (units and head allowance) of each position is resolved once, outside the timing.
  const stages = corpus.states.map((s, i) => {
    const stage = activeStage(rules, s, corpus.dice[i]);
    if (!stage.ok) throw new Error(stage.error.message);
    return stage.value;
  });
  const solverRate = measure(corpus, rounds, (i) =>
    solver.solve(corpus.states[i].position.board, stages[i].units, stages[i].headAllowance, movement),
  );
  const apiRate = measure(corpus, rounds, (i) => {
    const r = legalLongTurns(rules, corpus.states[i], corpus.dice[i]);
    return r.ok ? r.value.turns.length : 0;
  });
  return { solver: solverRate, api: apiRate };
}
