import { createInterface } from 'readline';
import { createShortEvaluator } from '../../src/eval/short/evaluator';
import { ShortSearch } from '../../src/eval/short/search';
import { searchSettings } from '../../src/eval/search-options';
import { readBearoffDatabase } from './data';
import { SignedBoard, shortBoardOf } from './gnubg-cases';

/**
 * Our backgammon bot for the oracle's play_vs_gnubg.py: a long-lived
 * process speaking its JSON-lines protocol (README "Bot protocol") on
 * stdin/stdout.
 *
 *   node_modules/.bin/tsx scripts/eval/gnubg-bot.ts [--plies 0|1|2]
 *
 * Moves: the best turn of `ShortSearch.rankTurns` at the given plies.
 * Cube (only with the harness's --cube): no doubles, always takes (play is
 * cubeless for the strength target).
 */
function main(): void {
  const pliesIndex = process.argv.indexOf('--plies');
  const plies = pliesIndex >= 0 ? Number(process.argv[pliesIndex + 1]) : 0;
  const evaluator = createShortEvaluator({ database: () => readBearoffDatabase('standard') });
  const search = new ShortSearch(evaluator);
  const settings = searchSettings(plies);
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    const request = JSON.parse(line) as { type: string; board: SignedBoard; dice: [number, number] };
    let answer: object = {};
    if (request.type === 'move') {
      const board = shortBoardOf(request.board);
      const ranked = search.rankTurns(board, request.dice, settings);
      answer = { steps: ranked[0].steps.map((s) => [s.from, s.to]) };
    } else if (request.type === 'double') {
      answer = { double: false };
    } else if (request.type === 'take') {
      answer = { take: true };
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  });
}

main();
