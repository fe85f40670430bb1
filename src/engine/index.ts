/**
 * The nardy rules core as a library: pure TypeScript, no I/O.
 *
 * Long family (long nardy and its variants): `parseLongPosition`,
 * `legalLongTurns`, `validateLongPlay`, position IDs and notation.
 * Short family (backgammon): `parseShortPosition`, `legalShortTurns`,
 * `validateShortPlay`, gnubg Position / Match IDs, XGID, gnubg notation.
 * Scoring: oin / mars / koks, gammons, the cube state machine, match play.
 * The game: `createGameState`, `applyAction` (the whole game flow as a pure
 * reducer over a JSON `GameState`), `parseGameState`, `allowedActions`.
 */
export * from './result';
export * from './errors';
export * from './side';
export * from './step';
export * from './dice';
export * from './notation';
export * from './variants';
export * from './long/board';
export * from './long/rules';
export * from './long/options';
export * from './long/position';
export * from './long/position-id';
export * from './long/stages';
export type { LongState, ActiveStage, NextKind, NextInfo, LongTurn, LongTurns, LongQueryOptions } from './long/turn';
export { activeStage, legalLongTurns, stateAfterPlay, checkPlayable } from './long/turn';
export type { HeadAllowance, MovementRules } from './long/stage';
export { LongStageSolver, movementOf } from './long/stage';
export type { LongValidation } from './long/validate';
export { validateLongPlay, validateLongNotation } from './long/validate';
export * from './long/state';
export * from './long/game';
export * from './random';
export * from './short';
export * from './short/options';
export * as scoring from './scoring';
export * from './game';
