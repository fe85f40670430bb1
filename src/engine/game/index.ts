/**
 * The game as a pure reducer: a JSON-safe `GameState` for every variant and
 * `applyAction(state, seat, action)` answering the new state, its events and
 * what each seat may do next, or the refusal with its rule.
 */
export * from './types';
export { allowedActions, applyAction, bindGameState, expectedPlay, gamePosition, newGameState, settledExpects } from './reducer';
export { parseGameState } from './parse';
export type { NewGameOptions } from './reducer';
export { createGameState } from './create';
export type { GameOptions } from './create';
