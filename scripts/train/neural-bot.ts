import { createInterface } from 'readline';
import { ShortSearch } from '../../src/eval/short/search';
import { bestTurnSettings } from '../../src/eval/search-options';
import { SignedBoard, shortBoardOf } from '../eval/gnubg-cases';
import { DEFAULT_NET, asServed, readShortNet } from './nets';

/**
 * The neural backgammon bot for the oracle's play_vs_gnubg.py (README "Bot
 * protocol": JSON lines on stdin/stdout):
 *
 *   node_modules/.bin/tsx scripts/train/neural-bot.ts [--plies 0|1|2] [--net backgammon] [--prune off]
 *
 * Moves: the best turn of `ShortSearch.rankTurns` over the neural evaluator
 * at the given plies, searched as the service searches (reply pruning per
 * `PRUNING_DEFAULTS`; `--prune off`: every reply scored by the full network). Cube (only with --cube): never doubles, always takes —
 * the strength targets are cubeless.
 */
function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function main(): void {
  const plies = Number(option('plies', '0'));
  const name = option('net', DEFAULT_NET.short);
  const evaluator = readShortNet(name);
  const search = new ShortSearch(option('prune', 'on') === 'off' ? evaluator : asServed(evaluator, name));
  const settings = bestTurnSettings('short', plies);
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (!line.trim()) return;
    const request = JSON.parse(line) as { type: string; board: SignedBoard; dice: [number, number] };
    let answer: object = {};
    if (request.type === 'move') {
      const ranked = search.rankTurns(shortBoardOf(request.board), request.dice, settings);
      answer = { steps: ranked[0].steps.map((s) => [s.from, s.to]) };
    } else if (request.type === 'double') answer = { double: false };
    else if (request.type === 'take') answer = { take: true };
    process.stdout.write(JSON.stringify(answer) + '\n');
  });
}

main();
