import { GameRecord, playPairedGame, presetRules, summarise } from '../../src/eval/long/self-play';
import { botOf, playInWorkers } from './long-match';
import { gnubgBotCommand, isGnubgBotKind, playVersusGnubg } from './gnubg-match';

/**
 * Strength instrument (docs/strength.md).
 *
 * Backgammon against gnubg, cubeless, paired dice (through the oracle's
 * play_vs_gnubg.py). `--bot net` (default: the service's default evaluator,
 * scripts/train/neural-bot.ts over data/nets/backgammon or `--net <name>`,
 * searched as the service searches: reply pruning per `PRUNING_DEFAULTS`;
 * `--prune off` scores every reply with the full network)
 * or `--bot heuristic` (the v1 evaluator, scripts/eval/gnubg-bot.ts); both
 * are node subprocesses speaking the harness's JSON lines:
 *
 *   npx tsx scripts/eval/strength.ts --vs gnubg --games 1000 [--bot net|heuristic] [--net backgammon] [--plies 1] [--prune off] [--workers 4] [--seed 1] [--gnubg-plies 0]
 *
 * Long family, two of our bots against each other with paired dice (games
 * 2k and 2k+1 share a dice stream with the seats swapped):
 *
 *   npx tsx scripts/eval/strength.ts --long --a net@0 --b greedy [--preset long] --games 1000 [--workers 2] [--seed 1]
 *
 * Bots: `net@P` (the committed long network at P plies; `net:<name>@P`
 * another one under data/nets), `heuristic@P` (the v1 evaluator), `pips@P`
 * (a pip-race evaluator), `greedy` (pip-count greedy), `random`. Prints ppg
 * for the first bot ± its standard error over pairs.
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
  const kind = option('bot') ?? 'net';
  if (!isGnubgBotKind(kind)) throw new Error(`unknown --bot ${kind}: net | heuristic`);
  const net = option('net');
  const prune = option('prune') === 'off' ? 'off' : 'on';
  const started = Date.now();
  const { summary, output } = await playVersusGnubg({ bot: gnubgBotCommand(kind, plies, net, prune), games, gnubgPlies, workers, seed });
  console.log(output);
  const label = kind === 'net' ? `net (${net ?? 'backgammon'}${prune === 'off' ? ', full width' : ''})` : 'heuristic';
  console.log(
    `\n${label} @${plies} ply vs gnubg @${gnubgPlies} ply, ${summary.games} games (paired dice, seed ${seed}): ` +
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
  const a = option('a') ?? 'net@0';
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
  const args = ['--long', '--preset', preset, '--a', a, '--b', b, '--seed', String(seed)];
  const records = await playInWorkers(__filename, args, games, workers);
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
    console.error('usage: strength.ts --vs gnubg --games N [--bot net|heuristic] [--plies P] | --long --a BOT --b BOT [--preset P] --games N');
    process.exitCode = 2;
  }
}

void main();
