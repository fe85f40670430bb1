import { flipBoardInto } from '../../engine/short/board';
import { ShortStageSolver } from '../../engine/short/stage';
import { SeededRandom } from '../../engine/random';
import { Side, otherSide } from '../../engine/side';
import { Step } from '../../engine/step';
import { STANDARD_VALUES, equityAt } from '../equity';
import { Evaluator, makeEvaluator } from '../evaluator';
import { sigmoid, sparseInput } from '../neural/network';
import { ShortSelfPlay } from '../neural/self-play';
import { createShortEncoding } from '../neural/short-encoding';
import { flipInPlace } from '../probabilities';
import { isShortBearoff, isShortRace } from '../race';

/**
 * Backgammon play for training and quick strength checks: a 0-ply choice
 * of a play straight on the stage solver, and, on the game reducer, seeded
 * self-play that yields positions to label and paired games between two
 * evaluators.
 */
const BOARD = 28;

/** A 0-ply player: picks the play whose result its evaluator likes best. */
export class ShortPlayer {
  readonly solver = new ShortStageSolver();
  private boards = new Int8Array(64 * BOARD);
  private readonly flipped = new Int8Array(BOARD);
  private readonly probs = new Float64Array(5);

  constructor(readonly evaluator: Evaluator) {}

  /** Solves the roll into `solver`; returns the play count. */
  solve(board: Int8Array, d1: number, d2: number): number {
    const n = this.solver.solve(board, d1, d2);
    if (this.boards.length < n * BOARD) this.boards = new Int8Array(2 * n * BOARD);
    for (let k = 0; k < n; k++)
      this.solver.playBoardInto(k, this.boards.subarray(k * BOARD, (k + 1) * BOARD));
    return n;
  }

  /** The board after play k (seen from the mover), after `solve`. */
  result(k: number): Int8Array {
    return this.boards.subarray(k * BOARD, (k + 1) * BOARD);
  }

  /** The steps of play k of the last `solve` (mover's numbering). */
  steps(k: number): Step[] {
    const steps: Step[] = [];
    for (let s = 0; s < this.solver.playStepCount(k); s++) steps.push({ from: this.solver.playFrom(k, s), to: this.solver.playTo(k, s) });
    return steps;
  }

  /**
   * The cubeless money equity of play k of the last `solve` for the mover
   * (a play that bears off the last checker ends the game: +Infinity, so
   * that it sorts first).
   */
  equity(k: number): number {
    const b = this.result(k);
    if (b[0] === 15) return Infinity;
    flipBoardInto(b, this.flipped);
    this.evaluator.evaluateInto(this.flipped, this.probs, 0);
    flipInPlace(this.probs, 0);
    return equityAt(this.probs, 0, STANDARD_VALUES);
  }

  /** Index of the best play of the last `solve` at 0 ply (cubeless money equity). */
  best(n: number): number {
    if (n === 1) return 0;
    let best = 0;
    let bestEquity = -Infinity;
    for (let k = 0; k < n; k++) {
      const b = this.result(k);
      if (b[0] === 15) return k;
      flipBoardInto(b, this.flipped);
      this.evaluator.evaluateInto(this.flipped, this.probs, 0);
      flipInPlace(this.probs, 0);
      const e = equityAt(this.probs, 0, STANDARD_VALUES);
      if (e > bestEquity) {
        bestEquity = e;
        best = k;
      }
    }
    return best;
  }
}

/**
 * Endless seeded self-play of a 0-ply player with exploration (a uniformly
 * random play with probability `epsilon`). At every turn it yields up to
 * `candidates` positions among the results of the roll's legal plays (the
 * positions a search compares), seen from the opponent on roll, contact
 * positions only: those are what the contact network must rank. The game
 * flow (roll-off, rolls, forced empty plays, the end) is the reducer's.
 */
export function* shortTrainingPositions(
  player: ShortPlayer,
  seed: number,
  epsilon: number,
  candidates: number,
): Generator<Int8Array> {
  for (const position of shortTrainingGroups(player, seed, epsilon, candidates, 0)) yield position.board;
}

/**
 * The positions a network is trained on: `contact` (the contact network),
 * or `race` — no contact left, but not both sides home (the race network;
 * both home is the bear-off database's, exact).
 */
export type TrainingPhase = 'contact' | 'race';

const PHASES: Readonly<Record<TrainingPhase, (board: Int8Array) => boolean>> = {
  contact: (board) => !isShortRace(board),
  race: (board) => isShortRace(board) && !isShortBearoff(board),
};

/** Where a self-play game stops giving positions of the phase. */
const ENDS: Readonly<Record<TrainingPhase, (board: Int8Array) => boolean>> = {
  contact: isShortRace,
  race: isShortBearoff,
};

/** A labelled-position candidate with the roll it came from: the results of one roll share a `group`. */
export interface GroupedPosition {
  readonly board: Int8Array;
  readonly group: number;
}

/**
 * `shortTrainingPositions` with the roll each position came from (the
 * results of one roll share a `group`, so that training can compare them
 * with each other). With `top` > 0 a roll's candidates are the player's
 * `top` best plays at 0 ply (the ones a choice is made between), then
 * random others up to `candidates`; with 0, random plays only.
 */
