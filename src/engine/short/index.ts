/**
 * Short nardy (короткие нарды) = backgammon, SPEC §5: the rules core of the
 * short family as a library — positions and their JSON contract, legal
 * turns, step-by-step validation, notation, and the gnubg / XG formats.
 */
export type { ShortBoard } from './board';
export { BOARD_LENGTH as SHORT_BOARD_LENGTH, MOVER_OFF as SHORT_MOVER_OFF } from './board';
export { MOVER_BAR as SHORT_MOVER_BAR, OPPONENT_BAR as SHORT_OPPONENT_BAR } from './board';
export { OPPONENT_OFF as SHORT_OPPONENT_OFF, flipBoard as flipShortBoard } from './board';
export { flipBoardInto as flipShortBoardInto, moverPips as shortMoverPips } from './board';
export { opponentPips as shortOpponentPips, boardKey as shortBoardKey } from './board';
export type { ShortRules, ShortPresetName, ShortOpeningRoll, ShortNextGameStarter } from './rules';
export type { ShortScoring } from './rules';
export { SHORT_PRESETS, SHORT_STANDARD } from './rules';
export type { ShortPosition, ShortPositionJson, ShortSideJson, ShortSeat } from './position';
export { SHORT_START_POINTS, initialShortPosition, parseShortPosition } from './position';
export { makeShortPositionJson, shortSeat, shortWinner, withShortTurn } from './position';
export type { ShortTurn, ShortTurns } from './turn';
export { legalShortTurns, checkShortPlayable, checkShortQuery } from './turn';
export { ShortStageSolver } from './stage';
export type { ShortStepFault } from './step-rules';
export { shortStepFault, applyShortStep } from './step-rules';
export type { ShortValidation } from './validate';
export { ShortValidator, validateShortPlay, validateShortNotation } from './validate';
export { makeGnubgNotation } from './gnubg-notation';
export type { GnubgMatchState, GnubgGameState, GnubgResignation, GnubgSnapshot } from './gnubg-id';
export { makeGnubgPositionId, parseGnubgPositionId, makeMatchId, parseMatchId } from './gnubg-id';
export { checkGnubgMatchState, makeGnubgId, parseGnubgId } from './gnubg-id';
export type { Xgid, XgidCubeAction } from './xgid';
export { makeXgid, parseXgid, parseXgClipboard } from './xgid';
export type { ShortOpening } from './opening';
export { shortOpening, nextShortGameStarter } from './opening';
