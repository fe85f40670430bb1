import { otherPoint as longOther } from '../../../src/engine/long/board';
import { LONG_PRESETS, LongRules, LongScoring } from '../../../src/engine/long/rules';
import { SeededRandom } from '../../../src/engine/random';
import {
  GameResult,
  LossCounts,
  LossKind,
  LoserCheckers,
  ShortScoring,
  TripleMeasure,
  effectiveLongScoring,
  loserCheckers,
  lossCounts,
  lossKind,
  longTripleMeasure,
  scoreLongGame,
  scoreShortGame,
} from '../../../src/engine/scoring';
import { longLoserKind } from '../../../src/eval/long/terminal';
import { shortLoserKind } from '../../../src/eval/short/terminal';

/*
 * One classification of a lost game (single / gammon / triple slot) for
 * the scoring ladders, the evaluators' terminal results and the replays:
 * Given a loser's checkers, When each reads the loss, Then they agree.
 */

const counts = (loser: LoserCheckers): LossCounts => lossCounts(loser);

describe('lossKind', () => {
  it('SH-SCORE-1: one checker off is a single, even with a checker on the bar', () => {
    expect(lossKind(counts(loserCheckers({ 20: 13 }, { off: 1, bar: 1 })), 'backgammon')).toBe(1);
  });

  it('SH-SCORE-2: none off, nothing on the bar or in the winner\'s home is a gammon', () => {
    expect(lossKind(counts(loserCheckers({ 6: 10, 18: 5 })), 'backgammon')).toBe(2);
  });

  it('SH-SCORE-3: none off and a checker on the bar or on own 19..24 is a backgammon', () => {
    expect(lossKind(counts(loserCheckers({ 6: 14 }, { bar: 1 })), 'backgammon')).toBe(3);
    expect(lossKind(counts(loserCheckers({ 6: 14, 19: 1 })), 'backgammon')).toBe(3);
  });

  it('§5.6: the Soviet 4 / 8 slot is a checker outside home or on the bar; all home is the 2', () => {
    expect(lossKind(counts(loserCheckers({ 6: 14, 7: 1 })), 'notAllHome')).toBe(3);
    expect(lossKind(counts(loserCheckers({ 6: 14 }, { bar: 1 })), 'notAllHome')).toBe(3);
    expect(lossKind(counts(loserCheckers({ 6: 15 })), 'notAllHome')).toBe(2);
  });

  it('LN-SCORE-1 / LN-SCORE-2: an oin when a checker is off, else a mars wherever the checkers stand (K0)', () => {
    expect(lossKind(counts(loserCheckers({ 24: 14 }, { off: 1 })), 'none')).toBe(1);
    expect(lossKind(counts(loserCheckers({ 24: 15 })), 'none')).toBe(2);
  });

  it('LN-SCORE-3: K3 start quarter, K4 none in home, K1/K2 all home', () => {
    expect(lossKind(counts(loserCheckers({ 1: 14, 19: 1 })), 'startQuarter')).toBe(3);
    expect(lossKind(counts(loserCheckers({ 1: 14, 18: 1 })), 'startQuarter')).toBe(2);
    expect(lossKind(counts(loserCheckers({ 7: 15 })), 'noneInHome')).toBe(3);
    expect(lossKind(counts(loserCheckers({ 6: 1, 7: 14 })), 'noneInHome')).toBe(2);
    expect(lossKind(counts(loserCheckers({ 1: 15 })), 'allHome')).toBe(3);
    expect(lossKind(counts(loserCheckers({ 1: 14, 7: 1 })), 'allHome')).toBe(2);
  });
});

/** The slot a scored result fills (the evaluators' 5 outputs): the triple slot holds koks, backgammon, home mars under oin/mars, Soviet 4 and 8. */
function slotOf(result: GameResult, measure: TripleMeasure): LossKind {
  switch (result) {
    case 'oin':
    case 'single':
    case 'soviet-1':
      return 1;
    case 'mars':
    case 'gammon':
    case 'soviet-2':
      return 2;
    case 'home-mars':
      // Under the Soviet-like ladder the home mars sits between 2 and 4 (the 2 slot's value); under oin / mars it is the triple.
      return measure === 'notAllHome' ? 2 : 3;
    default:
      return 3;
  }
}

