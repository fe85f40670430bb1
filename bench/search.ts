import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { Dice } from '../src/engine/dice';
import { winnerOf } from '../src/engine/long/game';
import { CLASSIC } from '../src/engine/long/rules';
import { LongState } from '../src/engine/long/turn';
import { SeededRandom } from '../src/engine/random';
import { flipBoard } from '../src/engine/short/board';
import { ShortPosition, initialShortPosition } from '../src/engine/short/position';
import { SHORT_STANDARD } from '../src/engine/short/rules';
import { legalShortTurns } from '../src/engine/short/turn';
import { LongSearch } from '../src/eval/long/search';
import { NeuralEvaluator } from '../src/eval/neural/evaluator';
import { isShortRace } from '../src/eval/race';
import { STANDARD_VALUES, longOutcomeValues } from '../src/eval/equity';
import { PrunedEvaluator, PruningFilter } from '../src/eval/prune';
import { NetworkKernel } from '../src/eval/neural/network';
import { bestTurnSettings, searchSettings } from '../src/eval/search-options';
import { ShortSearch } from '../src/eval/short/search';
import { net } from './nets';
import { Agreement, ReplyNode, benchFilter, pruned, replyAgreement } from './prune';
import { loadShortCorpus } from './short-movegen';
import { cpuMs, load, longGames, quantile, shortBenchPositions } from './search-positions';

/**
 * Search speed side by side with GNU Backgammon, in one run (docs/benchmarks.md
 * "Search speed"):
 *
 * - network evaluations/s on one core, full sums against the incremental
 *   forward pass, on game positions and on the plays of one roll in a row,
 *   and gnubg's `calibrate` (static evaluations/s);
 * - best turn at 1 and 2 plies, CPU time per position, on the same
 *   backgammon positions for us and for gnubg's `hint` (bench/gnubg-hint.py);
 * - both kernels of the network (network.ts `kernel`): the JavaScript
 *   loops and the WebAssembly SIMD kernel, evaluations/s and pruned best
 *   turns;
 * - the same searches as before this pass: incremental first layer off and
 *   no transposition cache (the answers are the same);
 * - long nardy best turn at 1 and 2 plies, now and before (no gnubg there);
 * - reply pruning (src/eval/prune.ts): searches with the pruning network
 *   against full width (every reply scored by the full network) — time,
 *   best turns that change, and how often each roll's pruned reply is the
 *   full-width one under several filters.
 *
 *   npx tsx bench/search.ts
 *   BENCH_POSITIONS=200 BENCH_POSITIONS_2PLY=40 BENCH_GNUBG=0 npx tsx bench/search.ts
 *   BENCH_BEFORE=0 npx tsx bench/search.ts     # without the "before" searches
 *
 * The machine is shared: read the ratios of one run, with the load average
 * printed next to them. Benchmarks measure; they never pass or fail.
 */
const GNUBG = '/usr/games/gnubg';

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

interface Spread {
  median: number;
  p90: number;
  mean: number;
}

function spread(times: readonly number[]): Spread {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    mean: sorted.reduce((s, x) => s + x, 0) / sorted.length,
  };
}

function show(label: string, s: Spread, n: number): void {
  console.log(
    `${label.padEnd(46)}: median ${fmt(s.median, 2)} ms, p90 ${fmt(s.p90, 2)} ms, mean ${fmt(s.mean, 2)} ms CPU (${n} positions)`,
  );
}

/** Evaluations per CPU second of `evaluator` over `boards`, repeated for about `ms`. */
function evaluationRate(evaluator: NeuralEvaluator, boards: readonly Int8Array[], incremental: boolean, ms = 1500): number {
  const out = new Float64Array(5);
  evaluator.contact.incremental = incremental;
  for (const b of boards) evaluator.evaluateInto(b, out, 0);
  let calls = 0;
  let spent = 0;
  while (spent < ms) {
    spent += cpuMs(() => {
      for (const b of boards) evaluator.evaluateInto(b, out, 0);
    });
    calls += boards.length;
  }
  evaluator.contact.incremental = true;
  return (calls / spent) * 1000;
}

/** Both networks of an evaluator (the full one, and the pruning one if attached) on `kernel`. */
function setKernel(evaluator: NeuralEvaluator | PrunedEvaluator, kernel: NetworkKernel): void {
  evaluator.contact.kernel = kernel;
  if ('pruning' in evaluator) evaluator.pruning.network.network.kernel = kernel;
}

