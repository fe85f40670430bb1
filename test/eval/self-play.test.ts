import { createHash } from 'crypto';
import { pipGreedyBot, playPairedGame, presetRules, randomBot } from '../../src/eval/long/self-play';
import {
  ShortPlayer,
  createPrimerEvaluator,
  playShortPairedGame,
  shortTrainingGroups,
  shortTrainingPositions,
} from '../../src/eval/short/self-play';
import { STANDARD_VALUES, equityAt } from '../../src/eval/equity';
import { isShortBearoff, isShortRace } from '../../src/eval/race';

/*
 * Paired self-play runs on the game reducer: Given seeded games, When they
 * are played through applyAction, Then the records are those the loop's own
 * game flow gave before it moved onto the reducer (pinned below).
 */

const play = (preset: string, game: number) => playPairedGame(presetRules(preset), pipGreedyBot(game), randomBot(game + 100), 5, game);

describe('paired long-family games on the reducer', () => {
  it('LN-SCORE-1 / LN-SCORE-2: seeded classic games keep their winners, oins and mars and stage counts', () => {
    expect([0, 1, 2, 3].map((g) => play('long', g))).toEqual([
      { game: 0, points: 1, winner: 'a', kind: 1, stages: 97 },
      { game: 1, points: -1, winner: 'b', kind: 1, stages: 99 },
      { game: 2, points: 1, winner: 'a', kind: 1, stages: 89 },
      { game: 3, points: -2, winner: 'b', kind: 2, stages: 83 },
    ]);
  });

  it('KH-4: seeded khachapuri games score a stake per checker not borne off', () => {
    expect([0, 1].map((g) => play('khachapuri', g))).toEqual([
      { game: 0, points: 11, winner: 'a', kind: 1, stages: 45 },
      { game: 1, points: -15, winner: 'b', kind: 2, stages: 44 },
    ]);
  });
});

describe('backgammon self-play on the reducer', () => {
  it('SH-START-1: seeded training positions are those of the loop before it moved onto the reducer', () => {
    const hash = createHash('sha256');
    let count = 0;
    for (const board of shortTrainingPositions(new ShortPlayer(createPrimerEvaluator()), 3, 0.2, 3)) {
      expect(board).toHaveLength(28);
      hash.update(board);
      if (++count === 400) break;
    }
    expect(hash.digest('hex').slice(0, 16)).toBe('3b08cfcf58d24931');
  });

  it('SH-START-1: grouped training positions put each roll\'s best plays first, one group a roll', () => {
    const primer = createPrimerEvaluator();
    const probs = new Float64Array(5);
    // The positions are seen from the opponent on roll: the side that moved has the negated equity.
    const moverEquity = (board: Int8Array): number => {
      primer.evaluateInto(board, probs, 0);
      return -equityAt(probs, 0, STANDARD_VALUES);
    };
    const rolls: Int8Array[][] = [];
    let last = -1;
    for (const { board, group } of shortTrainingGroups(new ShortPlayer(primer), 3, 0.2, 5, 2)) {
      expect(group).toBeGreaterThanOrEqual(last);
      if (group !== last) rolls.push([]);
      rolls[rolls.length - 1].push(board);
      last = group;
      if (rolls.length === 60) break;
    }
    let checked = 0;
    for (const roll of rolls.slice(0, -1)) {
      expect(roll.length).toBeLessThanOrEqual(5);
      if (roll.length < 3) continue;
      // The first two are the best two of the roll: at least as good as every random one after them.
      const [a, b, ...rest] = roll.map(moverEquity);
      expect(a).toBeGreaterThanOrEqual(b - 1e-12);
      for (const e of rest) expect(b).toBeGreaterThanOrEqual(e - 1e-12);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('race phase: only races before both sides are home, the results of a roll together, each roll after the last', () => {
    let last = -1;
    let rolls = 0;
    let count = 0;
    for (const { board, group } of shortTrainingGroups(new ShortPlayer(createPrimerEvaluator()), 4, 0.1, 5, 2, 'race')) {
      expect(isShortRace(board)).toBe(true);
      expect(isShortBearoff(board)).toBe(false);
      expect(group).toBeGreaterThanOrEqual(last);
      if (group !== last) rolls++;
      last = group;
      if (++count === 400) break;
    }
    expect(rolls).toBeGreaterThan(60);
  });

  it('SH-START-1: without best plays, the grouped stream is the plain one', () => {
    const plain = shortTrainingPositions(new ShortPlayer(createPrimerEvaluator()), 5, 0.1, 4);
    const grouped = shortTrainingGroups(new ShortPlayer(createPrimerEvaluator()), 5, 0.1, 4, 0);
    for (let i = 0; i < 300; i++) expect(Array.from(grouped.next().value!.board)).toEqual(Array.from(plain.next().value!));
  });

  it('SH-SCORE-1 / SH-SCORE-2: seeded paired games keep their points, gammons included', () => {
    const a = new ShortPlayer(createPrimerEvaluator());
    const b = new ShortPlayer(createPrimerEvaluator());
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((g) => playShortPairedGame(a, b, 11, g))).toEqual([2, -2, -1, 1, -1, 1, -1, 1]);
  });
});
