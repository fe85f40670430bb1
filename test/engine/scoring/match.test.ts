import { Result } from '../../../src/engine/result';
import { Side } from '../../../src/engine/side';
import {
  CubeError,
  DEFAULT_CUBE_CONFIG,
  INITIAL_CUBE,
  MatchState,
  applyCubeAction,
  applyRollOffTie,
  isPostCrawford,
  matchAllowsDoubling,
  newMatch,
  nextMatchState,
  parseMatchState,
} from '../../../src/engine/scoring';

/*
 * Match play: CUBE-6, LN-MATCH-1; SPEC test BG-T16. Games are given as
 * { winner, points } — the part of a GameScore that the match reads.
 */

function value<T>(r: Result<T, CubeError>): T {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}
function error<T>(r: Result<T, CubeError>): CubeError {
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

function games(match: MatchState, ...results: [Side | null, number][]): MatchState {
  return results.reduce((m, [winner, points]) => value(nextMatchState(m, { winner, points })), match);
}

const doubleIn = (match: MatchState, by: Side) =>
  applyCubeAction(
    DEFAULT_CUBE_CONFIG,
    INITIAL_CUBE,
    { onRoll: by, rolled: false, openingMove: false, match },
    { type: 'double', by },
  );

describe('BG-T16 Crawford, match to 5', () => {
  const to5 = value(newMatch(5));

  it('BG-T16 White reaches 4: the next game has no doubling by either player', () => {
    const crawford = games(to5, ['white', 4]);
    expect(crawford).toEqual({
      length: 5,
      crawford: true,
      score: { white: 4, black: 0 },
      nextGameIsCrawford: true,
      crawfordPlayed: false,
    });
    expect(matchAllowsDoubling(crawford)).toBe(false);
    for (const side of ['white', 'black'] as const) {
      expect(error(doubleIn(crawford, side))).toMatchObject({ code: 'CRAWFORD_NO_DOUBLE', rule: 'CUBE-6' });
    }
  });

  it('BG-T16 the game after it allows doubling', () => {
    const post = games(to5, ['white', 4], ['black', 1]);
    expect(post).toMatchObject({
      score: { white: 4, black: 1 },
      nextGameIsCrawford: false,
      crawfordPlayed: true,
    });
    expect(isPostCrawford(post)).toBe(true);
    expect(value(doubleIn(post, 'black')).state.offered).toEqual({ by: 'black' });
    expect(value(doubleIn(post, 'white')).state.offered).toEqual({ by: 'white' });
  });

  it('BG-T16 only one Crawford game per match: 4:4 later brings no second one', () => {
    const fourAll = games(to5, ['white', 4], ['black', 1], ['black', 3]);
    expect(fourAll).toMatchObject({
      score: { white: 4, black: 4 },
      nextGameIsCrawford: false,
      crawfordPlayed: true,
    });
    expect(value(doubleIn(fourAll, 'black')).state.offered).toEqual({ by: 'black' });
  });

  it('CUBE-6 the Crawford game comes after the first time either player reaches N−1, whoever it is', () => {
    const m = games(to5, ['white', 2], ['black', 4]);
    expect(m.nextGameIsCrawford).toBe(true);
    // Both reach 4 in the Crawford game's aftermath: still no second one.
    expect(games(m, ['white', 2])).toMatchObject({
      score: { white: 4, black: 4 },
      nextGameIsCrawford: false,
    });
  });

  it('CUBE-6 the first to reach N or more wins; no game after that', () => {
    const won = games(to5, ['white', 3], ['white', 2]);
    expect(won).toMatchObject({ score: { white: 5, black: 0 }, winner: 'white', nextGameIsCrawford: false });
    expect(error(nextMatchState(won, { winner: 'black', points: 1 }))).toMatchObject({ code: 'MATCH_OVER' });
    expect(error(doubleIn(won, 'black'))).toMatchObject({ code: 'MATCH_OVER' });
    // Jumping over N−1 straight to the win, e.g. a gammon from 3 in a match to 5.
    expect(games(to5, ['black', 3], ['black', 6])).toMatchObject({
      score: { white: 0, black: 9 },
      winner: 'black',
    });
  });

  it('CUBE-6 a Crawford game won outright ends the match', () => {
    expect(games(to5, ['white', 4], ['white', 1])).toMatchObject({ winner: 'white', crawfordPlayed: true });
  });
});

describe('LN-MATCH-1 / CUBE-6 details', () => {
  it('LN-MATCH-1 a long-nardy match to 7 adds every game; a draw adds nothing but uses up the Crawford game', () => {
    const to7 = value(newMatch(7));
    const m = games(to7, ['white', 2], ['black', 1], ['white', 4]);
    expect(m).toMatchObject({ score: { white: 6, black: 1 }, nextGameIsCrawford: true });
    expect(games(m, [null, 0])).toMatchObject({
      score: { white: 6, black: 1 },
      nextGameIsCrawford: false,
      crawfordPlayed: true,
    });
  });

  it('CUBE-6 without the Crawford rule there is never a Crawford game', () => {
    const m = games(value(newMatch(5, { crawford: false })), ['white', 4]);
    expect(m).toMatchObject({ nextGameIsCrawford: false, crawfordPlayed: false });
    expect(matchAllowsDoubling(m)).toBe(true);
    expect(isPostCrawford(m)).toBe(false);
  });

  it('CUBE-6 a match to 1 has no Crawford game', () => {
    const to1 = value(newMatch(1));
    expect(to1.nextGameIsCrawford).toBe(false);
    expect(games(to1, ['black', 1])).toMatchObject({ winner: 'black' });
  });

  it('CUBE-5/6 automatic doubles are off in matches', () => {
    const config = { ...DEFAULT_CUBE_CONFIG, automaticDoubles: 1 };
    expect(applyRollOffTie(config, INITIAL_CUBE, value(newMatch(5))).value).toBe(1);
  });

  it('rejects impossible matches and games', () => {
    expect(error(newMatch(0))).toMatchObject({ code: 'INVALID_MATCH' });
    expect(error(newMatch(2.5))).toMatchObject({ code: 'INVALID_MATCH' });
    const to5 = value(newMatch(5));
    expect(error(nextMatchState(to5, { winner: null, points: 2 }))).toMatchObject({ code: 'INVALID_MATCH' });
    expect(error(nextMatchState(to5, { winner: 'white', points: -1 }))).toMatchObject({
      code: 'INVALID_MATCH',
    });
    const inconsistent = { ...to5, score: { white: 4, black: 0 } };
    expect(error(nextMatchState(inconsistent, { winner: 'white', points: 1 }))).toMatchObject({
      code: 'INVALID_MATCH',
      field: 'match.nextGameIsCrawford',
    });
  });

  it('parses a match from JSON, inferring the Crawford state from the score', () => {
    expect(value(parseMatchState({ length: 5, score: { white: 4, black: 2 } }))).toMatchObject({
      nextGameIsCrawford: true,
      crawfordPlayed: false,
    });
    expect(
      value(parseMatchState({ length: 5, score: { white: 4, black: 2 }, crawfordPlayed: true })),
    ).toMatchObject({
      nextGameIsCrawford: false,
      crawfordPlayed: true,
    });
    expect(
      value(parseMatchState({ length: 5, score: { white: 5, black: 2 }, crawfordPlayed: true })),
    ).toMatchObject({
      winner: 'white',
    });
    expect(value(parseMatchState({ length: 3 }))).toEqual(value(newMatch(3)));
    expect(
      error(parseMatchState({ length: 5, score: { white: 5, black: 2 }, winner: 'black' })),
    ).toMatchObject({
      field: 'match.winner',
    });
    expect(
      error(parseMatchState({ length: 5, score: { white: 1, black: 2 }, crawfordPlayed: true })),
    ).toMatchObject({
      field: 'match.crawfordPlayed',
    });
    expect(error(parseMatchState({ length: 5, rounds: 3 }))).toMatchObject({ field: 'match.rounds' });
  });
});
