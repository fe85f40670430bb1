/**
 * Scoring, the doubling cube and match play for the whole nardy family
 * (SPEC §2.8, §3.5, §3.6, §5.5–§5.8). Pure: no I/O, no transport types.
 * docs/scoring.md lists every option, code and interpretation.
 */
export * from './cube-errors';
export type { LoserCheckers, ScoringFamily } from './loser';
export { CHECKERS_PER_SIDE, loserCheckers, checkersOn, checkLoser, parseLoserCheckers } from './loser';
export type { BoardResult, GameResult, GameScore, ResignLevel, Stake } from './score';
export { RESIGN_LEVELS, NO_CUBE, isPowerOfTwo, checkStake, scoreDroppedCube, isGameResult, isGameScore, gameScoreFault } from './score';
export type { LossCounts, LossKind, TripleMeasure } from './loss';
export { lossCounts, lossKind, longTripleMeasure } from './loss';
export type { Resignation, ResignationLevelInfo } from './resign';
export type { LongScoringRules } from './long';
export {
  FEVGA_SCORING,
  isFevgaFamily,
  effectiveLongScoring,
  longCubeAllowed,
  hasChainedDoubles,
  scoreLongGame,
  longResignationLevels,
  scoreLongResignation,
  lastRollRoller,
  scoreLastRoll,
} from './long';
export type { ShortScoring } from './short';
export { SHORT_SCORINGS, scoreShortGame, shortResignationLevels, scoreShortResignation } from './short';
export * from './cube';
export * from './match';
