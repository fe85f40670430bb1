import { Result } from '../../../src/engine/result';
import {
  CubeError,
  loserCheckers,
  parseLoserCheckers,
  scoreShortGame,
  scoreShortResignation,
  shortResignationLevels,
} from '../../../src/engine/scoring';

/*
 * Short nardy (backgammon) scoring: SH-SCORE-1…3, §5.6; SPEC tests BG-T12
 * and BG-T14. Losers are Black in Black's own numbering: his home is 1..6,
 * White's home is his 19..24.
 */

function value<T>(r: Result<T, CubeError>): T {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}
function error<T>(r: Result<T, CubeError>): CubeError {
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

describe('BG-T12 standard scoring (cube 1)', () => {
  it('BG-T12 loser with 1 off: +1', () => {
    expect(value(scoreShortGame('standard', 'white', loserCheckers({ 1: 14 }, { off: 1 })))).toMatchObject({
      result: 'single',
      points: 1,
      rule: 'SH-SCORE-1',
    });
  });

  it('BG-T12 loser with 0 off, all home: +2', () => {
    expect(value(scoreShortGame('standard', 'white', loserCheckers({ 1: 5, 3: 5, 6: 5 })))).toMatchObject({
      result: 'gammon',
      points: 2,
      rule: 'SH-SCORE-2',
    });
  });

  it("BG-T12 loser with 0 off and a checker in the winner's home (own 19..24) or on the bar: +3", () => {
    expect(value(scoreShortGame('standard', 'white', loserCheckers({ 19: 1, 6: 14 })))).toMatchObject({
      result: 'backgammon',
      points: 3,
      rule: 'SH-SCORE-3',
    });
    expect(value(scoreShortGame('standard', 'white', loserCheckers({ 6: 14 }, { bar: 1 })))).toMatchObject({
      result: 'backgammon',
      points: 3,
    });
    // A checker outside home but short of the winner's home is only a gammon.
    expect(value(scoreShortGame('standard', 'white', loserCheckers({ 18: 1, 6: 14 }))).points).toBe(2);
  });

  it('BG-T12 loser with 2 off and a checker on the bar: +1', () => {
    expect(
      value(scoreShortGame('standard', 'black', loserCheckers({ 6: 12 }, { off: 2, bar: 1 }))),
    ).toMatchObject({
      winner: 'black',
      result: 'single',
      points: 1,
    });
  });
});

describe('BG-T14 Soviet scoring (§5.6)', () => {
  it('BG-T14 1 off → 1', () => {
    expect(value(scoreShortGame('soviet', 'white', loserCheckers({ 24: 14 }, { off: 1 })))).toMatchObject({
      result: 'soviet-1',
      points: 1,
    });
  });

  it('BG-T14 0 off, all in own 1..6 → 2', () => {
    expect(value(scoreShortGame('soviet', 'white', loserCheckers({ 1: 15 })))).toMatchObject({
      result: 'soviet-2',
      points: 2,
    });
  });

  it('BG-T14 0 off, a checker on own 9, none on the bar → 4', () => {
    expect(value(scoreShortGame('soviet', 'white', loserCheckers({ 9: 1, 1: 14 })))).toMatchObject({
      result: 'soviet-4',
      points: 4,
    });
  });

  it('BG-T14 0 off, a checker on the bar → 8', () => {
    expect(value(scoreShortGame('soviet', 'white', loserCheckers({ 1: 14 }, { bar: 1 })))).toMatchObject({
      result: 'soviet-8',
      points: 8,
    });
  });

  it('§5.6 with a cube: multiply', () => {
    expect(
      value(
        scoreShortGame('soviet', 'white', loserCheckers({ 9: 1, 1: 14 }), {
          cubeValue: 4,
          cubeTurned: true,
          jacoby: false,
        }),
      ),
    ).toMatchObject({ multiplier: 4, cubeValue: 4, points: 16 });
  });
});

describe('short resignations', () => {
  it('standard: single / mars / koks = 1 / 2 / 3 × cube', () => {
    const stake = { cubeValue: 2, cubeTurned: true, jacoby: false };
    expect(value(scoreShortResignation('standard', 'white', { level: 'single' }, stake)).points).toBe(2);
    expect(value(scoreShortResignation('standard', 'white', { level: 'mars' }, stake)).points).toBe(4);
    expect(value(scoreShortResignation('standard', 'white', { level: 'koks' }, stake))).toMatchObject({
      winner: 'black',
      result: 'resign-koks',
      points: 6,
      rule: 'SH-SCORE-3',
    });
  });

  it('Soviet: single / mars / soviet-4 / soviet-8; koks is ambiguous there', () => {
    expect(shortResignationLevels('soviet').map((l) => [l.level, l.multiplier])).toEqual([
      ['single', 1],
      ['mars', 2],
      ['soviet-4', 4],
      ['soviet-8', 8],
    ]);
    expect(value(scoreShortResignation('soviet', 'black', { level: 'soviet-8' })).points).toBe(8);
    expect(error(scoreShortResignation('soviet', 'black', { level: 'koks' }))).toMatchObject({
      code: 'RESIGN_LEVEL_UNAVAILABLE',
    });
    expect(error(scoreShortResignation('standard', 'black', { level: 'per-checker', off: 3 }))).toMatchObject(
      {
        code: 'RESIGN_LEVEL_UNAVAILABLE',
      },
    );
  });
});

describe('input checks', () => {
  it('parses a JSON loser and rejects wrong counts, keys and scorings', () => {
    expect(value(parseLoserCheckers({ points: { '6': 14 }, bar: 1 }, 'short')).bar).toBe(1);
    expect(error(parseLoserCheckers({ points: { '6': 14 } }, 'short'))).toMatchObject({
      code: 'INVALID_LOSER',
    });
    expect(error(parseLoserCheckers({ points: { '25': 15 } }, 'short'))).toMatchObject({
      code: 'INVALID_LOSER',
      field: 'loser.points.25',
    });
    expect(error(parseLoserCheckers({ points: { '6': 14 }, bar: 1 }, 'long'))).toMatchObject({
      code: 'INVALID_LOSER',
      field: 'loser.bar',
    });
    expect(error(parseLoserCheckers({ points: {}, off: 15, extra: 1 }, 'short'))).toMatchObject({
      field: 'loser.extra',
    });
    expect(error(scoreShortGame('tavli' as 'standard', 'white', loserCheckers({ 1: 15 })))).toMatchObject({
      code: 'INVALID_SCORING',
    });
    expect(
      error(
        scoreShortGame('standard', 'white', loserCheckers({ 1: 15 }), {
          cubeValue: 3,
          cubeTurned: true,
          jacoby: false,
        }),
      ),
    ).toMatchObject({ code: 'INVALID_CUBE', rule: 'CUBE-1' });
  });
});
