import { LongRules, LONG_PRESETS, LongScoring } from '../../../src/engine/long/rules';
import { parseLongPosition, seatCheckers } from '../../../src/engine/long/position';
import { legalLongTurns } from '../../../src/engine/long/turn';
import { Dice } from '../../../src/engine/dice';
import { Result } from '../../../src/engine/result';
import {
  CubeError,
  GameScore,
  LoserCheckers,
  Stake,
  lastRollRoller,
  longResignationLevels,
  loserCheckers,
  scoreLastRoll,
  scoreLongGame,
  scoreLongResignation,
} from '../../../src/engine/scoring';

/*
 * Long-family scoring: LN-END-1, LN-SCORE-1…6, KH-4, FV-6, SPEC tests
 * LN-T34 and LN-T35. Losers are Black, described in Black's own numbering.
 */

const classic = LONG_PRESETS.long;
const withScoring = (
  base: Readonly<LongRules>,
  scoring: Partial<LongScoring>,
  extra: Partial<LongRules> = {},
) => ({ ...base, ...extra, scoring: { ...base.scoring, ...scoring } }) as LongRules;

function value<T>(r: Result<T, CubeError>): T {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}
function error<T>(r: Result<T, CubeError>): CubeError {
  if (r.ok) throw new Error('expected an error');
  return r.error;
}
const points = (rules: LongRules, loser: LoserCheckers, stake?: Stake) =>
  value(scoreLongGame(rules, 'white', loser, stake)).points;

const cubeAt = (cubeValue: number): Stake => ({ cubeValue, cubeTurned: true, jacoby: false });

// LN-T34 losers.
const threeOff = loserCheckers({ 1: 4, 2: 4, 3: 4 }, { off: 3 });
const allHomeNoneOff = loserCheckers({ 1: 3, 2: 3, 3: 3, 4: 3, 5: 3 });
const oneOnTwenty = loserCheckers({ 20: 1, 1: 14 });
const noneHome = loserCheckers({ 7: 8, 12: 7 });

describe('LN-T34 scoring (default K0)', () => {
  it('LN-T34 (a) Black has 3 off when White bears off the 15th checker: White +1', () => {
    const score = value(scoreLongGame(classic, 'white', threeOff));
    expect(score).toMatchObject({
      winner: 'white',
      result: 'oin',
      multiplier: 1,
      cubeValue: 1,
      points: 1,
      rule: 'LN-SCORE-1',
    });
    expect(score.explanation).toBe('White wins an oin, worth 1 point, because Black bore off 3 checkers.');
  });

  it('LN-T34 (b) 0 off, all 15 on B1..B6: +2; +3 only with homeMars=triple', () => {
    expect(value(scoreLongGame(classic, 'white', allHomeNoneOff))).toMatchObject({
      result: 'mars',
      points: 2,
      rule: 'LN-SCORE-2',
    });
    expect(
      value(scoreLongGame(withScoring(classic, { homeMars: 'triple' }), 'white', allHomeNoneOff)),
    ).toMatchObject({
      result: 'home-mars',
      points: 3,
      rule: 'LN-SCORE-3',
    });
    expect(points(withScoring(classic, { koks: 'startQuarter' }), allHomeNoneOff)).toBe(2);
    expect(points(withScoring(classic, { koks: 'noneInHome' }), allHomeNoneOff)).toBe(2);
  });

  it('LN-T34 (c) 0 off, one checker on B20: +2; +3 with koks=startQuarter', () => {
    expect(points(classic, oneOnTwenty)).toBe(2);
    expect(
      value(scoreLongGame(withScoring(classic, { koks: 'startQuarter' }), 'white', oneOnTwenty)),
    ).toMatchObject({
      result: 'koks',
      points: 3,
      rule: 'LN-SCORE-3',
    });
    expect(points(withScoring(classic, { koks: 'noneInHome' }), oneOnTwenty)).toBe(2);
    expect(points(withScoring(classic, { homeMars: 'triple' }), oneOnTwenty)).toBe(2);
  });

  it('LN-T34 (d) 0 off, nothing on B1..B6: +2; +3 with koks=noneInHome', () => {
    expect(points(classic, noneHome)).toBe(2);
    expect(
      value(scoreLongGame(withScoring(classic, { koks: 'noneInHome' }), 'white', noneHome)),
    ).toMatchObject({
      result: 'koks',
      points: 3,
    });
    expect(points(withScoring(classic, { koks: 'startQuarter' }), noneHome)).toBe(2);
  });

  it('LN-T34 (e) cube at 2 in case (b): +4', () => {
    const rules = { ...classic, cube: true };
    expect(value(scoreLongGame(rules, 'white', allHomeNoneOff, cubeAt(2)))).toMatchObject({
      result: 'mars',
      multiplier: 2,
      cubeValue: 2,
      points: 4,
    });
  });

  it('LN-T34 (f) perChecker with Black 9 off: +6', () => {
    const score = value(scoreLongGame(LONG_PRESETS.khachapuri, 'white', loserCheckers({ 1: 6 }, { off: 9 })));
    expect(score).toMatchObject({
      result: 'per-checker',
      multiplier: 6,
      points: 6,
      checkersLeft: 6,
      rule: 'KH-4',
    });
  });
});