/** A random loser: sometimes a checker off, the rest on random own points (and the bar in short nardy). */
function randomLoser(random: SeededRandom, withBar: boolean): LoserCheckers {
  const points: Record<number, number> = {};
  const off = random.next() < 0.3 ? 1 + random.below(14) : 0;
  let bar = 0;
  for (let i = off; i < 15; i++) {
    if (withBar && random.next() < 0.05) bar++;
    else {
      // Bias towards the home board and the far quarter, where the rungs differ.
      const p = random.next() < 0.5 ? 1 + random.below(6) : 1 + random.below(24);
      points[p] = (points[p] ?? 0) + 1;
    }
  }
  return loserCheckers(points, { off, bar });
}

/** The loser on a board of the evaluators, either as the mover or as the opponent of a mover who bore off all 15. */
function longBoard(loser: LoserCheckers, moverLost: boolean): Int8Array {
  const board = new Int8Array(26);
  board[moverLost ? 0 : 25] = loser.off;
  board[moverLost ? 25 : 0] = 15;
  for (let q = 1; q <= 24; q++) if (loser.points[q]) board[moverLost ? q : longOther(q)] = moverLost ? loser.points[q] : -loser.points[q];
  return board;
}

function shortBoard(loser: LoserCheckers, moverLost: boolean): Int8Array {
  const board = new Int8Array(28);
  board[moverLost ? 0 : 27] = loser.off;
  board[moverLost ? 27 : 0] = 15;
  board[moverLost ? 25 : 26] = loser.bar;
  for (let q = 1; q <= 24; q++) if (loser.points[q]) board[moverLost ? q : 25 - q] = moverLost ? loser.points[q] : -loser.points[q];
  return board;
}

describe('the ladders and the evaluators read a loss the same way', () => {
  const longScorings: Partial<LongScoring>[] = [
    {},
    { koks: 'startQuarter' },
    { koks: 'noneInHome' },
    { homeMars: 'triple' },
    { mode: 'sovietLike' },
    { mode: 'sovietLike', homeMars: 'triple' },
  ];

  it.each(longScorings)('LN-SCORE-1…4 %j: scoreLongGame and longLoserKind give the same slot on 400 random losers', (scoring) => {
    const rules = { ...LONG_PRESETS.long, scoring: { ...LONG_PRESETS.long.scoring, ...scoring } } as LongRules;
    const measure = longTripleMeasure(effectiveLongScoring(rules));
    const random = new SeededRandom(7);
    const seen = new Set<LossKind>();
    for (let i = 0; i < 400; i++) {
      const loser = randomLoser(random, false);
      const score = scoreLongGame(rules, 'white', loser);
      if (!score.ok) throw new Error(score.error.message);
      const slot = slotOf(score.value.result, measure);
      seen.add(slot);
      expect([longLoserKind(longBoard(loser, true), true, measure), longLoserKind(longBoard(loser, false), false, measure)]).toEqual([slot, slot]);
    }
    expect(seen.has(1) && seen.has(2)).toBe(true);
  });

  it.each<ShortScoring>(['standard', 'soviet'])('SH-SCORE-1…3 / §5.6 %s: scoreShortGame and shortLoserKind give the same slot on 400 random losers', (scoring) => {
    const random = new SeededRandom(11);
    const measure: TripleMeasure = scoring === 'soviet' ? 'notAllHome' : 'backgammon';
    const seen = new Set<LossKind>();
    for (let i = 0; i < 400; i++) {
      const loser = randomLoser(random, true);
      const score = scoreShortGame(scoring, 'white', loser);
      if (!score.ok) throw new Error(score.error.message);
      const slot = slotOf(score.value.result, measure);
      seen.add(slot);
      expect([shortLoserKind(shortBoard(loser, true), true, scoring), shortLoserKind(shortBoard(loser, false), false, scoring)]).toEqual([slot, slot]);
    }
    expect([...seen].sort()).toEqual([1, 2, 3]);
  });
});
