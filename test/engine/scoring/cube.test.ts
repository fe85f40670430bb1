import { LONG_PRESETS } from '../../../src/engine/long/rules';
import { Result } from '../../../src/engine/result';
import { Side } from '../../../src/engine/side';
import {
  CUBE_OFF,
  CubeAction,
  CubeConfig,
  CubeContext,
  CubeError,
  CubeOutcome,
  CubeState,
  DEFAULT_CUBE_CONFIG,
  INITIAL_CUBE,
  MatchState,
  applyCubeAction,
  applyRollOffTie,
  legalCubeActions,
  longCubeConfig,
  loserCheckers,
  newMatch,
  parseCubeConfig,
  parseCubeState,
  scoreLongGame,
  scoreShortGame,
  shortCubeConfig,
  stakeOf,
} from '../../../src/engine/scoring';

/*
 * The doubling cube machine, CUBE-1…CUBE-7; SPEC tests BG-T15, BG-T17,
 * BG-T18 and BG-T19. Given a cube and whose turn it is, when an action
 * arrives, then the next cube or the end of the game or a coded error.
 */

function value<T>(r: Result<T, CubeError>): T {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}
function error<T>(r: Result<T, CubeError>): CubeError {
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

/** Before `onRoll` rolls, not the opening move, money play unless a match is given. */
const turnOf = (onRoll: Side, extra: Partial<CubeContext> = {}): CubeContext => ({
  onRoll,
  rolled: false,
  openingMove: false,
  ...extra,
});

/** Plays actions in order, each in the context of the side who acts (or the doubler on roll). */
function play(
  config: CubeConfig,
  actions: readonly CubeAction[],
  start: CubeState = INITIAL_CUBE,
  match?: MatchState,
): CubeOutcome {
  let outcome: CubeOutcome = { state: start };
  for (const action of actions) {
    const onRoll = outcome.state.offered ? outcome.state.offered.by : action.by;
    outcome = value(applyCubeAction(config, outcome.state, turnOf(onRoll, { match }), action));
  }
  return outcome;
}

const double = (by: Side): CubeAction => ({ type: 'double', by });
const take = (by: Side): CubeAction => ({ type: 'take', by });
const drop = (by: Side): CubeAction => ({ type: 'drop', by });
const beaver = (by: Side): CubeAction => ({ type: 'beaver', by });
const raccoon = (by: Side): CubeAction => ({ type: 'raccoon', by });

const gammon = loserCheckers({ 6: 15 });
const single = loserCheckers({ 6: 14 }, { off: 1 });

describe('BG-T15 cube: take and drop', () => {
  it('BG-T15 White doubles at 1, Black takes: cube 2 owned by Black; White may not redouble', () => {
    const { state } = play(DEFAULT_CUBE_CONFIG, [double('white'), take('black')]);
    expect(state).toEqual({ value: 2, owner: 'black', turned: true, automaticDoubles: 0 });
    expect(
      error(applyCubeAction(DEFAULT_CUBE_CONFIG, state, turnOf('white'), double('white'))),
    ).toMatchObject({
      code: 'CUBE_NOT_OWNED',
      rule: 'CUBE-2',
    });
  });

  it('BG-T15 Black redoubles to 4 and White drops: Black +2', () => {
    const outcome = play(DEFAULT_CUBE_CONFIG, [
      double('white'),
      take('black'),
      double('black'),
      drop('white'),
    ]);
    expect(outcome.gameOver).toMatchObject({
      winner: 'black',
      result: 'dropped-cube',
      multiplier: 1,
      cubeValue: 2,
      points: 2,
      rule: 'CUBE-3',
    });
    expect(outcome.gameOver?.explanation).toBe('Black wins 2 points because White refused the cube at 4.');
  });

  it('BG-T15 if White takes instead, a later gammon scores 8', () => {
    const { state } = play(DEFAULT_CUBE_CONFIG, [
      double('white'),
      take('black'),
      double('black'),
      take('white'),
    ]);
    expect(state).toMatchObject({ value: 4, owner: 'white' });
    const score = value(scoreShortGame('standard', 'black', gammon, stakeOf(DEFAULT_CUBE_CONFIG, state)));
    expect(score).toMatchObject({ result: 'gammon', multiplier: 2, cubeValue: 4, points: 8 });
  });
});

describe('BG-T17 Jacoby (money play)', () => {
  const jacoby: CubeConfig = { ...DEFAULT_CUBE_CONFIG, jacoby: true };

  it('BG-T17 a gammon with the cube never turned scores 1', () => {
    const score = value(scoreShortGame('standard', 'white', gammon, stakeOf(jacoby, INITIAL_CUBE)));
    expect(score).toMatchObject({ result: 'gammon', multiplier: 1, points: 1, rule: 'CUBE-5' });
  });

  it('BG-T17 after one accepted double it scores 4', () => {
    const { state } = play(jacoby, [double('white'), take('black')]);
    expect(value(scoreShortGame('standard', 'white', gammon, stakeOf(jacoby, state))).points).toBe(4);
  });

  it('BG-T17 in matches Jacoby is ignored', () => {
    const match = value(newMatch(7));
    const stake = stakeOf(jacoby, INITIAL_CUBE, match);
    expect(stake.jacoby).toBe(false);
    expect(value(scoreShortGame('standard', 'white', gammon, stake))).toMatchObject({
      points: 2,
      rule: 'SH-SCORE-2',
    });
  });

  it('CUBE-5 automatic doubles do not turn the cube: Jacoby still applies at value 2', () => {
    const config = { ...jacoby, automaticDoubles: 1 };
    const state = applyRollOffTie(config, INITIAL_CUBE);
    expect(value(scoreShortGame('standard', 'white', gammon, stakeOf(config, state)))).toMatchObject({
      multiplier: 1,
      cubeValue: 2,
      points: 2,
    });
  });
});

describe('BG-T18 beaver', () => {
  const beavers: CubeConfig = { ...DEFAULT_CUBE_CONFIG, beaver: true };

  it('BG-T18 White doubles to 2; Black beavers to 4 and keeps the cube; a single win for Black: +4', () => {
    const afterBeaver = play(beavers, [double('white'), beaver('black')]).state;
    expect(afterBeaver).toMatchObject({ value: 2, owner: 'black', offered: { by: 'black', beaver: true } });
    const { state } = play(beavers, [take('white')], afterBeaver);
    expect(state).toEqual({ value: 4, owner: 'black', turned: true, automaticDoubles: 0 });
    expect(value(scoreShortGame('standard', 'black', single, stakeOf(beavers, state))).points).toBe(4);
  });

  it('CUBE-5 the original doubler may drop the beaver: the beaverer wins the doubled value, 2', () => {
    const outcome = play(beavers, [double('white'), beaver('black'), drop('white')]);
    expect(outcome.gameOver).toMatchObject({ winner: 'black', points: 2, result: 'dropped-cube' });
  });

  it('CUBE-5 beavers are refused when off, in matches, and on a beaver', () => {
    const offered = play(DEFAULT_CUBE_CONFIG, [double('white')]).state;
    expect(
      error(applyCubeAction(DEFAULT_CUBE_CONFIG, offered, turnOf('white'), beaver('black'))),
    ).toMatchObject({
      code: 'BEAVER_NOT_ALLOWED',
      rule: 'CUBE-5',
    });
    const match = value(newMatch(5));
    const inMatch = play(beavers, [double('white')], INITIAL_CUBE, match).state;
    expect(
      error(applyCubeAction(beavers, inMatch, turnOf('white', { match }), beaver('black'))),
    ).toMatchObject({
      code: 'BEAVER_NOT_ALLOWED',
    });
    const beavered = play(beavers, [double('white'), beaver('black')]).state;
    expect(error(applyCubeAction(beavers, beavered, turnOf('white'), beaver('white')))).toMatchObject({
      code: 'BEAVER_NOT_ALLOWED',
    });
    expect(error(applyCubeAction(beavers, offered, turnOf('white'), beaver('white')))).toMatchObject({
      code: 'NOT_YOUR_DECISION',
    });
  });
});

describe('CUBE-5 raccoon', () => {
  const raccoons: CubeConfig = { ...DEFAULT_CUBE_CONFIG, beaver: true, raccoon: true };

  it('the original doubler answers a beaver with a raccoon; the beaverer keeps the cube at 8', () => {
    const afterRaccoon = play(raccoons, [double('white'), beaver('black'), raccoon('white')]).state;
    expect(afterRaccoon).toMatchObject({
      value: 4,
      owner: 'black',
      offered: { by: 'white', beaver: true, raccoon: true },
    });
    expect(play(raccoons, [take('black')], afterRaccoon).state).toEqual({
      value: 8,
      owner: 'black',
      turned: true,
      automaticDoubles: 0,
    });
    expect(play(raccoons, [drop('black')], afterRaccoon).gameOver).toMatchObject({
      winner: 'white',
      points: 4,
    });
  });

  it('a raccoon needs the option, a beaver to answer, and money play; only once', () => {
    const beavers = { ...DEFAULT_CUBE_CONFIG, beaver: true };
    const beavered = play(beavers, [double('white'), beaver('black')]).state;
    expect(error(applyCubeAction(beavers, beavered, turnOf('black'), raccoon('white')))).toMatchObject({
      code: 'RACCOON_NOT_ALLOWED',
    });
    const offered = play(raccoons, [double('white')]).state;
    expect(error(applyCubeAction(raccoons, offered, turnOf('white'), raccoon('black')))).toMatchObject({
      code: 'RACCOON_NOT_ALLOWED',
    });
    const raccooned = play(raccoons, [double('white'), beaver('black'), raccoon('white')]).state;
    expect(error(applyCubeAction(raccoons, raccooned, turnOf('white'), raccoon('black')))).toMatchObject({
      code: 'RACCOON_NOT_ALLOWED',
    });
    expect(error(applyCubeAction(raccoons, beavered, turnOf('black'), raccoon('black')))).toMatchObject({
      code: 'NOT_YOUR_DECISION',
    });
  });
});

describe('BG-T19 automatic double', () => {
  it('BG-T19 equal roll-off dice with automaticDoubles=1: cube 2, still centred; a second tie does not raise it', () => {
    const config = { ...DEFAULT_CUBE_CONFIG, automaticDoubles: 1 };
    const once = applyRollOffTie(config, INITIAL_CUBE);
    expect(once).toEqual({ value: 2, owner: 'center', turned: false, automaticDoubles: 1 });
    expect(applyRollOffTie(config, once)).toEqual(once);
    // The doubled, centred cube may still be doubled by either side.
    expect(value(applyCubeAction(config, once, turnOf('black'), double('black'))).state.offered).toEqual({
      by: 'black',
    });
  });

  it('CUBE-5 automaticDoubles=2 doubles twice; off, in matches, or at the cap it does nothing', () => {
    const twice = { ...DEFAULT_CUBE_CONFIG, automaticDoubles: 2 };
    expect(applyRollOffTie(twice, applyRollOffTie(twice, INITIAL_CUBE)).value).toBe(4);
    expect(applyRollOffTie(DEFAULT_CUBE_CONFIG, INITIAL_CUBE)).toBe(INITIAL_CUBE);
    expect(applyRollOffTie(twice, INITIAL_CUBE, value(newMatch(3)))).toBe(INITIAL_CUBE);
    expect(applyRollOffTie({ ...twice, cap: 1 }, INITIAL_CUBE)).toBe(INITIAL_CUBE);
  });
});

describe('CUBE-1…CUBE-4 who may double when', () => {
  it('CUBE-2 only the side on roll, before rolling, never during the opening move', () => {
    expect(
      error(applyCubeAction(DEFAULT_CUBE_CONFIG, INITIAL_CUBE, turnOf('black'), double('white'))),
    ).toMatchObject({
      code: 'NOT_YOUR_TURN',
    });
    expect(
      error(
        applyCubeAction(
          DEFAULT_CUBE_CONFIG,
          INITIAL_CUBE,
          turnOf('white', { rolled: true }),
          double('white'),
        ),
      ),
    ).toMatchObject({ code: 'NOT_BEFORE_ROLL', rule: 'CUBE-2' });
    expect(
      error(
        applyCubeAction(
          DEFAULT_CUBE_CONFIG,
          INITIAL_CUBE,
          turnOf('white', { openingMove: true }),
          double('white'),
        ),
      ),
    ).toMatchObject({ code: 'NOT_BEFORE_ROLL', rule: 'CUBE-2' });
  });

  it('CUBE-3 a double waits for its answer, from the doubled side only', () => {
    const offered = play(DEFAULT_CUBE_CONFIG, [double('white')]).state;
    expect(offered).toEqual({
      value: 1,
      owner: 'center',
      turned: false,
      automaticDoubles: 0,
      offered: { by: 'white' },
    });
    expect(
      error(applyCubeAction(DEFAULT_CUBE_CONFIG, offered, turnOf('white'), double('white'))),
    ).toMatchObject({
      code: 'OFFER_PENDING',
    });
    expect(
      error(applyCubeAction(DEFAULT_CUBE_CONFIG, offered, turnOf('white'), take('white'))),
    ).toMatchObject({
      code: 'NOT_YOUR_DECISION',
    });
    expect(
      error(applyCubeAction(DEFAULT_CUBE_CONFIG, INITIAL_CUBE, turnOf('white'), take('black'))),
    ).toMatchObject({
      code: 'NO_DOUBLE_OFFERED',
    });
    expect(
      error(applyCubeAction(DEFAULT_CUBE_CONFIG, INITIAL_CUBE, turnOf('white'), drop('black'))),
    ).toMatchObject({
      code: 'NO_DOUBLE_OFFERED',
    });
  });

  it('CUBE-1 a configured cap stops doubling, beavers and raccoons', () => {
    const capped = { ...DEFAULT_CUBE_CONFIG, cap: 2, beaver: true, raccoon: true };
    const owned = play(capped, [double('white'), take('black')]).state;
    expect(error(applyCubeAction(capped, owned, turnOf('black'), double('black')))).toMatchObject({
      code: 'CUBE_CAP_REACHED',
      rule: 'CUBE-1',
    });
    const offered = play(capped, [double('white')]).state;
    expect(error(applyCubeAction(capped, offered, turnOf('white'), beaver('black')))).toMatchObject({
      code: 'CUBE_CAP_REACHED',
    });
    const cap4 = { ...capped, cap: 4 };
    const beavered = play(cap4, [double('white'), beaver('black')]).state;
    expect(error(applyCubeAction(cap4, beavered, turnOf('black'), raccoon('white')))).toMatchObject({
      code: 'CUBE_CAP_REACHED',
    });
  });

  it('CUBE-1 with no cap the cube goes past 64', () => {
    let state: CubeState = INITIAL_CUBE;
    let side: Side = 'white';
    for (let i = 0; i < 8; i++) {
      state = play(
        DEFAULT_CUBE_CONFIG,
        [double(side), take(side === 'white' ? 'black' : 'white')],
        state,
      ).state;
      side = side === 'white' ? 'black' : 'white';
    }
    expect(state.value).toBe(256);
  });

  it('lists the actions open to a side', () => {
    expect(legalCubeActions(DEFAULT_CUBE_CONFIG, INITIAL_CUBE, turnOf('white'), 'white')).toEqual(['double']);
    expect(legalCubeActions(DEFAULT_CUBE_CONFIG, INITIAL_CUBE, turnOf('white'), 'black')).toEqual([]);
    const offered = play({ ...DEFAULT_CUBE_CONFIG, beaver: true }, [double('white')]).state;
    expect(
      legalCubeActions({ ...DEFAULT_CUBE_CONFIG, beaver: true }, offered, turnOf('white'), 'black'),
    ).toEqual(['take', 'drop', 'beaver']);
  });
});

describe('LN-SCORE-5 / CUBE-7 the cube in the long family', () => {
  it('off by default, on with long.cube, never in Fevga or Giul', () => {
    expect(longCubeConfig(LONG_PRESETS.long)).toBe(CUBE_OFF);
    expect(
      error(
        applyCubeAction(longCubeConfig(LONG_PRESETS.long), INITIAL_CUBE, turnOf('white'), double('white')),
      ),
    ).toMatchObject({
      code: 'CUBE_DISABLED',
    });
    const cubed = longCubeConfig({ ...LONG_PRESETS.long, cube: true });
    expect(cubed.enabled).toBe(true);
    for (const name of ['fevga', 'giul'] as const) {
      expect(longCubeConfig({ ...LONG_PRESETS[name], cube: true }, { beaver: true })).toBe(CUBE_OFF);
    }
  });

  it('LN-SCORE-5 all long values are multiplied by the cube', () => {
    const rules = { ...LONG_PRESETS.long, cube: true };
    const config = longCubeConfig(rules);
    const { state } = play(config, [double('white'), take('black'), double('black'), take('white')]);
    const score = value(scoreLongGame(rules, 'white', loserCheckers({ 12: 15 }), stakeOf(config, state)));
    expect(score).toMatchObject({ result: 'mars', multiplier: 2, cubeValue: 4, points: 8 });
  });

  it('reads the cube options of a short rules object', () => {
    const options = {
      cube: true,
      jacoby: true,
      beaver: false,
      raccoon: false,
      automaticDoubles: 1,
      cubeCap: 64,
    };
    expect(shortCubeConfig(options)).toEqual({
      enabled: true,
      jacoby: true,
      beaver: false,
      raccoon: false,
      automaticDoubles: 1,
      cap: 64,
    });
    expect(shortCubeConfig({ ...options, cube: false })).toBe(CUBE_OFF);
  });
});

describe('parsing cube input', () => {
  it('parses a config with defaults and rejects bad values', () => {
    expect(value(parseCubeConfig(undefined))).toBe(DEFAULT_CUBE_CONFIG);
    expect(value(parseCubeConfig({ beaver: true, cap: 64 }))).toEqual({
      ...DEFAULT_CUBE_CONFIG,
      beaver: true,
      cap: 64,
    });
    expect(error(parseCubeConfig({ cap: 48 }))).toMatchObject({
      code: 'INVALID_CUBE',
      field: 'cube.config.cap',
    });
    expect(error(parseCubeConfig({ raccoon: true }))).toMatchObject({
      code: 'INVALID_CUBE',
      field: 'cube.config.raccoon',
    });
    expect(error(parseCubeConfig({ murphy: true }))).toMatchObject({ field: 'cube.config.murphy' });
  });

  it('parses a cube state and rejects impossible ones', () => {
    expect(value(parseCubeState({ value: 4, owner: 'black' }, DEFAULT_CUBE_CONFIG))).toEqual({
      value: 4,
      owner: 'black',
      turned: true,
      automaticDoubles: 0,
    });
    expect(
      value(parseCubeState({ value: 2, owner: 'white', offered: { by: 'white' } }, DEFAULT_CUBE_CONFIG))
        .offered,
    ).toEqual({
      by: 'white',
    });
    const bad = [
      { value: 3 },
      { value: 2 }, // a centred cube above 1 needs an automatic double
      { value: 1, owner: 'white' }, // a take at least doubles
      { value: 2, owner: 'black', offered: { by: 'white' } }, // only the owner redoubles
      { value: 2, owner: 'white', offered: { by: 'white', raccoon: true } },
      { value: 2, owner: 'white', turned: false },
      { value: 128, owner: 'white' },
    ];
    for (const input of bad) {
      const config = input.value === 128 ? { ...DEFAULT_CUBE_CONFIG, cap: 64 } : DEFAULT_CUBE_CONFIG;
      expect(error(parseCubeState(input, config)).code).toBe('INVALID_CUBE');
    }
    expect(
      error(
        applyCubeAction(DEFAULT_CUBE_CONFIG, { ...INITIAL_CUBE, value: 6 }, turnOf('white'), double('white')),
      ),
    ).toMatchObject({
      code: 'INVALID_CUBE',
    });
  });
});
