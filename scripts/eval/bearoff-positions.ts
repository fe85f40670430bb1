import { mkdirSync, writeFileSync } from 'fs';
import { dirname } from 'path';
import { Dice } from '../../src/engine/dice';
import { needsDice, newLongGame, winnerOf } from '../../src/engine/long/game';
import { LONG_PRESETS, LongRules } from '../../src/engine/long/rules';
import { legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { flipBoardInto } from '../../src/engine/short/board';
import { initialShortPosition } from '../../src/engine/short/position';
import { LongChooser } from '../train/long-game';
import { readLongNet, readShortNet } from '../train/nets';
import { ShortPlayer } from '../../src/eval/short/self-play';
import { BearoffPositionsFile, COMMITTED_NETS, bearoffAgreement, boardOf, valuesFor } from '../../src/eval/neural/net-checks';
import { isLongBearoff } from '../../src/eval/race';
import { BEAROFF_POSITIONS_FILE } from '../../src/service/analysis/data';
import { numberOption } from './options';

/**
 * Writes data/benchmarks/bearoff-positions.json: for every committed
 * network, bear-off positions (both sides home, so the one-sided database
 * gives the exact answer) from seeded self-play of that network on its own
 * rules at 0 ply with 30 % random plays (for variety). Deterministic:
 *
 *   npx tsx scripts/eval/bearoff-positions.ts [--per-net 120] [--seed 19]
 *
 * Then prints each network's agreement with the exact answers
 * (test/eval/neural/yardstick.test.ts sets its thresholds from these).
 */

/** The same for backgammon boards (bars empty). */
function shortBearoff(board: Int8Array): boolean {
  if (board[0] === 15 || board[27] === 15 || board[25] > 0 || board[26] > 0) return false;
  for (let p = 7; p <= 24; p++) if (board[p] > 0) return false;
  for (let p = 1; p <= 18; p++) if (board[p] < 0) return false;
  return true;
}

/** Collects `count` distinct positions passing `keep`, one in three of those met, from `next` positions. */
function collect(count: number, random: SeededRandom, next: () => Int8Array, keep: (b: Int8Array) => boolean): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let guard = 0; out.length < count && guard < 5_000_000; guard++) {
    const board = next();
    if (!keep(board) || random.below(3) !== 0) continue;
    const text = Array.from(board).join(',');
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(text);
  }
  return out;
}

function longStream(rules: LongRules, name: string, random: SeededRandom): () => Int8Array {
  const chooser = new LongChooser(rules, readLongNet(rules, name));
  let state = newLongGame(rules, 'white');
  return () => {
    for (;;) {
      if (winnerOf(state)) state = newLongGame(rules, 'white');
      const before = state;
      const dice: Dice | undefined = needsDice(state) ? random.dice() : undefined;
      const answer = legalLongTurns(rules, state, dice);
      if (!answer.ok) throw new Error(answer.error.message);
      const turns = answer.value.turns;
      const k = random.next() < 0.3 ? random.below(turns.length) : chooser.best(state, turns);
      state = turns[k].state;
      if (before.pending.length === 0 && dice !== undefined) return before.position.board.slice();
    }
  };
}

function shortStream(random: SeededRandom): () => Int8Array {
  const player = new ShortPlayer(readShortNet());
  let board: Int8Array = initialShortPosition('white').board.slice();
  return () => {
    const before = board.slice();
    const n = player.solve(board, random.die(), random.die());
    const chosen = player.result(random.next() < 0.3 ? random.below(n) : player.best(n));
    if (chosen[0] === 15) board = initialShortPosition('white').board.slice();
    else {
      flipBoardInto(chosen, board);
    }
    return before;
  };
}

function main(): void {
  const perNet = numberOption('per-net', 120);
  const seed = numberOption('seed', 19);
  const positions: Record<string, string[]> = {};
  positions.backgammon = collect(perNet, new SeededRandom(seed), shortStream(new SeededRandom(seed + 1)), shortBearoff);
  for (const [name, preset] of Object.entries(COMMITTED_NETS)) {
    if (!preset) continue;
    const random = new SeededRandom(seed + name.length);
    positions[name] = collect(perNet, random, longStream(LONG_PRESETS[preset], name, new SeededRandom(seed * 7 + name.length)), isLongBearoff);
  }
  const file: BearoffPositionsFile = { generator: `npx tsx scripts/eval/bearoff-positions.ts --per-net ${perNet} --seed ${seed}`, positions };
  mkdirSync(dirname(BEAROFF_POSITIONS_FILE), { recursive: true });
  writeFileSync(BEAROFF_POSITIONS_FILE, JSON.stringify(file, null, 0).replace(/\],"/g, '],\n"') + '\n');
  for (const [name, boards] of Object.entries(positions)) {
    const preset = COMMITTED_NETS[name];
    const rules = preset ? LONG_PRESETS[preset] : undefined;
    const net = rules ? readLongNet(rules, name) : readShortNet();
    const a = bearoffAgreement(net, boards.map(boardOf), valuesFor(net, rules));
    console.log(`${name}: ${a.positions} positions, rank correlation ${a.rankCorrelation.toFixed(3)}, mean equity error ${a.meanError.toFixed(3)}`);
  }
}

main();
