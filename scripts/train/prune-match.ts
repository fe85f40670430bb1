import { SearchSettings, searchSettings } from '../../src/eval/search-options';
import { loadPruningNetwork } from '../../src/eval/neural/pruning';
import { PRUNING_FILTER, withPruning } from '../../src/eval/prune';
import { ShortSearch } from '../../src/eval/short/search';
import { readNetFiles, readShortNet } from './nets';
import { ShortPlayer, playShortPairedGame } from '../../src/eval/short/self-play';

/**
 * Strength of reply pruning (src/eval/prune.ts): paired backgammon games,
 * cubeless, between the committed network searched with pruning (A) and
 * the same network searched full width (B), both at --plies. Games 2k and
 * 2k+1 share one dice stream with the seats swapped, so the pairs cancel
 * the luck and what is left is the pruned choices that differ.
 *
 *   npx tsx scripts/train/prune-match.ts [--games 400] [--plies 1] [--seed 1] [--from 0]
 *
 * Prints A's points per game ± the standard error over pairs.
 */
function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** A player choosing by `ShortSearch.rankTurns` at `settings`. */
class SearchPlayer extends ShortPlayer {
  private board = new Int8Array(28);
  private dice: [number, number] = [1, 1];

  constructor(
    private readonly search: ShortSearch,
    private readonly settings: SearchSettings,
  ) {
    super(search.evaluator);
  }

  override solve(board: Int8Array, d1: number, d2: number): number {
    this.board = board.slice();
    this.dice = [d1, d2];
    return super.solve(board, d1, d2);
  }

  override best(n: number): number {
    if (n === 1) return 0;
    const chosen = this.search.rankTurns(this.board, this.dice, this.settings)[0].board;
    for (let k = 0; k < n; k++) if (this.result(k).every((v, i) => v === chosen[i])) return k;
    throw new Error('the search chose a play the move generator does not list');
  }
}

function main(): void {
  const games = option('games', 400);
  const plies = option('plies', 1);
  const seed = option('seed', 1);
  const from = option('from', 0);
  const full = readShortNet();
  const { bytes, manifest } = readNetFiles('backgammon-prune');
  const network = loadPruningNetwork(bytes, manifest);
  if (!network.ok) throw new Error(network.error.message);
  const pruned = withPruning(full, network.value, PRUNING_FILTER);
  if (!pruned.ok) throw new Error(pruned.error.message);
  const settings = searchSettings(plies);
  const a = new SearchPlayer(new ShortSearch(pruned.value), settings);
  const b = new SearchPlayer(new ShortSearch(full), settings);
  const started = Date.now();
  const pairs: number[] = [];
  let total = 0;
  for (let g = from; g < from + games; g += 2) {
    const pair = playShortPairedGame(a, b, seed, g) + playShortPairedGame(a, b, seed, g + 1);
    pairs.push(pair);
    total += pair;
  }
  const mean = total / pairs.length;
  const variance = pairs.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, pairs.length - 1);
  const stderr = Math.sqrt(variance / pairs.length) / 2;
  console.log(
    `pruned (keep ${PRUNING_FILTER.keep} within ${PRUNING_FILTER.window}) vs full width, ${plies} ply, games ${from}..${from + 2 * pairs.length - 1} ` +
      `(seed ${seed}): ${(mean / 2 >= 0 ? '+' : '') + (mean / 2).toFixed(4)} ppg ± ${stderr.toFixed(4)} (s.e. over ${pairs.length} pairs), ` +
      `pairs not even ${pairs.filter((x) => x !== 0).length}, sum ${total}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

main();
