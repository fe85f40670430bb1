import { existsSync, readFileSync } from 'fs';
import { resolve } from 'path';
import { gunzipSync } from 'zlib';
import { Dice } from '../src/engine/dice';
import { BOARD_LENGTH, ShortBoard } from '../src/engine/short/board';
import { SHORT_STANDARD } from '../src/engine/short/rules';
import { ShortStageSolver } from '../src/engine/short/stage';
import { legalShortTurns } from '../src/engine/short/turn';

/**
 * Short-nardy (backgammon) legal-move generation throughput over the 2000
 * positions of the gnubg oracle (../shared/oracles/gnubg/cases-legal.jsonl),
 * the same positions gnubg's own `bench.py` times:
 *
 * - `solver`: `ShortStageSolver.solve` — every legal play, deduplicated by
 *   resulting position, with canonical steps, in preallocated buffers;
 * - `solver + read`: the same, then every play's steps, hits and board read
 *   into reused buffers (what an evaluator loop does);
 * - `api`: the public `legalShortTurns` (fresh `ShortTurn` objects and
 *   flipped positions).
 *
 * Run: `npx tsx bench/short-movegen.ts [rounds]` (default 15 rounds after 3
 * warm-up rounds); prints best and median positions/s and µs/position.
 */
export interface ShortCorpus {
  boards: ShortBoard[];
  dice: Dice[];
  /** gnubg Position IDs of the boards (to hand the same positions to gnubg). */
  positionIds: string[];
  source: string;
}

interface SignedBoard {
  points: number[];
  bar: [number, number];
  off: [number, number];
}

function candidates(): string[] {
  const roots = [
    process.env.ORACLES_DIR,
    resolve(process.cwd(), '../shared/oracles'),
    resolve(__dirname, '../../shared/oracles'),
  ];
  const files: string[] = [];
  for (const root of roots) if (root) files.push(resolve(root, 'gnubg/cases-legal.jsonl'));
  files.push(resolve(process.cwd(), 'test/fixtures/oracles/gnubg/cases-legal.jsonl.gz'));
  return files;
}

export function loadShortCorpus(): ShortCorpus {
  const path = candidates().find((p) => existsSync(p));
  if (!path) throw new Error(`gnubg oracle cases not found; looked for ${candidates().join(', ')}`);
  const raw = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  const corpus: ShortCorpus = { boards: [], dice: [], positionIds: [], source: path };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const c = JSON.parse(line) as { positionId: string; board: SignedBoard; dice: [number, number] };
    const b = new Int8Array(BOARD_LENGTH);
    for (let i = 0; i < 24; i++) b[i + 1] = c.board.points[i];
    b[25] = c.board.bar[0];
    b[26] = c.board.bar[1];
    b[0] = c.board.off[0];
    b[27] = c.board.off[1];
    corpus.boards.push(b);
    corpus.dice.push(c.dice);
    corpus.positionIds.push(c.positionId);
  }
  return corpus;
}

export interface ShortRate {
  bestPositionsPerSecond: number;
  medianPositionsPerSecond: number;
  bestMicrosecondsPerPosition: number;
  medianMicrosecondsPerPosition: number;
  playsPerPosition: number;
}

function measure(
  corpus: ShortCorpus,
  warmup: number,
  rounds: number,
  work: (i: number) => number,
): ShortRate {
  const n = corpus.boards.length;
  const times: number[] = [];
  let plays = 0;
  for (let r = 0; r < warmup + rounds; r++) {
    plays = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) plays += work(i);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r >= warmup) times.push(seconds);
  }
  times.sort((a, b) => a - b);
  const best = times[0];
  const median = times[Math.floor(times.length / 2)];
  return {
    bestPositionsPerSecond: n / best,
    medianPositionsPerSecond: n / median,
    bestMicrosecondsPerPosition: (best / n) * 1e6,
    medianMicrosecondsPerPosition: (median / n) * 1e6,
    playsPerPosition: plays / n,
  };
}

export function benchShortMovegen(
  corpus: ShortCorpus,
  rounds = 15,
  warmup = 3,
): { solver: ShortRate; solverRead: ShortRate; api: ShortRate } {
  const solver = new ShortStageSolver();
  const board = new Int8Array(BOARD_LENGTH);
  const steps = new Int8Array(8);
  let sink = 0;
  const solverRate = measure(corpus, warmup, rounds, (i) =>
    solver.solve(corpus.boards[i], corpus.dice[i][0], corpus.dice[i][1]),
  );
  const solverRead = measure(corpus, warmup, rounds, (i) => {
    const n = solver.solve(corpus.boards[i], corpus.dice[i][0], corpus.dice[i][1]);
    for (let k = 0; k < n; k++) {
      solver.playBoardInto(k, board);
      const count = solver.playStepCount(k);
      for (let s = 0; s < count; s++) {
        steps[s * 2] = solver.playFrom(k, s);
        steps[s * 2 + 1] = solver.playTo(k, s);
        if (solver.playHit(k, s)) sink++;
      }
      sink += board[0];
    }
    return n;
  });
  const api = measure(corpus, warmup, rounds, (i) => {
    const r = legalShortTurns(SHORT_STANDARD, { turn: 'white', board: corpus.boards[i] }, corpus.dice[i]);
    return r.ok ? r.value.turns.length : 0;
  });
  if (sink < 0) console.log(sink); // keeps the reads observable
  return { solver: solverRate, solverRead, api };
}

function row(name: string, r: ShortRate): string {
  const f = (x: number) => Math.round(x).toLocaleString('en-US');
  return `${name.padEnd(16)} best ${f(r.bestPositionsPerSecond).padStart(9)} positions/s (${r.bestMicrosecondsPerPosition.toFixed(2)} µs)   median ${f(
    r.medianPositionsPerSecond,
  ).padStart(
    9,
  )} positions/s (${r.medianMicrosecondsPerPosition.toFixed(2)} µs)   ${r.playsPerPosition.toFixed(1)} plays/position`;
}

if (require.main === module) {
  const rounds = Number(process.argv[2] ?? 15);
  const corpus = loadShortCorpus();
  console.log(
    `short-nardy move generation: ${corpus.boards.length} positions from ${corpus.source}, ${rounds} rounds (+3 warm-up), node ${process.version}`,
  );
  const result = benchShortMovegen(corpus, rounds);
  console.log(row('solver', result.solver));
  console.log(row('solver + read', result.solverRead));
  console.log(row('legalShortTurns', result.api));
}
