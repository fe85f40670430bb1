import { Result, err, ok } from '../result';
import { Side, isSide, otherSide } from '../side';
import { CubeError, cubeError } from './cube-errors';
import { LoserCheckers, checkLoser, checkersOn } from './loser';
import { Resignation, ResignationLevelInfo, resignationLevelList, resignationRung } from './resign';
import { GameScore, NO_CUBE, Rung, Stake, checkStake, checkWinner, scoreRung, sideName } from './score';

/** `short.scoring` (§5.5 / §5.6): single / gammon / backgammon, or the Soviet 1 / 2 / 4 / 8. */
export type ShortScoring = 'standard' | 'soviet';

/** Both short scorings. */
export const SHORT_SCORINGS: readonly ShortScoring[] = ['standard', 'soviet'];

/**
 * The loser's position → its rung, before the cube. Conditions are read in
 * the loser's own numbering: his home is 1..6, the winner's home his 19..24.
 */
function shortRung(scoring: ShortScoring, loser: LoserCheckers, loserName: string): Rung {
  const off = loser.off;
  const offReason = `${loserName} bore off ${off} checker${off === 1 ? '' : 's'}`;
  if (scoring === 'standard') {
    // SH-SCORE-1: one checker off is enough, even with a checker on the bar.
    if (off > 0) {
      return {
        result: 'single',
        multiplier: 1,
        rule: 'SH-SCORE-1',
        name: 'a single game',
        reason: offReason,
        gammonLike: false,
      };
    }
    // SH-SCORE-3: none off and a checker on the bar or in the winner's home.
    if (loser.bar > 0 || checkersOn(loser, 19, 24) > 0) {
      return {
        result: 'backgammon',
        multiplier: 3,
        rule: 'SH-SCORE-3',
        name: 'a backgammon (koks)',
        reason: `${loserName} bore off none and has a checker ${loser.bar > 0 ? 'on the bar' : "in the winner's home"}`,
        gammonLike: true,
      };
    }
    // SH-SCORE-2.
    return {
      result: 'gammon',
      multiplier: 2,
      rule: 'SH-SCORE-2',
      name: 'a gammon (mars)',
      reason: `${loserName} bore off no checkers`,
      gammonLike: true,
    };
  }
  // §5.6, evaluated on the loser when the game ends.
  if (off > 0) {
    return {
      result: 'soviet-1',
      multiplier: 1,
      rule: '§5.6',
      name: 'a Soviet 1',
      reason: offReason,
      gammonLike: false,
    };
  }
  if (loser.bar > 0) {
    return {
      result: 'soviet-8',
      multiplier: 8,
      rule: '§5.6',
      name: 'a Soviet 8',
      reason: `${loserName} bore off none and has a checker on the bar`,
      gammonLike: true,
    };
  }
  if (checkersOn(loser, 7, 24) > 0) {
    return {
      result: 'soviet-4',
      multiplier: 4,
      rule: '§5.6',
      name: 'a Soviet 4',
      reason: `${loserName} bore off none and has a checker outside his home`,
      gammonLike: true,
    };
  }
  return {
    result: 'soviet-2',
    multiplier: 2,
    rule: '§5.6',
    name: 'a Soviet 2',
    reason: `${loserName} bore off none and has every checker home`,
    gammonLike: true,
  };
}

function checkScoring(scoring: ShortScoring): Result<ShortScoring, CubeError> {
  return SHORT_SCORINGS.includes(scoring)
    ? ok(scoring)
    : err(cubeError('INVALID_SCORING', 'scoring must be "standard" or "soviet"', { field: 'scoring' }));
}

/**
 * Scores a short-nardy (backgammon) game that `winner` finished: single /
 * gammon / backgammon (SH-SCORE-1…3) or the Soviet 1 / 2 / 4 / 8 (§5.6),
 * × the cube (CUBE-4), with the Jacoby rule when `stake` says it is in force
 * (CUBE-5).
 *
 * @param loser the other side's checkers in his own numbering, bar included.
 */
export function scoreShortGame(
  scoring: ShortScoring,
  winner: Side,
  loser: LoserCheckers,
  stake: Stake = NO_CUBE,
): Result<GameScore, CubeError> {
  const sc = checkScoring(scoring);
  if (!sc.ok) return sc;
  const w = checkWinner(winner);
  if (!w.ok) return w;
  const l = checkLoser(loser, 'short');
  if (!l.ok) return l;
  const s = checkStake(stake);
  if (!s.ok) return s;
  return ok(scoreRung(winner, shortRung(scoring, loser, sideName(otherSide(winner))), stake));
}

/**
 * The resignation levels of a short scoring, with their stakes before the
 * cube: standard `single` 1, `mars` 2 (gammon), `koks` 3 (backgammon);
 * Soviet `single` 1, `mars` 2, `soviet-4` 4, `soviet-8` 8 (`koks` is not a
 * Soviet level: it would be ambiguous between 4 and 8).
 */
export function shortResignationLevels(scoring: ShortScoring): readonly ResignationLevelInfo[] {
  return scoring === 'standard'
    ? resignationLevelList([
        ['single', 1, 'SH-SCORE-1'],
        ['mars', 2, 'SH-SCORE-2'],
        ['koks', 3, 'SH-SCORE-3'],
      ])
    : resignationLevelList([
        ['single', 1, '§5.6'],
        ['mars', 2, '§5.6'],
        ['soviet-4', 4, '§5.6'],
        ['soviet-8', 8, '§5.6'],
      ]);
}

/**
 * Scores an accepted resignation in short nardy: the level's stake × the
 * cube, Jacoby applying to levels above single (CUBE-5).
 */
export function scoreShortResignation(
  scoring: ShortScoring,
  resigner: Side,
  resignation: Resignation,
  stake: Stake = NO_CUBE,
): Result<GameScore, CubeError> {
  const sc = checkScoring(scoring);
  if (!sc.ok) return sc;
  if (!isSide(resigner)) {
    return err(
      cubeError('INVALID_RESIGNATION', 'resigner must be "white" or "black"', { field: 'resigner' }),
    );
  }
  const s = checkStake(stake);
  if (!s.ok) return s;
  const rung = resignationRung(shortResignationLevels(scoring), resigner, resignation);
  if (!rung.ok) return rung;
  return ok(scoreRung(otherSide(resigner), rung.value, stake));
}
