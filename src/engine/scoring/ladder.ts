import { Result, err, ok } from '../result';
import { Side, isSide, otherSide } from '../side';
import { CubeError, cubeError } from './cube-errors';
import { LoserCheckers, ScoringFamily, checkLoser } from './loser';
import { Resignation, ResignationLevelInfo, resignationRung } from './resign';
import { GameResult, GameScore, Rung, Stake, checkWinner, scoreRung, sideName } from './score';

/**
 * One rung of a scoring ladder. `gammonLike` (the rungs the Jacoby rule
 * reduces, CUBE-5) is every rung above one stake unless said otherwise.
 */
export function rung(
  result: GameResult,
  multiplier: number,
  rule: string,
  name: string,
  reason: string,
  gammonLike = multiplier > 1,
): Rung {
  return { result, multiplier, rule, name, reason, gammonLike };
}

/** "Black bore off 3 checkers": the reason of every rung won against a loser who bore off. */
export function offReason(loserName: string, off: number): string {
  return `${loserName} bore off ${off} checker${off === 1 ? '' : 's'}`;
}

/**
 * How a family scores the end of a game under its `rules` (the long rules,
 * the short scoring): `side` won a finished game whose loser left `what`
 * (`LoserCheckers`), or resigned with `what` (`Resignation`).
 */
export type FamilyScorer<R, W> = (rules: R, side: Side, what: W, stake?: Stake) => Result<GameScore, CubeError>;

/**
 * Scores a game that `winner` finished: checks the winner, the loser's
 * checkers for the family and the stake, then applies the cube to the rung
 * the loser's position is worth (CUBE-4, CUBE-5).
 */
export function scoreFinishedGame(
  family: ScoringFamily,
  winner: Side,
  loser: LoserCheckers,
  stake: Stake,
  checkStakeFor: (stake: Stake) => Result<Stake, CubeError>,
  rungOf: (loser: LoserCheckers, loserName: string) => Rung,
): Result<GameScore, CubeError> {
  const w = checkWinner(winner);
  if (!w.ok) return w;
  const l = checkLoser(loser, family);
  if (!l.ok) return l;
  const s = checkStakeFor(stake);
  if (!s.ok) return s;
  return ok(scoreRung(winner, rungOf(loser, sideName(otherSide(winner))), stake));
}

/**
 * Scores an accepted resignation: the resigner concedes the level's stake ×
 * the cube (CUBE-4), Jacoby applying to levels above single (CUBE-5).
 */
export function scoreAcceptedResignation(
  levels: () => readonly ResignationLevelInfo[],
  resigner: Side,
  resignation: Resignation,
  stake: Stake,
  checkStakeFor: (stake: Stake) => Result<Stake, CubeError>,
): Result<GameScore, CubeError> {
  if (!isSide(resigner)) {
    return err(
      cubeError('INVALID_RESIGNATION', 'resigner must be "white" or "black"', { field: 'resigner' }),
    );
  }
  const s = checkStakeFor(stake);
  if (!s.ok) return s;
  const r = resignationRung(levels(), resigner, resignation);
  if (!r.ok) return r;
  return ok(scoreRung(otherSide(resigner), r.value, stake));
}
