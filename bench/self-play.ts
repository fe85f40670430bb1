import { playPairedGame, pipGreedyBot, presetRules, randomBot } from '../src/eval/long/self-play';
import { ShortPlayer, createPrimerEvaluator, playShortPairedGame, shortTrainingPositions } from '../src/eval/short/self-play';

/**
 * Self-play throughput on the game reducer: backgammon training positions
 * (`shortTrainingPositions`, seed 3, ε 0.2, 3 candidates), backgammon paired
 * games (`playShortPairedGame`, seed 11) and long-nardy paired games
 * (`playPairedGame`, greedy against random, seed 5), each timed (CPU time of
 * the process, less disturbed by other load than wall time, and wall time)
 * as the best and median of a few rounds after a warm-up round. The check
 * is a digest of the output: equal checks, equal seeded output.
 *
 * Run: `npm run bench:self-play -- [positions] [games] [longGames] [rounds]`
 * (defaults 20000, 200, 40, 5).
 */
const [positions = 20000, games = 200, longGames = 40, rounds = 5] = process.argv.slice(2).map(Number);

function trainingPositions(): number {
  let count = 0;
  let check = 0;
  for (const board of shortTrainingPositions(new ShortPlayer(createPrimerEvaluator()), 3, 0.2, 3)) {
    check = (check * 31 + board[1] + 7 * board[24]) >>> 0;
    if (++count === positions) break;
  }
  return check;
}

function shortGames(): number {
  const a = new ShortPlayer(createPrimerEvaluator());
  const b = new ShortPlayer(createPrimerEvaluator());
  let points = 0;
  for (let g = 0; g < games; g++) points = (points * 7 + playShortPairedGame(a, b, 11, g) + 3) >>> 0;
  return points;
}

function longPaired(): number {
  const rules = presetRules('long');
  let stages = 0;
  for (let g = 0; g < longGames; g++) stages += playPairedGame(rules, pipGreedyBot(g), randomBot(g + 100), 5, g).stages;
  return stages;
}

function time(name: string, run: () => number): void {
  const wall: number[] = [];
  const cpu: number[] = [];
  let check = 0;
  for (let r = 0; r <= rounds; r++) {
    const start = process.hrtime.bigint();
    const used = process.cpuUsage();
    check = run();
    const spent = process.cpuUsage(used);
    if (r === 0) continue;
    wall.push(Number(process.hrtime.bigint() - start) / 1e6);
    cpu.push((spent.user + spent.system) / 1000);
  }
  const best = (xs: number[]) => Math.min(...xs).toFixed(0).padStart(6);
  const median = (xs: number[]) => xs.slice().sort((x, y) => x - y)[xs.length >> 1].toFixed(0).padStart(6);
  console.log(`${name.padEnd(34)} CPU best ${best(cpu)} ms median ${median(cpu)} ms | wall best ${best(wall)} ms median ${median(wall)} ms  (check ${check})`);
}

time(`short training positions × ${positions}`, trainingPositions);
time(`short paired games × ${games}`, shortGames);
time(`long paired games × ${longGames}`, longPaired);