describe('LN-SCORE-3/4 definitions K0…K6', () => {
  it('LN-SCORE-4 evaluates the highest multiplier first: Soviet-like 4 beats a koks', () => {
    const rules = withScoring(classic, { mode: 'sovietLike', koks: 'startQuarter' });
    expect(value(scoreLongGame(rules, 'white', oneOnTwenty))).toMatchObject({
      result: 'soviet-4',
      points: 4,
    });
  });

  it('LN-SCORE-3 K5 (sovietLike): 1 / 2 / 4, and no 8 since there is no bar', () => {
    const rules = withScoring(classic, { mode: 'sovietLike' });
    expect(points(rules, threeOff)).toBe(1);
    expect(points(rules, allHomeNoneOff)).toBe(2);
    expect(points(rules, oneOnTwenty)).toBe(4);
    expect(points(rules, noneHome)).toBe(4);
    expect(points(withScoring(rules, { homeMars: 'triple' }), allHomeNoneOff)).toBe(3);
  });

  it('KH-4 per checker: 15 when none off; a configured triple counts 3 per checker', () => {
    const kh = LONG_PRESETS.khachapuri;
    expect(points(kh, allHomeNoneOff)).toBe(15);
    expect(points(kh, loserCheckers({ 1: 1 }, { off: 14 }))).toBe(1);
    const triple = value(scoreLongGame(withScoring(kh, { homeMars: 'triple' }), 'white', allHomeNoneOff));
    expect(triple).toMatchObject({ result: 'home-mars', multiplier: 45, points: 45, checkersLeft: 15 });
  });

  it('FV-6 Fevga and Giul score 1 / 2 with no triple, whatever the scoring options say', () => {
    for (const name of ['fevga', 'giul'] as const) {
      const rules = withScoring(LONG_PRESETS[name], {
        mode: 'sovietLike',
        koks: 'startQuarter',
        homeMars: 'triple',
      });
      expect(value(scoreLongGame(rules, 'black', threeOff))).toMatchObject({
        result: 'oin',
        points: 1,
        rule: 'FV-6',
      });
      expect(value(scoreLongGame(rules, 'black', oneOnTwenty))).toMatchObject({
        result: 'mars',
        points: 2,
        rule: 'FV-6',
      });
      expect(points(rules, allHomeNoneOff)).toBe(2);
    }
  });

  it('LN-SCORE-5 / CUBE-7: a cube above 1 is refused when the cube is off, and always in Fevga', () => {
    expect(error(scoreLongGame(classic, 'white', threeOff, cubeAt(2)))).toMatchObject({
      code: 'CUBE_DISABLED',
      rule: 'LN-SCORE-5',
    });
    expect(
      error(scoreLongGame({ ...LONG_PRESETS.fevga, cube: true }, 'white', threeOff, cubeAt(2))),
    ).toMatchObject({
      code: 'CUBE_DISABLED',
      rule: 'CUBE-7',
    });
  });

  it('CUBE-5 Jacoby (money play, cube never turned): a long-nardy mars counts single', () => {
    const rules = { ...classic, cube: true };
    const score = value(
      scoreLongGame(rules, 'white', allHomeNoneOff, { cubeValue: 1, cubeTurned: false, jacoby: true }),
    );
    expect(score).toMatchObject({ result: 'mars', multiplier: 1, points: 1, rule: 'CUBE-5' });
    expect(points(rules, allHomeNoneOff, { cubeValue: 2, cubeTurned: true, jacoby: true })).toBe(4);
  });

  it('rejects a loser that is not an end position', () => {
    expect(error(scoreLongGame(classic, 'white', loserCheckers({ 1: 14 })))).toMatchObject({
      code: 'INVALID_LOSER',
    });
    expect(error(scoreLongGame(classic, 'white', loserCheckers({}, { off: 15 })))).toMatchObject({
      code: 'INVALID_LOSER',
      field: 'loser.off',
    });
    expect(error(scoreLongGame(classic, 'white', loserCheckers({ 1: 14 }, { bar: 1 })))).toMatchObject({
      code: 'INVALID_LOSER',
      field: 'loser.bar',
    });
    expect(error(scoreLongGame(classic, 'white', { off: 0, bar: 0, points: [15] }))).toMatchObject({
      code: 'INVALID_LOSER',
    });
  });
});

