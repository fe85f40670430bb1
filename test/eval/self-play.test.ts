import { createHash } from 'crypto';
import { pipGreedyBot, playPairedGame, presetRules, randomBot } from '../../src/eval/long/self-play';
import { ShortPlayer, createPrimerEvaluator, playShortPairedGame, shortTrainingPositions } from '../../src/eval/short/self-play';

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

  it('SH-SCORE-1 / SH-SCORE-2: seeded paired games keep their points, gammons included', () => {
    const a = new ShortPlayer(createPrimerEvaluator());
    const b = new ShortPlayer(createPrimerEvaluator());
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((g) => playShortPairedGame(a, b, 11, g))).toEqual([2, -2, -1, 1, -1, 1, -1, 1]);
  });
});
