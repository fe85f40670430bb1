import {
  HomeMarsRule,
  KoksRule,
  LONG_PRESETS,
  LongPresetName,
  LongRules,
  LongScoringMode,
} from '../../../src/engine/long/rules';
import { Result } from '../../../src/engine/result';
import {
  CubeError,
  LoserCheckers,
  loserCheckers,
  scoreLongGame,
  scoreShortGame,
} from '../../../src/engine/scoring';

/*
 * Every scoring option × every long preset, and both short scorings: one
 * loser description per column and the points the winner scores
 * (LN-SCORE-1…5, KH-4, FV-6, SH-SCORE-1…3, §5.6). Expectations are written
 * out by hand, not computed.
 */

function value<T>(r: Result<T, CubeError>): T {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** Long-family losers, in the loser's own numbering (home 1..6, starting quarter 19..24). */
const LONG_LOSERS: readonly [string, LoserCheckers][] = [
  ['one off', loserCheckers({ 1: 14 }, { off: 1 })],
  ['all home, none off', loserCheckers({ 1: 3, 2: 3, 3: 3, 4: 3, 5: 3 })],
  ['none off, one in the starting quarter, the rest home', loserCheckers({ 20: 1, 1: 14 })],
  ['none off, none home, none in the starting quarter', loserCheckers({ 7: 8, 12: 7 })],
  ['none off, some home, some on 10', loserCheckers({ 10: 5, 1: 10 })],
  ['none off, all still on the head', loserCheckers({ 24: 15 })],
  ['nine off', loserCheckers({ 1: 6 }, { off: 9 })],
];

type Options = readonly [LongScoringMode, KoksRule, HomeMarsRule];

/** Points at cube 1 for each loser above, per scoring option set (presets other than Fevga / Giul). */
const LONG_TABLE: readonly [Options, readonly number[]][] = [
  [
    ['oinMars', 'none', 'asMars'],
    [1, 2, 2, 2, 2, 2, 1],
  ],
  [
    ['oinMars', 'none', 'triple'],
    [1, 3, 2, 2, 2, 2, 1],
  ],
  [
    ['oinMars', 'startQuarter', 'asMars'],
    [1, 2, 3, 2, 2, 3, 1],
  ],
  [
    ['oinMars', 'startQuarter', 'triple'],
    [1, 3, 3, 2, 2, 3, 1],
  ],
  [
    ['oinMars', 'noneInHome', 'asMars'],
    [1, 2, 2, 3, 2, 3, 1],
  ],
  [
    ['oinMars', 'noneInHome', 'triple'],
    [1, 3, 2, 3, 2, 3, 1],
  ],
  [
    ['sovietLike', 'none', 'asMars'],
    [1, 2, 4, 4, 4, 4, 1],
  ],
  [
    ['sovietLike', 'none', 'triple'],
    [1, 3, 4, 4, 4, 4, 1],
  ],
  [
    ['sovietLike', 'startQuarter', 'asMars'],
    [1, 2, 4, 4, 4, 4, 1],
  ],
  [
    ['sovietLike', 'startQuarter', 'triple'],
    [1, 3, 4, 4, 4, 4, 1],
  ],
  [
    ['sovietLike', 'noneInHome', 'asMars'],
    [1, 2, 4, 4, 4, 4, 1],
  ],
  [
    ['sovietLike', 'noneInHome', 'triple'],
    [1, 3, 4, 4, 4, 4, 1],
  ],
  [
    ['perChecker', 'none', 'asMars'],
    [14, 15, 15, 15, 15, 15, 6],
  ],
  [
    ['perChecker', 'none', 'triple'],
    [14, 45, 15, 15, 15, 15, 6],
  ],
  [
    ['perChecker', 'startQuarter', 'asMars'],
    [14, 15, 45, 15, 15, 45, 6],
  ],
  [
    ['perChecker', 'startQuarter', 'triple'],
    [14, 45, 45, 15, 15, 45, 6],
  ],
  [
    ['perChecker', 'noneInHome', 'asMars'],
    [14, 15, 15, 45, 15, 45, 6],
  ],
  [
    ['perChecker', 'noneInHome', 'triple'],
    [14, 45, 15, 45, 15, 45, 6],
  ],
];

/** FV-6: Fevga and Giul score 1 / 2 whatever the options say. */
const FEVGA_ROW: readonly number[] = [1, 2, 2, 2, 2, 2, 1];

const FEVGA_FAMILY: readonly LongPresetName[] = ['fevga', 'giul'];

const PRESET_NAMES = Object.keys(LONG_PRESETS) as LongPresetName[];

const cases = PRESET_NAMES.flatMap((preset) =>
  LONG_TABLE.map(([options, expected]) => ({
    preset,
    options,
    expected: FEVGA_FAMILY.includes(preset) ? FEVGA_ROW : expected,
  })),
);

describe('scoring table: every long preset × every scoring option', () => {
  it('covers the nine presets', () => {
    expect(PRESET_NAMES.sort()).toEqual(
      [
        'crazy',
        'crazy-gulbar',
        'fevga',
        'giul',
        'gulbar',
        'gulbara-intl',
        'khachapuri',
        'long',
        'nardgammon',
      ].sort(),
    );
  });

  it.each(cases)(
    '$preset with mode=$options.0 koks=$options.1 homeMars=$options.2',
    ({ preset, options, expected }) => {
      const [mode, koks, homeMars] = options;
      const rules: LongRules = { ...LONG_PRESETS[preset], scoring: { mode, koks, homeMars } };
      const fevga = FEVGA_FAMILY.includes(preset);
      LONG_LOSERS.forEach(([, loser], i) => {
        expect([i, value(scoreLongGame(rules, 'white', loser)).points]).toEqual([i, expected[i]]);
        if (!fevga) {
          const cubed = { ...rules, cube: true };
          const stake = { cubeValue: 4, cubeTurned: true, jacoby: false };
          expect([i, value(scoreLongGame(cubed, 'black', loser, stake)).points]).toEqual([
            i,
            4 * expected[i],
          ]);
        }
      });
    },
  );

  it.each(PRESET_NAMES)('%s default scoring', (preset) => {
    const defaults: Record<LongPresetName, readonly number[]> = {
      long: [1, 2, 2, 2, 2, 2, 1],
      nardgammon: [1, 2, 2, 2, 2, 2, 1],
      crazy: [1, 2, 2, 2, 2, 2, 1],
      gulbar: [1, 2, 2, 2, 2, 2, 1],
      'crazy-gulbar': [1, 2, 2, 2, 2, 2, 1],
      khachapuri: [14, 15, 15, 15, 15, 15, 6],
      fevga: FEVGA_ROW,
      giul: FEVGA_ROW,
      'gulbara-intl': [1, 2, 2, 2, 2, 2, 1],
    };
    expect(
      LONG_LOSERS.map(([, loser]) => value(scoreLongGame(LONG_PRESETS[preset], 'white', loser)).points),
    ).toEqual(defaults[preset]);
  });
});

/** Short losers in the loser's own numbering; the winner's home is his 19..24. */
const SHORT_TABLE: readonly [string, LoserCheckers, number, number][] = [
  // description, loser, standard, soviet
  ['one off', loserCheckers({ 6: 14 }, { off: 1 }), 1, 1],
  ['none off, all home', loserCheckers({ 1: 5, 3: 5, 6: 5 }), 2, 2],
  ['none off, one on 18', loserCheckers({ 18: 1, 6: 14 }), 2, 4],
  ['none off, one on 9', loserCheckers({ 9: 1, 1: 14 }), 2, 4],
  ["none off, one in the winner's home (19)", loserCheckers({ 19: 1, 6: 14 }), 3, 4],
  ['none off, one on the bar', loserCheckers({ 6: 14 }, { bar: 1 }), 3, 8],
  [
    "none off, one on the bar and one in the winner's home",
    loserCheckers({ 24: 1, 6: 13 }, { bar: 1 }),
    3,
    8,
  ],
  ['two off, one on the bar', loserCheckers({ 6: 12 }, { off: 2, bar: 1 }), 1, 1],
  ['the start position', loserCheckers({ 24: 2, 13: 5, 8: 3, 6: 5 }), 3, 4],
];

describe('scoring table: both short scorings', () => {
  it.each(SHORT_TABLE)('%s', (_, loser, standard, soviet) => {
    expect(value(scoreShortGame('standard', 'white', loser)).points).toBe(standard);
    expect(value(scoreShortGame('soviet', 'white', loser)).points).toBe(soviet);
    const stake = { cubeValue: 2, cubeTurned: true, jacoby: false };
    expect(value(scoreShortGame('standard', 'black', loser, stake)).points).toBe(2 * standard);
    expect(value(scoreShortGame('soviet', 'black', loser, stake)).points).toBe(2 * soviet);
  });
});