describe('resignation in the long family', () => {
  it('K0: single 1, mars 2, and no koks level', () => {
    expect(longResignationLevels(classic).map((l) => [l.level, l.multiplier])).toEqual([
      ['single', 1],
      ['mars', 2],
    ]);
    expect(value(scoreLongResignation(classic, 'black', { level: 'mars' }))).toMatchObject({
      winner: 'white',
      result: 'resign-mars',
      points: 2,
    });
    expect(error(scoreLongResignation(classic, 'black', { level: 'koks' }))).toMatchObject({
      code: 'RESIGN_LEVEL_UNAVAILABLE',
    });
  });

  it('a configured triple opens the koks level: 3 × cube', () => {
    const rules = withScoring({ ...classic, cube: true }, { koks: 'startQuarter' });
    expect(value(scoreLongResignation(rules, 'white', { level: 'koks' }, cubeAt(4)))).toMatchObject({
      winner: 'black',
      result: 'resign-koks',
      multiplier: 3,
      points: 12,
    });
  });

  it('Soviet-like: single 1, mars 2, soviet-4 4', () => {
    const rules = withScoring(classic, { mode: 'sovietLike' });
    expect(longResignationLevels(rules).map((l) => [l.level, l.multiplier])).toEqual([
      ['single', 1],
      ['mars', 2],
      ['soviet-4', 4],
    ]);
    expect(value(scoreLongResignation(rules, 'black', { level: 'soviet-4' })).points).toBe(4);
  });

  it('KH-4 per checker: the resigner concedes every checker not borne off', () => {
    const kh = LONG_PRESETS.khachapuri;
    expect(value(scoreLongResignation(kh, 'black', { level: 'per-checker', off: 4 }))).toMatchObject({
      result: 'resign-per-checker',
      multiplier: 11,
      points: 11,
      checkersLeft: 11,
    });
    expect(error(scoreLongResignation(kh, 'black', { level: 'per-checker' }))).toMatchObject({
      code: 'INVALID_RESIGNATION',
    });
    expect(error(scoreLongResignation(kh, 'black', { level: 'single' }))).toMatchObject({
      code: 'RESIGN_LEVEL_UNAVAILABLE',
    });
  });

  it('FV-6: Fevga resignations are single or mars', () => {
    expect(longResignationLevels(LONG_PRESETS.fevga).map((l) => l.level)).toEqual(['single', 'mars']);
  });

  it('CUBE-5 Jacoby reduces a mars resignation to single while the cube is unturned', () => {
    const rules = { ...classic, cube: true };
    expect(
      value(
        scoreLongResignation(
          rules,
          'black',
          { level: 'mars' },
          { cubeValue: 1, cubeTurned: false, jacoby: true },
        ),
      ),
    ).toMatchObject({ points: 1, rule: 'CUBE-5' });
  });
});

