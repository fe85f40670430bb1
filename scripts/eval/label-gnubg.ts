import { ChildProcessWithoutNullStreams, spawn } from 'child_process';
import { createWriteStream } from 'fs';
import { createInterface } from 'readline';
import { flipBoard } from '../../src/engine/short/board';
import { initialShortPosition } from '../../src/engine/short/position';
import { SHORT_STANDARD } from '../../src/engine/short/rules';
import { legalShortTurns } from '../../src/engine/short/turn';
import { SeededRandom } from '../../src/engine/random';
import { isShortRace } from '../../src/eval/race';
import { searchSettings } from '../../src/eval/search-options';
import { createShortEvaluator } from '../../src/eval/short/evaluator';
import { ShortSearch } from '../../src/eval/short/search';
import { readBearoffDatabase } from './data';
import { ORACLE_DIR, signedOf } from './gnubg-cases';

/**
 * Labels backgammon contact positions with gnubg's 0-ply probabilities, as
 * training data for scripts/train/fit-short.ts. Positions come from seeded
 * self-play of our 0-ply bot with exploration (a random legal play with
 * probability ε): at each turn, the positions after up to `--moves` of the
 * legal plays of the roll (the candidates a search compares) are labelled.
 * gnubg is reached through the oracle's JSON-lines bridge (client.py), one
 * process per `--workers`.
 *
 *   npx tsx scripts/eval/label-gnubg.ts --out /tmp/labels.jsonl [--positions 100000] [--workers 8] [--seed 1] [--epsilon 0.15] [--moves 6]
 *
 * Output lines: {"board": signed board (side to move on roll), "probs": [5]}.
 * The file is training data, not committed.
 */
function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

class Bridge {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];

  constructor() {
    this.child = spawn('python3', ['client.py'], { cwd: ORACLE_DIR });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(line));
  }

  evaluate(board: Int8Array): Promise<number[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push((line) => {
        const answer = JSON.parse(line) as { evaluations?: { probs: number[] }[]; error?: string };
        if (answer.error || !answer.evaluations) reject(new Error(answer.error ?? 'no evaluation'));
        else resolve(answer.evaluations[0].probs);
      });
      this.child.stdin.write(JSON.stringify({ op: 'evaluate', board: signedOf(board), plies: [0] }) + '\n');
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** Yields positions (side to move on roll) to label. */
function* positions(seed: number, epsilon: number, moves: number): Generator<Int8Array> {
  const evaluator = createShortEvaluator({ database: () => readBearoffDatabase('standard') });
  const search = new ShortSearch(evaluator);
  const random = new SeededRandom(seed);
  let position = initialShortPosition('white');
  for (;;) {
    const dice = random.dice();
    const answer = legalShortTurns(SHORT_STANDARD, position, dice);
    if (!answer.ok) throw new Error(answer.error.message);
    const turns = answer.value.turns;
    // Candidates: a random sample of the legal plays.
    const order = turns.map((_, k) => k);
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.below(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const k of order.slice(0, moves)) {
      const t = turns[k];
      if (t.gameOver) continue;
      const next = t.position.board;
      if (!isShortRace(next)) yield next;
    }
    let chosen: (typeof turns)[number];
    if (random.next() < epsilon) chosen = random.pick(turns);
    else {
      const best = search.rankTurns(position.board, dice, searchSettings(0))[0];
      chosen = turns.find((t) => t.board.every((v, i) => v === best.board[i])) ?? turns[0];
    }
    position = chosen.gameOver ? initialShortPosition(random.below(2) === 0 ? 'white' : 'black') : chosen.position;
    void flipBoard;
  }
}

async function main(): Promise<void> {
  const out = option('out', '/tmp/gnubg-labels.jsonl');
  const total = Number(option('positions', '100000'));
  const workers = Number(option('workers', '8'));
  const seed = Number(option('seed', '1'));
  const epsilon = Number(option('epsilon', '0.15'));
  const moves = Number(option('moves', '6'));
  const bridges = Array.from({ length: workers }, () => new Bridge());
  const file = createWriteStream(out);
  const source = positions(seed, epsilon, moves);
  let done = 0;
  const started = Date.now();
  await Promise.all(
    bridges.map(async (bridge) => {
      while (done < total) {
        const board = source.next().value as Int8Array;
        done++;
        const probs = await bridge.evaluate(board);
        file.write(JSON.stringify({ board: signedOf(board), probs }) + '\n');
        if (done % 10000 === 0) console.error(`${done} positions, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
    }),
  );
  bridges.forEach((b) => b.close());
  file.end();
  console.log(`${done} positions labelled in ${((Date.now() - started) / 1000).toFixed(0)} s -> ${out}`);
}

void main();
