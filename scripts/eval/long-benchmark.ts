import { appendFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { Dice } from '../../src/engine/dice';
import { needsDice, newLongGame, winnerOf } from '../../src/engine/long/game';
import { CLASSIC, LongRules } from '../../src/engine/long/rules';
import { LongState, LongTurn, legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { createLongEvaluator, longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { rollout } from '../../src/eval/neural/rollout';
import { LongChooser } from '../train/long-game';
import { LongBot, evaluatorBot, pipGreedyBot } from '../../src/eval/long/self-play';
import { NETS_DIR, readLongNet } from '../train/nets';
import { readBearoffDatabase } from './data';
import { searchBot } from './long-match';
import { numberOption } from './options';
import { BenchmarkDecision, PHASES, Phase, decisionState, phaseOf } from '../../src/eval/long/benchmark';
import { LONG_BENCHMARK_FILE, readBenchmark } from '../../src/service/analysis/data';

/**
 * The long-nardy benchmark (docs/strength.md, "Long-nardy benchmark"):
 * decisions — a position before the roll and the roll — from varied seeded
 * play on classic rules, and for each decision the rollout equity of every
 * candidate play, written one decision per line to
 * data/benchmarks/long-classic.jsonl.
 *
 *   npx tsx scripts/eval/long-benchmark.ts [--decisions 600] [--trials 72] [--minutes 30] [--seed 1] [--worker i/n] [--out file]
 *
 * `--worker i/n` rolls out the decisions whose id is i mod n (run n of them
 * side by side on separate `--out` files, then merge them sorted by id).
 *
 * Decisions come from self-play games of three seeded policies (the network
 * at 0 ply with 15 % random plays, the v1 heuristic at 0 ply with 15 %, the
 * network with 40 %), one decision in six kept, and are sorted into phases
 * (`phaseOf`); the list is dealt round-robin over the phases, so a run cut
 * short by `--minutes` still covers every phase. A rerun resumes after the
 * decisions already in the file (the list is deterministic for a seed).
 *
 * Candidates of a decision: the plays chosen by every benchmarked evaluator
 * (pip-count greedy with its seeded tie-break, the v1 heuristic at 0 and 1
 * ply, the committed network at 0, 1 and 2 plies, the first network at 0
 * and 1 ply) and the reference network's four best at 0 ply.
 * Each is rolled out from the position after it with the reference network
 * (`REFERENCE_NET`, the first classic network, which sampled the
 * decisions) playing both sides at 0 ply, the same seed for every candidate
 * (common random numbers), `--trials` trials with stratified first rolls.
 * Contact trials are scored by the race evaluator when they reach a race;
 * race decisions are played to the end; bear-off decisions (both sides
 * home) take the exact value of the one-sided database.
 *
 *   npx tsx scripts/eval/long-benchmark.ts --extend [--file f]
 *
 * rolls out, the same way, the choices of today's players that are not yet
 * among a decision's candidates (a newer network), and rewrites the file.
 * The decision format, phases and scoring are src/eval/long/benchmark.ts.
 */
export const BENCHMARK_FILE = process.argv.includes('--out')
  ? process.argv[process.argv.indexOf('--out') + 1]
  : process.argv.includes('--file')
    ? process.argv[process.argv.indexOf('--file') + 1]
    : LONG_BENCHMARK_FILE;

/** The network that sampled the decisions and plays the rollouts: the first classic network (data/nets/start/long-v1). */
export const REFERENCE_NET = join(NETS_DIR, 'start', 'long-v1');

interface Sampled {
  readonly phase: Phase;
  readonly state: LongState;
  readonly dice: Dice;
}

/** The decisions of a seed, dealt round-robin over the phases (deterministic). */
function sampleDecisions(rules: LongRules, count: number, seed: number): Sampled[] {
  const net = readLongNet(rules, REFERENCE_NET);
  const heuristic = createLongEvaluator({ rules, database: () => readBearoffDatabase(longBearoffRuleSet(rules)) });
  const policies = [
    { chooser: new LongChooser(rules, net), epsilon: 0.15 },
    { chooser: new LongChooser(rules, heuristic), epsilon: 0.15 },
    { chooser: new LongChooser(rules, net), epsilon: 0.4 },
  ];
  const perPhase = Math.ceil(count / PHASES.length);
  const byPhase = new Map<Phase, Sampled[]>(PHASES.map((p) => [p, []]));
  const random = new SeededRandom(seed);
  for (let game = 0; PHASES.some((p) => (byPhase.get(p) as Sampled[]).length < perPhase) && game < 20000; game++) {
    const policy = policies[game % policies.length];
    let state = newLongGame(rules, 'white');
    for (let stage = 0; stage < 2000 && !winnerOf(state); stage++) {
      const dice: Dice | undefined = needsDice(state) ? random.dice() : undefined;
      const answer = legalLongTurns(rules, state, dice);
      if (!answer.ok) throw new Error(answer.error.message);
      const turns = answer.value.turns;
      if (dice && state.pending.length === 0 && turns.length >= 2 && random.below(6) === 0) {
        const phase = phaseOf(state.position.board);
        const list = byPhase.get(phase) as Sampled[];
        if (list.length < perPhase) list.push({ phase, state: normalised(state), dice });
      }
      const k = random.next() < policy.epsilon ? random.below(turns.length) : policy.chooser.best(state, turns);
      state = turns[k].state;
    }
  }
  const out: Sampled[] = [];
  for (let i = 0; out.length < count && i < perPhase; i++)
    for (const p of PHASES) {
      const s = (byPhase.get(p) as Sampled[])[i];
      if (s && out.length < count) out.push(s);
    }
  return out;
}

/** The state with the mover seated as white (the board is the mover's view either way). */
function normalised(state: LongState): LongState {
  const p = state.position;
  const white = p.turn === 'white';
  return {
    position: {
      turn: 'white',
      board: p.board.slice(),
      firstTurn: { white: white ? p.firstTurn.white : p.firstTurn.black, black: white ? p.firstTurn.black : p.firstTurn.white },
    },
    pending: [],
  };
}

/**
 * The benchmarked players of a decision, by name. `greedy` breaks ties by a
 * draw seeded with the decision's id, so its choice is reproducible.
 */
export function benchmarkPlayers(rules: LongRules): (id: number) => Record<string, LongBot> {
  const net = readLongNet(rules);
  const reference = readLongNet(rules, REFERENCE_NET);
  const fixed: Record<string, LongBot> = {
    'heuristic@0': searchBot(rules, 0),
    'heuristic@1': searchBot(rules, 1),
    'net@0': evaluatorBot(rules, net, 0, 'net'),
    'net@1': evaluatorBot(rules, net, 1, 'net'),
    'net@2': evaluatorBot(rules, net, 2, 'net'),
  };
  // The first classic network, while it is not the committed one.
  if (reference.version !== net.version) {
    fixed['start/long-v1@0'] = evaluatorBot(rules, reference, 0, 'start');
    fixed['start/long-v1@1'] = evaluatorBot(rules, reference, 1, 'start');
  }
  return (id) => ({ greedy: pipGreedyBot(1000 + id), ...fixed });
}

function boardText(board: Int8Array): string {
  return Array.from(board).join(',');
}

/** `--extend`: the choices of today's players missing from a decision's candidates, rolled out and added. */
function extend(): void {
  const seed = numberOption('seed', 1);
  const rules = CLASSIC;
  const net = readLongNet(rules, REFERENCE_NET);
  const players = benchmarkPlayers(rules);
  const started = Date.now();
  let added = 0;
  const decisions = readBenchmark(BENCHMARK_FILE).map((d) => {
    const state = decisionState(d);
    const answer = legalLongTurns(rules, state, d.dice);
    if (!answer.ok) throw new Error(`decision ${d.id}: ${answer.error.message}`);
    const turns = answer.value.turns;
    const candidates = [...d.candidates];
    for (const bot of Object.values(players(d.id))) {
      const turn = turns[bot.choose(state, d.dice, turns)];
      if (candidates.some((c) => c.board === boardText(turn.board))) continue;
      candidates.push(valueOf(rules, net, state, turn, d.phase, d.trials, seed * 1000003 + d.id));
      added++;
    }
    return { ...d, candidates };
  });
  writeFileSync(BENCHMARK_FILE, decisions.map((d) => JSON.stringify(d)).join('\n') + '\n');
  console.log(`${BENCHMARK_FILE}: ${added} candidates added over ${decisions.length} decisions, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function main(): void {
  if (process.argv.includes('--extend')) return extend();
  const count = numberOption('decisions', 600);
  const trials = numberOption('trials', 72);
  const minutes = numberOption('minutes', 30);
  const seed = numberOption('seed', 1);
  const rules = CLASSIC;
  const net = readLongNet(rules, REFERENCE_NET);
  const [worker, workers] = (process.argv.includes('--worker') ? process.argv[process.argv.indexOf('--worker') + 1] : '0/1').split('/').map(Number);
  const done = new Set(readBenchmark(BENCHMARK_FILE).map((d) => d.id));
  const decisions = sampleDecisions(rules, count, seed);
  const started = Date.now();
  const chooser = new LongChooser(rules, net);
  const players = benchmarkPlayers(rules);
  for (let id = 0; id < decisions.length && Date.now() - started < minutes * 60_000; id++) {
    if (done.has(id) || id % workers !== worker) continue;
    const { phase, state, dice } = decisions[id];
    const answer = legalLongTurns(rules, state, dice);
    if (!answer.ok) throw new Error(answer.error.message);
    const turns = answer.value.turns;
    const picked = new Set<number>();
    for (const bot of Object.values(players(id))) picked.add(bot.choose(state, dice, turns));
    chooser.best(state, turns);
    const order = turns.map((_, k) => k).sort((x, y) => equityOf(chooser, y) - equityOf(chooser, x));
    for (const k of order.slice(0, 4)) picked.add(k);
    const candidates = [...picked].map((k) => valueOf(rules, net, state, turns[k], phase, trials, seed * 1000003 + id));
    const record: BenchmarkDecision = {
      id,
      phase,
      board: boardText(state.position.board),
      firstTurn: [state.position.firstTurn.white, state.position.firstTurn.black],
      dice,
      plays: turns.length,
      trials: phase === 'bearoff' ? 0 : trials,
      candidates,
    };
    appendFileSync(BENCHMARK_FILE, JSON.stringify(record) + '\n');
    console.log(`${id} ${phase} ${dice.join('-')}: ${turns.length} plays, ${candidates.length} rolled out, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

function equityOf(chooser: LongChooser, k: number): number {
  const v = chooser.valueOf(k);
  // Classic (K0) values: single 1, mars 2.
  return v[0] + v[1] - (1 - v[0]) - v[3];
}

/** Rollout (or exact) equity of a candidate for the player who played it, the side to move of `state`. */
function valueOf(
  rules: LongRules,
  net: ReturnType<typeof readLongNet>,
  state: LongState,
  turn: LongTurn,
  phase: Phase,
  trials: number,
  seed: number,
): { board: string; equity: number; se: number } {
  const board = boardText(turn.board);
  // Both values are for the side to move after the play: the opponent, or the
  // mover himself when his play bore off the last checker and ended the game
  // (LN-END-1), as LongChooser reads them.
  const sign = turn.state.position.turn === state.position.turn ? 1 : -1;
  if (phase === 'bearoff' || winnerOf(turn.state) !== null) {
    // Both sides home: the race evaluator is exact (one-sided database); a finished game is its result.
    const p = net.evaluate(turn.state.position.board);
    return { board, equity: round(sign * (p.win + p.winMars - (1 - p.win) - p.loseMars)), se: 0 };
  }
  const r = rollout({ family: 'long', rules, state: turn.state }, net, { trials, seed, settleRaces: phase !== 'race' });
  return { board, equity: sign * round(r.equity), se: round(r.equityStandardError) };
}

function round(x: number): number {
  return Math.round(x * 1e5) / 1e5;
}

if (require.main === module) main();
