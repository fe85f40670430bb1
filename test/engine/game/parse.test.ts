import { GameState, parseGameState } from '../../../src/engine/game';
import { apply, start } from './support';

/*
 * A game state read from outside: Given a state the reducer made and
 * changed by hand, Then the refusal names the field that breaks it.
 */

function rolled(): GameState {
  const created = start({ variant: 'long' });
  return apply(apply(created.state, 'white', { type: 'roll-off', dice: [6, 1] }).state, 'white', { type: 'roll', dice: [6, 5] }).state;
}

function refusal(state: unknown) {
  const parsed = parseGameState(JSON.parse(JSON.stringify(state)));
  if (parsed.ok) throw new Error('the state was accepted');
  return parsed.error;
}

describe('parseGameState', () => {
  it('reads back a state the reducer made', () => {
    const state = rolled();
    expect(parseGameState(JSON.parse(JSON.stringify(state)))).toEqual({ ok: true, value: state });
  });

  it('LN-INIT-1: a side with other than 15 checkers is WRONG_CHECKER_COUNT under state.game.position', () => {
    const state = rolled();
    const position = { ...(state.game.position as object), white: { points: { 24: 14 }, off: 0 } };
    expect(refusal({ ...state, game: { ...state.game, position } })).toMatchObject({ code: 'WRONG_CHECKER_COUNT', field: expect.stringMatching(/^state\.game\.position/) });
  });

  it('TM-7: a pending stage the variant never has is INVALID_PENDING; a cascade stage with dice is refused as a state no game reaches', () => {
    const state = rolled();
    const position = { ...(state.game.position as object), pending: [{ actor: 'white', origin: 'cascade', units: [3, 3, 3, 3] }] };
    expect(refusal({ ...state, game: { ...state.game, position } })).toMatchObject({ code: 'INVALID_PENDING', field: 'state.game.position.pending[0]' });
    const crazy = start({ variant: 'crazy' }).state;
    const playing = apply(crazy, 'white', { type: 'roll-off', dice: [6, 1] }).state;
    const cascade = {
      ...playing,
      expects: { seat: 'white', action: 'play' },
      game: { ...playing.game, dice: [3, 3], position: { ...(playing.game.position as object), pending: [{ actor: 'white', origin: 'cascade', units: [4, 4, 4, 4] }] } },
    };
    expect(refusal(cascade)).toMatchObject({ code: 'INVALID_REQUEST', field: 'state.game.dice' });
  });

  it('expects must be what the rest of the state waits for; status must fit the result', () => {
    const state = rolled();
    expect(refusal({ ...state, expects: { seat: 'black', action: 'play' } })).toMatchObject({ code: 'INVALID_REQUEST', field: 'state.expects' });
    expect(refusal({ ...state, expects: { seat: 'white', action: 'roll' } })).toMatchObject({ field: 'state.expects' });
    expect(refusal({ ...state, status: 'finished' })).toMatchObject({ field: 'state.status' });
  });

  it('the rules, the cube and the match are checked: unknown variant, options, a cube in a game without one', () => {
    const state = rolled();
    expect(refusal({ ...state, variant: 'chess' })).toMatchObject({ code: 'UNKNOWN_VARIANT', field: 'state.variant' });
    expect(refusal({ ...state, rules: { ...(state.rules as object), headLimitPerTurn: 'many' } })).toMatchObject({ code: 'INVALID_RULES', field: expect.stringMatching(/^state\.rules/) });
    expect(refusal({ ...state, game: { ...state.game, cube: { value: 1, owner: 'center', turned: false, automaticDoubles: 0 } } })).toMatchObject({ field: 'state.game.cube' });
    expect(refusal({ ...state, game: { ...state.game, dice: [7, 1] } })).toMatchObject({ code: 'INVALID_DICE', field: expect.stringMatching(/^state\.game\.dice/) });
    expect(refusal({ ...state, extra: 1 })).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'state.extra' });
  });

  it('a result is checked field by field: a name no game ends with, a checkersLeft that is no count, a missing explanation', () => {
    const white = apply(start({ variant: 'long' }).state, 'white', { type: 'roll-off', dice: [6, 1] }).state;
    const over = apply(white, 'black', { type: 'resign', level: 'single' }).state;
    expect(parseGameState(JSON.parse(JSON.stringify(over)))).toEqual({ ok: true, value: over });
    const result = over.game.result as object;
    const withResult = (r: object) => ({ ...over, game: { ...over.game, result: r } });
    expect(refusal(withResult({ ...result, result: 'checkmate' }))).toMatchObject({ code: 'INVALID_REQUEST', field: 'state.game.result.result' });
    expect(refusal(withResult({ ...result, checkersLeft: 'many' }))).toMatchObject({ code: 'INVALID_REQUEST', field: 'state.game.result.checkersLeft' });
    expect(refusal(withResult({ ...result, explanation: undefined }))).toMatchObject({ code: 'INVALID_REQUEST', field: 'state.game.result.explanation' });
    expect(refusal(withResult({ ...result, points: -1 }))).toMatchObject({ code: 'INVALID_REQUEST', field: 'state.game.result.points' });
    expect(refusal({ ...over, game: { ...over.game, result: [] } })).toMatchObject({ code: 'INVALID_REQUEST', field: 'state.game.result' });
  });
});