/** Contact positions of seeded random games, and the positions after every play of their rolls, in order. */
function shortGames(count: number): { positions: Int8Array[]; plays: Int8Array[] } {
  const random = new SeededRandom(23);
  const positions: Int8Array[] = [];
  const plays: Int8Array[] = [];
  let position: ShortPosition = initialShortPosition('white');
  while (positions.length < count) {
    const answer = legalShortTurns(SHORT_STANDARD, position, random.dice());
    if (!answer.ok) throw new Error(answer.error.message);
    for (const t of answer.value.turns) if (!t.gameOver && !isShortRace(t.position.board)) plays.push(t.position.board);
    const turn = random.pick(answer.value.turns);
    if (turn.gameOver || isShortRace(turn.position.board)) position = initialShortPosition('white');
    else {
      position = turn.position;
      positions.push(turn.position.board);
    }
  }
  return { positions, plays };
}

/**
 * gnubg's `calibrate` (static evaluations per second, one thread). gnubg
 * reports wall-clock evaluations/s; on a busy machine that undercounts, so
 * the CPU figure scales it by the process's wall ÷ CPU time (startup
 * included, which makes it a slight underestimate of gnubg's pace).
 */
function gnubgCalibrate(): { wall: number; cpu: number } | null {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gnubg-'));
  try {
    const file = join(dir, 'calibrate.txt');
    writeFileSync(file, 'set threads 1\ncalibrate 200\n');
    const t0 = Date.now();
    // bash's `times` prints the CPU time of its children on its second line.
    const out = execFileSync('bash', ['-c', `${GNUBG} -t -q -r -c ${file}; times`], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    const wall = (Date.now() - t0) / 1000;
    const m = /Calibration result: ([\d.]+) static evaluations\/second/.exec(out);
    const t = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(out.trim());
    if (!m || !t) return null;
    const cpu = Number(t[1]) * 60 + Number(t[2]) + Number(t[3]) * 60 + Number(t[4]);
    return { wall: Number(m[1]), cpu: (Number(m[1]) * wall) / cpu };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** gnubg's `hint` CPU ms per position at each of `plies` (bench/gnubg-hint.py). */
function gnubgHint(cases: { positionId: string; dice: Dice }[], plies: number[]): Record<string, number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gnubg-'));
  try {
    const input = join(dir, 'cases.json');
    const output = join(dir, 'out.json');
    writeFileSync(input, JSON.stringify(cases));
    const script = [resolve(__dirname, 'gnubg-hint.py'), resolve(__dirname, '../../bench/gnubg-hint.py')].find(existsSync);
    if (!script) throw new Error('bench/gnubg-hint.py not found');
    execFileSync(GNUBG, ['-t', '-q', '-r', '-p', script], {
      env: { ...process.env, HINT_CASES: input, HINT_OUT: output, HINT_PLIES: plies.join(',') },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 3_600_000,
    });
    return JSON.parse(readFileSync(output, 'utf8')) as Record<string, number[]>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The best turn's board of a ranking, as a string (to compare answers). */
function bestOf(ranked: readonly { board: Int8Array }[]): string {
  return ranked[0].board.join(',');
}

/** The filters the reply-agreement count compares (the default among them). */
function agreementFilters(): PruningFilter[] {
  const filters: PruningFilter[] = [
    { keep: 1, window: 0 },
    { keep: 3, window: 0.1 },
    { keep: 5, window: 0.2 },
    { keep: 8, window: 0.3 },
  ];
  const d = benchFilter();
  if (!filters.some((f) => f.keep === d.keep && f.window === d.window)) filters.push(d);
  return filters;
}

function showAgreement(label: string, rows: readonly Agreement[]): void {
  console.log(`${label}: ${rows[0].choices} reply choices, ${fmt(rows[0].plays, 1)} plays each`);
  for (const r of rows) {
    console.log(
      `  keep ${r.filter.keep} within ${r.filter.window}: same choice ${fmt((100 * r.same) / r.choices, 2)} %, ` +
        `equity given up mean ${r.meanLoss.toFixed(5)} max ${r.maxLoss.toFixed(3)}, ${fmt(r.passed, 2)} plays to the full network`,
    );
  }
}

function main(): void {
  const positions = Number(process.env.BENCH_POSITIONS ?? 200);
  const positions2 = Number(process.env.BENCH_POSITIONS_2PLY ?? positions);
  const withGnubg = process.env.BENCH_GNUBG !== '0' && existsSync(GNUBG);
  console.log(`node ${process.version}, one thread, CPU time; load average ${load()}`);
  if (!withGnubg) console.log('gnubg: skipped (needs /usr/games/gnubg: apt-get install -y gnubg; BENCH_GNUBG=0 skips)');

  console.log('\n== network evaluations per CPU second (evaluator.evaluateInto, contact positions)');
  const short = net('backgammon');
  const long = net('long');
  const shortSet = shortGames(400);
  const longSet = longGames(400);
  for (const [label, evaluator, games, plays] of [
    ['backgammon', short, shortSet.positions, shortSet.plays.slice(0, 4000)],
    ['long', long, longSet.states.map((s) => s.state.position.board), longSet.plays.slice(0, 4000)],
  ] as const) {
    const p = evaluator.contact;
    console.log(`${label} (${p.inputs} × ${p.hidden} × 5):`);
    // The JavaScript loops first (before the WebAssembly kernel), then the default kernel.
    let gamesRate = 0;
    let playsRate = 0;
    for (const kernel of ['js', 'wasm'] as const) {
      p.kernel = kernel;
      const full = evaluationRate(evaluator, games, false);
      gamesRate = evaluationRate(evaluator, games, true);
      const fullPlays = evaluationRate(evaluator, plays, false);
      playsRate = evaluationRate(evaluator, plays, true);
      const k = kernel.padEnd(4);
      console.log(`  ${k} game positions, incremental off  : ${fmt(full)} /s`);
      console.log(`  ${k} game positions, incremental      : ${fmt(gamesRate)} /s (${fmt(gamesRate / full, 2)}×)`);
      console.log(`  ${k} plays of one roll, incremental off: ${fmt(fullPlays)} /s`);
      console.log(`  ${k} plays of one roll, incremental   : ${fmt(playsRate)} /s (${fmt(playsRate / fullPlays, 2)}×)`);
    }
    if (label === 'backgammon' && withGnubg) {
      const calibrate = gnubgCalibrate();
      if (calibrate !== null) {
        console.log(`  gnubg calibrate, as it reports   : ${fmt(calibrate.wall)} /s (wall clock)`);
        console.log(
          `  gnubg calibrate, per CPU second  : ${fmt(calibrate.cpu)} /s (ours (wasm) ÷ gnubg: ${fmt(gamesRate / calibrate.cpu, 2)} game positions, ${fmt(playsRate / calibrate.cpu, 2)} plays of one roll)`,
        );
      }
    }
  }

  console.log(`\n== backgammon best turn (gnubg oracle positions with contact and a choice), load ${load()}`);
  const corpus = loadShortCorpus();
  const chosen = shortBenchPositions(corpus, short, positions);
  // Now: replies pruned by the pruning network (the service's default); full width: every reply scored by the full network.
  const filter = benchFilter();
  const prunedShort = pruned(short, 'backgammon', filter);
  const search = new ShortSearch(prunedShort);
  const wide = new ShortSearch(short);
  console.log(`reply pruning: keep ${filter.keep} within ${filter.window}`);
  const ours: Record<number, number[]> = {};
  const evaluations: Record<number, number> = {};
  // One untimed pass at 1 ply first, so that the figures are of compiled code (in a service, every search after the first few).
  for (const i of chosen) {
    search.rankTurns(corpus.boards[i], corpus.dice[i], bestTurnSettings('short', 1));
    wide.rankTurns(corpus.boards[i], corpus.dice[i], bestTurnSettings('short', 1));
  }
  for (const [plies, count] of [
    [1, positions],
    [2, positions2],
  ] as const) {
    const times: number[] = [];
    const wideTimes: number[] = [];
    let changed = 0;
    search.evaluations = 0;
    wide.evaluations = 0;
    const settings = bestTurnSettings('short', plies);
    for (const i of chosen.slice(0, count)) {
      let a = '';
      let b = '';
      times.push(cpuMs(() => (a = bestOf(search.rankTurns(corpus.boards[i], corpus.dice[i], settings)))));
      wideTimes.push(cpuMs(() => (b = bestOf(wide.rankTurns(corpus.boards[i], corpus.dice[i], settings)))));
      if (a !== b) changed++;
    }
    ours[plies] = times;
    evaluations[plies] = search.evaluations / times.length;
    show(`ours, ${plies} ply`, spread(times), times.length);
    console.log(`${''.padEnd(46)}  ${fmt(evaluations[plies])} evaluations per position`);
    show(`ours, ${plies} ply, full width (no pruning)`, spread(wideTimes), wideTimes.length);
    console.log(`${''.padEnd(46)}  ${fmt(wide.evaluations / wideTimes.length)} evaluations per position`);
    console.log(`best turn changed by pruning, ${plies} ply         : ${changed} of ${times.length}`);
    // The same pruned searches on the JavaScript loops (the answers are the same).
    setKernel(prunedShort, 'js');
    const jsTimes = chosen.slice(0, count).map((i) => cpuMs(() => search.rankTurns(corpus.boards[i], corpus.dice[i], settings)));
    setKernel(prunedShort, 'wasm');
    show(`ours, ${plies} ply, JavaScript kernel`, spread(jsTimes), jsTimes.length);
  }
  // The search as it was before this work: full sums, no transposition cache, full width (BENCH_BEFORE=0 skips it).
  const before = process.env.BENCH_BEFORE !== '0';
  short.contact.incremental = false;
  wide.transpositions.fromPlies = Infinity;
  for (const [plies, count] of [
    [1, positions],
    [2, positions2],
  ] as const) {
    if (!before) continue;
    const times = chosen.slice(0, count).map((i) => cpuMs(() => wide.rankTurns(corpus.boards[i], corpus.dice[i], searchSettings(plies))));
    show(`ours, ${plies} ply, incremental off, no cache (before)`, spread(times), times.length);
  }
  short.contact.incremental = true;
  wide.transpositions.fromPlies = 2;
  const within = ours[2].filter((t) => t <= 2000).length;
  console.log(`ours, 2 ply within 2 s of CPU                : ${within} of ${ours[2].length}`);
  if (withGnubg) {
    const cases = chosen.slice(0, positions).map((i) => ({ positionId: corpus.positionIds[i], dice: corpus.dice[i] }));
    const hint1 = gnubgHint(cases, [1])['1'];
    const hint2 = gnubgHint(cases.slice(0, positions2), [2])['2'];
    show('gnubg hint, 1 ply (cubeless, pruning on)', spread(hint1), hint1.length);
    show('gnubg hint, 2 ply (cubeless, pruning on)', spread(hint2), hint2.length);
    const a = spread(ours[1]);
    const b = spread(ours[2]);
    const g1 = spread(hint1);
    const g2 = spread(hint2);
    console.log(`ours ÷ gnubg, median CPU                      : 1 ply ${fmt(a.median / g1.median, 1)}×, 2 ply ${fmt(b.median / g2.median, 1)}×`);
    console.log(`load average after                           : ${load()}`);
  }

  console.log(`\n== long nardy best turn (classic, seeded random games), load ${load()}`);
  const longSearch = new LongSearch(CLASSIC, pruned(long, 'long', filter));
  const longWide = new LongSearch(CLASSIC, long);
  // One untimed pass at 1 ply first (compiled code, as for backgammon).
  for (const s of longSet.states.slice(0, positions)) {
    longSearch.rankTurns(s.state, s.dice, bestTurnSettings('long', 1));
    longWide.rankTurns(s.state, s.dice, bestTurnSettings('long', 1));
  }
  for (const [plies, count] of [
    [1, positions],
    [2, positions2],
  ] as const) {
    const settings = bestTurnSettings('long', plies);
    const rank = (s: LongSearch, state: LongState, dice: Dice): string => {
      const r = s.rankTurns(state, dice, settings);
      if (!r.ok) throw new Error(r.error.message);
      return bestOf(r.value);
    };
    const states = longSet.states.slice(0, count);
    const answers: string[] = [];
    show(`ours, ${plies} ply`, spread(states.map((s) => cpuMs(() => answers.push(rank(longSearch, s.state, s.dice))))), states.length);
    const wideAnswers: string[] = [];
    show(`ours, ${plies} ply, full width (the service's)`, spread(states.map((s) => cpuMs(() => wideAnswers.push(rank(longWide, s.state, s.dice))))), states.length);
    console.log(`best turn changed by pruning, ${plies} ply         : ${answers.filter((a, i) => a !== wideAnswers[i]).length} of ${states.length}`);
    if (!before) continue;
    long.contact.incremental = false;
    longWide.transpositions.fromPlies = Infinity;
    show(`ours, ${plies} ply, incremental off, no cache (before)`, spread(states.map((s) => cpuMs(() => rank(longWide, s.state, s.dice)))), states.length);
    long.contact.incremental = true;
    longWide.transpositions.fromPlies = 2;
  }

  console.log(`\n== reply pruning: the pruned choice of each roll's reply against full width, load ${load()}`);
  // The replies a 1-ply search chooses: to the 4 best plays (0 ply) of each benchmark position.
  const shortNodes: ReplyNode[] = [];
  for (const i of chosen.slice(0, positions)) {
    for (const t of wide.rankTurns(corpus.boards[i], corpus.dice[i], searchSettings(0)).slice(0, 4)) {
      if (t.board[0] === 15) continue;
      shortNodes.push({ family: 'short', board: flipBoard(t.board) });
    }
  }
  showAgreement('backgammon', replyAgreement(short, 'backgammon', shortNodes, STANDARD_VALUES, agreementFilters()));
  const longNodes: ReplyNode[] = [];
  for (const s of longSet.states.slice(0, positions)) {
    const r = longWide.rankTurns(s.state, s.dice, searchSettings(0));
    if (!r.ok) throw new Error(r.error.message);
    for (const t of r.value.slice(0, 4)) if (t.state.pending.length === 0 && !winnerOf(t.state)) longNodes.push({ family: 'long', state: t.state });
  }
  showAgreement('long nardy', replyAgreement(long, 'long', longNodes, longOutcomeValues(CLASSIC), agreementFilters()));
}

main();
