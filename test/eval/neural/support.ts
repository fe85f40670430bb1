import { needsDice, newLongGame, winnerOf } from '../../../src/engine/long/game';
import { CLASSIC, LONG_PRESETS, LongPresetName } from '../../../src/engine/long/rules';
import { LongState, legalLongTurns } from '../../../src/engine/long/turn';
import { SeededRandom } from '../../../src/engine/random';
import { initialShortPosition } from '../../../src/engine/short/position';
import { SHORT_STANDARD } from '../../../src/engine/short/rules';
import { legalShortTurns } from '../../../src/engine/short/turn';
import { Family } from '../../../src/eval/evaluator';
import { NeuralEncoding } from '../../../src/eval/neural/encoding';
import { NeuralWeights } from '../../../src/eval/neural/format';
import { SparseInput, sparseInput } from '../../../src/eval/neural/network';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';
import { Probabilities } from '../../../src/eval/probabilities';

/** Seeded random-play boards of a long preset (before a roll, nothing pending, game not over). */
export function longPositions(preset: LongPresetName, seed: number, count: number): LongState[] {
  const rules = LONG_PRESETS[preset];
  const random = new SeededRandom(seed);
  const out: LongState[] = [];
  let state = newLongGame(rules, 'white');
  while (out.length < count) {
    if (winnerOf(state)) state = newLongGame(rules, 'white');
    if (state.pending.length === 0 && random.below(3) === 0) out.push(state);
    const answer = legalLongTurns(rules, state, needsDice(state) ? random.dice() : undefined);
    if (!answer.ok) throw new Error(answer.error.message);
    state = random.pick(answer.value.turns).state;
  }
  return out;
}

/** Seeded random-play backgammon boards (side to move on roll, game not over). */
export function shortPositions(seed: number, count: number): Int8Array[] {
  const random = new SeededRandom(seed);
  const out: Int8Array[] = [];
  let position = initialShortPosition('white');
  while (out.length < count) {
    const answer = legalShortTurns(SHORT_STANDARD, position, random.dice());
    if (!answer.ok) throw new Error(answer.error.message);
    const turn = random.pick(answer.value.turns);
    if (turn.gameOver) {
      position = initialShortPosition('white');
      continue;
    }
    position = turn.position;
    if (random.below(2) === 0) out.push(position.board);
  }
  return out;
}

/**
 * `count` seeded random-play backgammon boards, each followed by the
 * positions after up to four plays of a roll: the order a search evaluates
 * positions in.
 */
export function shortBoardsAndPlays(seed: number, diceSeed: number, count: number): Int8Array[] {
  const random = new SeededRandom(diceSeed);
  const boards: Int8Array[] = [];
  for (const board of shortPositions(seed, count)) {
    boards.push(board);
    const answer = legalShortTurns(SHORT_STANDARD, { board, turn: 'white' }, random.dice());
    if (answer.ok) for (const t of answer.value.turns.slice(0, 4)) if (!t.gameOver) boards.push(t.position.board);
  }
  return boards;
}

/** The same for classic long nardy. */
export function longBoardsAndPlays(seed: number, diceSeed: number, count: number): Int8Array[] {
  const random = new SeededRandom(diceSeed);
  const boards: Int8Array[] = [];
  for (const state of longPositions('long', seed, count)) {
    boards.push(state.position.board);
    const answer = legalLongTurns(CLASSIC, state, needsDice(state) ? random.dice() : undefined);
    if (answer.ok)
      for (const t of answer.value.turns.slice(0, 4)) if (t.state.pending.length === 0) boards.push(t.state.position.board);
  }
  return boards;
}

/** Each board encoded into a sparse input of its own. */
export function encodeAll(encoding: NeuralEncoding, boards: readonly Int8Array[]): SparseInput[] {
  return boards.map((board) => {
    const input = sparseInput(encoding.inputs);
    encoding.encode(board, input);
    return input;
  });
}

/** Weights of a seeded, untrained network (tests must not depend on the committed ones). */
export function randomWeights(family: Family, hidden = 8, seed = 3): NeuralWeights {
  const inputs = family === 'short' ? 210 : 208;
  const trainer = NetworkTrainer.initial({ inputs, hidden }, seed);
  return {
    family,
    encoding: family === 'short' ? 'short-1' : 'long-1',
    networks: [{ name: 'contact', parameters: trainer.networkParameters() }],
  };
}

/** The invariants every evaluator output satisfies (probabilities.ts). */
export function expectOrdered(p: Probabilities): void {
  for (const v of [p.win, p.winMars, p.winKoks, p.loseMars, p.loseKoks]) {
    expect(Number.isFinite(v)).toBe(true);
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(1);
  }
  expect(p.winKoks).toBeLessThanOrEqual(p.winMars + 1e-12);
  expect(p.winMars).toBeLessThanOrEqual(p.win + 1e-12);
  expect(p.loseKoks).toBeLessThanOrEqual(p.loseMars + 1e-12);
  expect(p.loseMars).toBeLessThanOrEqual(1 - p.win + 1e-9);
}