export function* shortTrainingGroups(
  player: ShortPlayer,
  seed: number,
  epsilon: number,
  candidates: number,
  top: number,
  phase: TrainingPhase = 'contact',
): Generator<GroupedPosition> {
  const wanted = PHASES[phase];
  const random = new SeededRandom(seed);
  const next = new Int8Array(BOARD);
  const order: number[] = [];
  let equities = new Float64Array(64);
  let game = new ShortSelfPlay();
  let group = 0;
  for (;;) {
    const d1 = random.die();
    const d2 = random.die();
    // SH-START-1: the roll-off dice are the first roll; a tie is rolled again.
    const rolled = game.rollingOff ? null : ([d1, d2] as const);
    if (!rolled && !game.rollOff([d1, d2])) continue;
    const n = player.solve(game.position.board, d1, d2);
    // A race network's games are played through their contact part without yielding it.
    const yields = phase === 'contact' || isShortRace(game.position.board);
    order.length = 0;
    for (let k = 0; k < n; k++) order.push(k);
    let best = -1;
    if (top > 0) {
      if (equities.length < n) equities = new Float64Array(2 * n);
      for (let k = 0; k < n; k++) equities[k] = n === 1 ? 0 : player.equity(k);
      // Best first (the lower index on a tie, as `best`); the rest are shuffled below.
      order.sort((a, b) => equities[b] - equities[a] || a - b);
      best = order[0];
    }
    const first = Math.min(top, n);
    const take = yields ? Math.min(Math.max(candidates, first), n) : 0;
    for (let i = first; i < take; i++) {
      const j = i + random.below(n - i);
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (let i = 0; i < take; i++) {
      const b = player.result(order[i]);
      if (b[0] === 15) continue;
      flipBoardInto(b, next);
      if (wanted(next)) yield { board: next.slice(), group };
    }
    if (take > 0) group++;
    const k = random.next() < epsilon ? random.below(n) : best >= 0 ? best : player.best(n);
    game.play(rolled ?? undefined, player.steps(k));
    // A phase's positions are over (contact: at the race; race: both sides home, the bear-off database's): start a new game.
    if (game.result || ENDS[phase](game.position.board)) game = new ShortSelfPlay();
  }
}

/**
 * One game of a paired match between two 0-ply players: games 2k and 2k+1
 * share one dice stream (the roll-off never ties: its dice are the first
 * roll) with the players' seats swapped. Returns the points for player A
 * (± 1, 2, 3) as the scoring core gives them, 0 for a game cut off.
 */
export function playShortPairedGame(a: ShortPlayer, b: ShortPlayer, seed: number, game: number): number {
  const dice = new SeededRandom((seed * 1000003 + Math.floor(game / 2)) >>> 0);
  const play = new ShortSelfPlay();
  let rolled: [number, number] | null = null;
  while (play.rollingOff) {
    rolled = [dice.die(), dice.die()];
    play.rollOff(rolled);
  }
  const first = play.firstMover as Side;
  const seatOfA = game % 2 === 0 ? first : otherSide(first);
  for (let turn = 0; turn < 10000; turn++) {
    const [d1, d2] = rolled ?? [dice.die(), dice.die()];
    const position = play.position;
    const player = position.turn === seatOfA ? a : b;
    const n = player.solve(position.board, d1, d2);
    play.play(rolled ? undefined : [d1, d2], player.steps(player.best(n)));
    rolled = null;
    const result = play.result;
    if (result) return result.winner === seatOfA ? result.points : -result.points;
  }
  return 0;
}

/**
 * A hand-set backgammon evaluator that only steers the first round's
 * self-play towards ordinary positions (race lead, home points and primes,
 * blots exposed, checkers on the bar), read off the `short-1` encoding's
 * hand-made inputs. Its numbers are never training targets: gnubg labels
 * the positions. Kept here so that the pipeline does not depend on the v1
 * heuristic's weights.
 */
export function createPrimerEvaluator(): Evaluator {
  const encoding = createShortEncoding();
  const input = sparseInput(encoding.inputs);
  const dense = new Float64Array(encoding.inputs);
  const side = encoding.sideInputs;
  return makeEvaluator({
    family: 'short' as const,
    name: 'primer',
    version: '1',
    evaluateInto(board: Int8Array, out: Float64Array, offset: number): void {
      encoding.encode(board, input);
      dense.fill(0);
      for (let k = 0; k < input.count; k++) dense[input.index[k]] = input.value[k];
      const lead = (dense[side + 99] - dense[99]) * 167 + 8;
      const z =
        lead / 12 +
        1.2 * (dense[100] - dense[side + 100]) +
        1.0 * (dense[101] - dense[side + 101]) +
        2.0 * dense[side + 102] -
        0.6 * dense[102] +
        1.5 * (dense[side + 97] - dense[97]);
      const win = sigmoid(z);
      out[offset] = win;
      out[offset + 1] = 0.25 * win * win;
      out[offset + 2] = 0.01 * win * win;
      out[offset + 3] = 0.25 * (1 - win) * (1 - win);
      out[offset + 4] = 0.01 * (1 - win) * (1 - win);
    },
  });
}