describe('LN-T35 last-roll option', () => {
  // White is the first mover and has just borne off his 15th checker.
  const black = loserCheckers({ 1: 2 }, { off: 13 });
  const lastRoll = { ...classic, lastRoll: 'drawIfCompletes' } as LongRules;

  it('LN-T35 default: game over, White +1', () => {
    expect(value(lastRollRoller(classic, 'white', 'white'))).toBeNull();
    expect(value(scoreLongGame(classic, 'white', black))).toMatchObject({
      winner: 'white',
      result: 'oin',
      points: 1,
    });
  });

  it('LN-T35 drawIfCompletes: Black rolls once, every roll bears off both, and the game is a draw (0:0)', () => {
    expect(value(lastRollRoller(lastRoll, 'white', 'white'))).toBe('black');
    // Black's last roll, played by the long engine. White's finished side is
    // stood in for by one checker on W1 (= B13) so that the engine, which
    // refuses finished games, will move; it touches nothing of Black's.
    const position = parseLongPosition(
      { turn: 'black', white: { points: { 1: 1 }, off: 14 }, black: { points: { 1: 2 }, off: 13 } },
      'head15',
    );
    if (!position.ok) throw new Error(position.error.message);
    for (let a = 1; a <= 6; a++) {
      for (let b = 1; b <= a; b++) {
        const turns = legalLongTurns(lastRoll, { position: position.value, pending: [] }, [a, b] as Dice);
        if (!turns.ok) throw new Error(turns.error.message);
        for (const turn of turns.value.turns) {
          const after = seatCheckers(turn.state.position, 'black');
          expect(after.off).toBe(15);
          const score: GameScore = value(scoreLastRoll(lastRoll, 'white', { ...after, bar: 0 }));
          expect(score).toMatchObject({ winner: null, result: 'draw', points: 0, rule: 'LN-SCORE-6' });
        }
      }
    }
  });

  it('LN-T35 if Black had been the one to finish first, the game ends at once in either mode', () => {
    expect(value(lastRollRoller(classic, 'white', 'black'))).toBeNull();
    expect(value(lastRollRoller(lastRoll, 'white', 'black'))).toBeNull();
  });

  it('LN-SCORE-6 a last roll that does not complete: the first result is scored on the position after it', () => {
    expect(value(scoreLastRoll(lastRoll, 'white', loserCheckers({ 1: 1 }, { off: 14 })))).toMatchObject({
      winner: 'white',
      result: 'oin',
      points: 1,
    });
    // Mars is read after the roll: still none off → mars.
    expect(value(scoreLastRoll(lastRoll, 'white', loserCheckers({ 3: 15 })))).toMatchObject({
      result: 'mars',
      points: 2,
    });
  });

  it('LN-SCORE-6 is not defined for cascade or re-roll variants', () => {
    for (const name of ['crazy', 'crazy-gulbar', 'giul', 'gulbara-intl', 'gulbar', 'khachapuri'] as const) {
      const rules = { ...LONG_PRESETS[name], lastRoll: 'drawIfCompletes' } as LongRules;
      expect(error(lastRollRoller(rules, 'white', 'white'))).toMatchObject({
        code: 'LAST_ROLL_UNDEFINED',
        rule: 'LN-SCORE-6',
      });
      expect(error(scoreLastRoll(rules, 'white', black))).toMatchObject({ code: 'LAST_ROLL_UNDEFINED' });
    }
    for (const name of ['long', 'nardgammon', 'fevga'] as const) {
      const rules = { ...LONG_PRESETS[name], lastRoll: 'drawIfCompletes' } as LongRules;
      expect(value(lastRollRoller(rules, 'black', 'black'))).toBe('white');
    }
  });

  it('LN-SCORE-6 scoreLastRoll refuses when the option is off', () => {
    expect(error(scoreLastRoll(classic, 'white', black))).toMatchObject({ code: 'LAST_ROLL_UNDEFINED' });
  });
});
