import { cubelessEquity } from '../../src/eval/equity';
import { createLongEvaluator, longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { Probabilities } from '../../src/eval/probabilities';
import { ShortSearch } from '../../src/eval/short/search';
import { readBearoffDatabase } from '../eval/data';
import { probabilitiesOfArray, readEvalCases, shortBoardOf } from '../eval/gnubg-cases';
import { gnubgBotCommand, playVersusGnubg } from '../eval/gnubg-match';
import { GameRecord, LongBot, evaluatorBot, playPairedGame, presetRules, summarise } from '../../src/eval/long/self-play';
import { botOf, playInWorkers } from '../eval/long-match';
import { LongRules } from '../../src/engine/long/rules';
import { DEFAULT_NET, readShortNet } from './nets';

/**
 * Strength and accuracy of the neural evaluators (docs/neural.md).
 *
 * Backgammon against gnubg (cubeless, paired dice; the oracle's
 * play_vs_gnubg.py with scripts/train/neural-bot.ts):
 *   npx tsx scripts/train/measure.ts gnubg --games 2000 [--plies 0] [--gnubg-plies 0] [--workers 8] [--seed 1] [--net backgammon]
 *
 * Equity error against gnubg on the oracle's cases-eval.jsonl (300 positions):
 *   npx tsx scripts/train/measure.ts eval-error [--plies 0] [--vs 2] [--net backgammon]
 *
 * Long family, paired games between bots (`net@P`, `heuristic@P`, optionally `net:<file>@P`):
 *   npx tsx scripts/train/measure.ts long --a net@0 --b heuristic@0 [--preset long] --games 2000 [--workers 2] [--seed 1]
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
  const seed = numberOption('seed', 1);
  const gnubgPlies = numberOption('gnubg-plies', 0);
  const net = option('net') ?? DEFAULT_NET.short;
  const started = Date.now();
  const { summary: s, output } = await playVersusGnubg({
    bot: gnubgBotCommand('net', plies, net),
    games,
    gnubgPlies,
    workers: numberOption('workers', 8),
    seed,
  });
  console.log(output);
  console.log(
    `\nneural (${net}) @${plies} ply vs gnubg @${gnubgPlies} ply, ${s.games} games (paired dice, seed ${seed}): ${signed(s.ppg)} ppg ± ${(s.stderrPairs ?? s.stderr).toFixed(3)} ` +
      `(s.e. over pairs), won ${s.botWins}, illegal ${s.illegal}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

function evalError(): void {
  const plies = numberOption('plies', 0);
  const vs = numberOption('vs', 2);
  const evaluator = readShortNet(option('net') ?? DEFAULT_NET.short);
  const search = new ShortSearch(evaluator);
  const rows: { positionClass: string; win: number; equity: number }[] = [];
  for (const c of readEvalCases()) {
    const board = shortBoardOf(c.board);
    const ours: Probabilities = plies === 0 ? evaluator.evaluate(board) : search.evaluate(board, plies);
    const ref = c.evaluations.find((e) => e.plies === vs);
    if (!ref) throw new Error(`case ${c.id} has no ${vs}-ply evaluation`);
    const theirs = probabilitiesOfArray(ref.probs);
    rows.push({
      positionClass: c.positionClass,
      win: Math.abs(ours.win - theirs.win),
      equity: Math.abs(cubelessEquity(ours) - ref.cubelessMoneyEquity),
    });
  }
  console.log(
    `ours: ${evaluator.name} ${evaluator.version} at ${plies} ply; gnubg at ${vs} ply; ${rows.length} cases (cubeless money equity)`,
  );
  console.log('class           n   MAE win  MAE equity');
  for (const name of ['all', 'contact', 'crashed', 'race', 'bearoff1', 'bearoff2']) {
    const list = name === 'all' ? rows : rows.filter((r) => r.positionClass === name);
    if (list.length === 0) continue;
    const mean = (f: (r: (typeof rows)[number]) => number): number =>
      list.reduce((s, r) => s + f(r), 0) / list.length;
    console.log(
      `${name.padEnd(15)} ${String(list.length).padStart(3)}  ${mean((r) => r.win).toFixed(4)}   ${mean((r) => r.equity).toFixed(4)}`,
    );
  }
}

/**
 * `net@P`, `net:<name>@P` (a file under data/nets) as in the strength
 * instrument's `botOf`; `heuristic@P` (v1) here through `evaluatorBot`, the
 * training scripts' bot (the 0-ply choice without a search on one-stage rules).
 */
function longBot(spec: string, rules: LongRules): LongBot {
  const m = /^heuristic@([0-2])$/.exec(spec);
  if (m) {
    const evaluator = createLongEvaluator({
      rules,
      database: () => readBearoffDatabase(longBearoffRuleSet(rules)),
    });
    return evaluatorBot(rules, evaluator, Number(m[1]), 'heuristic');
  }
  if (!/^net(?::[\w./-]+)?@[0-2]$/.test(spec))
    throw new Error(`unknown bot ${spec}: net@P | net:<name>@P | heuristic@P`);
  return botOf(spec, rules, 0);
}

async function longMatch(): Promise<void> {
  const preset = option('preset') ?? 'long';
  const a = option('a') ?? 'net@0';
  const b = option('b') ?? 'heuristic@0';
  const games = numberOption('games', 200);
  const seed = numberOption('seed', 1);
  const slice = option('slice');
  if (slice) {
    const [from, to] = slice.split(':').map(Number);
    const rules = presetRules(preset);
    const botA = longBot(a, rules);
    const botB = longBot(b, rules);
    const records: GameRecord[] = [];
    for (let g = from; g < to; g++) records.push(playPairedGame(rules, botA, botB, seed, g));
    process.stdout.write(JSON.stringify(records));
    return;
  }
  const workers = Math.max(1, numberOption('workers', 2));
  const started = Date.now();
  const args = ['long', '--preset', preset, '--a', a, '--b', b, '--seed', String(seed)];
  const records = await playInWorkers(__filename, args, games, workers);
  const s = summarise(records);
  const seconds = (Date.now() - started) / 1000;
  console.log(JSON.stringify({ preset, a, b, seed, ...s, seconds: Math.round(seconds) }));
  console.log(
    `${a} vs ${b}, ${preset}, ${s.games} games (paired dice, seed ${seed}): ${signed(s.ppg)} ppg ± ${s.stderrPairs.toFixed(3)} (s.e. over pairs), ` +
      `${a} won ${s.aWins} (${s.aMars} by mars), lost ${s.games - s.aWins - s.unfinished} (${s.bMars} by mars), ${seconds.toFixed(0)} s`,
  );
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'gnubg') await versusGnubg();
  else if (command === 'eval-error') evalError();
  else if (command === 'long') await longMatch();
  else {
    console.error('usage: measure.ts gnubg | eval-error | long [options] (see the file header)');
    process.exitCode = 2;
  }
}

void main();
