import { Result, err, ok } from '../result';
import { CubeError, cubeError } from './cube-errors';
import { FamilyScorer, offReason, rung, scoreAcceptedResignation, scoreFinishedGame } from './ladder';
import { LoserCheckers } from './loser';
import { lossCounts, lossKind } from './loss';
import { Resignation, ResignationLevelInfo, resignationLevelList } from './resign';
import { NO_CUBE, Rung, checkStake } from './score';

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
  if (scoring === 'standard') {
    const kind = lossKind(lossCounts(loser), 'backgammon');
    // SH-SCORE-1: one checker off is enough, even with a checker on the bar.
    if (kind === 1) return rung('single', 1, 'SH-SCORE-1', 'a single game', offReason(loserName, off));
    // SH-SCORE-3: none off and a checker on the bar or in the winner's home.
    if (kind === 3) {
      const where = loser.bar > 0 ? 'on the bar' : "in the winner's home";
      const reason = `${loserName} bore off none and has a checker ${where}`;
      return rung('backgammon', 3, 'SH-SCORE-3', 'a backgammon (koks)', reason);
    }
    // SH-SCORE-2.
    return rung('gammon', 2, 'SH-SCORE-2', 'a gammon (mars)', `${loserName} bore off no checkers`);
  }
  // §5.6, evaluated on the loser when the game ends: the triple slot is the 4, or the 8 with a checker on the bar.
  const kind = lossKind(lossCounts(loser), 'notAllHome');
  if (kind === 1) return rung('soviet-1', 1, '§5.6', 'a Soviet 1', offReason(loserName, off));
  if (kind === 3 && loser.bar > 0) {
    return rung('soviet-8', 8, '§5.6', 'a Soviet 8', `${loserName} bore off none and has a checker on the bar`);
  }
  if (kind === 3) {
    return rung('soviet-4', 4, '§5.6', 'a Soviet 4', `${loserName} bore off none and has a checker outside his home`);
  }
  return rung('soviet-2', 2, '§5.6', 'a Soviet 2', `${loserName} bore off none and has every checker home`);
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
export const scoreShortGame: FamilyScorer<ShortScoring, LoserCheckers> = (scoring, winner, loser, stake = NO_CUBE) => {
  const sc = checkScoring(scoring);
  if (!sc.ok) return sc;
  return scoreFinishedGame('short', winner, loser, stake, checkStake, (l, name) => shortRung(scoring, l, name));
};

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
export const scoreShortResignation: FamilyScorer<ShortScoring, Resignation> = (scoring, resigner, resignation, stake = NO_CUBE) => {
  const sc = checkScoring(scoring);
  if (!sc.ok) return sc;
  return scoreAcceptedResignation(() => shortResignationLevels(scoring), resigner, resignation, stake, checkStake);
};
