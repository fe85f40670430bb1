import { spawn } from 'child_process';
import { join } from 'path';
import { GameRecord, botOf, playPairedGame, presetRules, summarise } from './long-match';
import { ORACLE_DIR } from './gnubg-cases';

/**
 * Strength instrument (docs/strength.md).
 *
 * Backgammon against gnubg (through the oracle's play_vs_gnubg.py; our bot is
 * scripts/eval/gnubg-bot.ts, a node subprocess speaking its JSON lines):
 *
 *   npx tsx scripts/eval/strength.ts --vs gnubg --games 1000 [--plies 1] [--workers 4] [--seed 1] [--gnubg-plies 0]
 *
 * Long family, two of our bots against each other with paired dice (games
 * 2k and 2k+1 share a dice stream with the seats swapped):
 *
 *   npx tsx scripts/eval/strength.ts --long --a heuristic@1 --b greedy [--preset long] --games 1000 [--workers 2] [--seed 1]
 *
 * Bots: `greedy` (pip-count greedy), `random`, `heuristic@P` (our evaluator
 * at P plies), `pips@P` (a pip-race evaluator at P plies). Prints ppg for
 * the first bot ± its standard error over pairs.
 */
function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function numberOption(name: string, fallback: number): number {
  const v = option(name);
  return v === undefined ? fallback : Number(v);
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
}

async function versusGnubg(): Promise<void> {
  const games = numberOption('games', 200);
  const plies = numberOption('plies', 0);
  const workers = numberOption('workers', 4);
  const seed = numberOption('seed', 1);
  const gnubgPlies = numberOption('gnubg-plies', 0);
  const tsx = join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
  const bot = `${tsx} ${join(__dirname, 'gnubg-bot.ts')} --plies ${plies}`;
  const args = [
    join(ORACLE_DIR, 'play_vs_gnubg.py'),
    '--bot',
    bot,
    '--games',
    String(games),
    '--plies',
    String(gnubgPlies),
    '--workers',
    String(workers),
    '--seed',
    String(seed),
    '--quiet',
  ];
  const started = Date.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('python3', args, { cwd: ORACLE_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`play_vs_gnubg.py exited with ${code}`))));
  });
  const summary = JSON.parse(output) as { ppg: number; stderr: number; stderrPairs: number | null; botWins: number; games: number; illegal: number };
  console.log(output.trim());
  console.log(
    `\nours @${plies} ply vs gnubg @${gnubgPlies} ply, ${summary.games} games (paired dice, seed ${seed}): ` +
      `${signed(summary.ppg)} ppg ± ${(summary.stderrPairs ?? summary.stderr).toFixed(3)} (s.e. over pairs), ` +
      `won ${summary.botWins}, illegal ${summary.illegal}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

/** Runs games [from, to) of a long match in this process. */
function longSlice(preset: string, a: string, b: string, seed: number, from: number, to: number): GameRecord[] {
  const rules = presetRules(preset);
  const botA = botOf(a, rules, seed * 2 + 1);
  const botB = botOf(b, rules, seed * 2 + 2);
  const records: GameRecord[] = [];
  for (let g = from; g < to; g++) records.push(playPairedGame(rules, botA, botB, seed, g));
  return records;
}

async function longMatch(): Promise<void> {
  const preset = option('preset') ?? 'long';
  const a = option('a') ?? 'heuristic@0';
  const b = option('b') ?? 'greedy';
  const games = numberOption('games', 200);
  const seed = numberOption('seed', 1);
  const slice = option('slice');
  if (slice) {
    // Worker mode: play a range of games and print the records as JSON.
    const [from, to] = slice.split(':').map(Number);
    process.stdout.write(JSON.stringify(longSlice(preset, a, b, seed, from, to)));
    return;
  }
  const workers = Math.max(1, numberOption('workers', 2));
  const started = Date.now();
  // Whole pairs per worker keep the paired standard error exact.
  const pairs = Math.ceil(games / 2);
  const per = Math.ceil(pairs / workers);
  const jobs: Promise<GameRecord[]>[] = [];
  const tsx = join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
  for (let w = 0; w < workers; w++) {
    const from = Math.min(games, 2 * w * per);
    const to = Math.min(games, 2 * (w + 1) * per);
    if (from >= to) continue;
    const args = [__filename, '--long', '--preset', preset, '--a', a, '--b', b, '--seed', String(seed), '--slice', `${from}:${to}`];
    jobs.push(
      new Promise((resolve, reject) => {
        const child = spawn(tsx, args, { stdio: ['ignore', 'pipe', 'inherit'] });
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(JSON.parse(text) as GameRecord[]) : reject(new Error(`worker exited with ${code}`))));
      }),
    );
  }
  const records = (await Promise.all(jobs)).flat().sort((x, y) => x.game - y.game);
  const s = summarise(records);
  const seconds = (Date.now() - started) / 1000;
  console.log(JSON.stringify({ preset, a, b, seed, ...s, seconds: Math.round(seconds) }, null, 2));
  console.log(
    `\n${a} vs ${b}, ${preset}, ${s.games} games (paired dice, seed ${seed}): ${signed(s.ppg)} ppg ± ${s.stderrPairs.toFixed(3)} ` +
      `(s.e. over pairs; ± ${s.stderr.toFixed(3)} over games), ${a} won ${s.aWins} (${s.aMars} by mars), lost ${s.games - s.aWins - s.unfinished} (${s.bMars} by mars), ${seconds.toFixed(0)} s`,
  );
}

async function main(): Promise<void> {
  if (process.argv.includes('--long')) await longMatch();
  else if (option('vs') === 'gnubg') await versusGnubg();
  else {
    console.error('usage: strength.ts --vs gnubg --games N [--plies P] | --long --a BOT --b BOT [--preset P] --games N');
    process.exitCode = 2;
  }
}

void main();
