import { GameState, allowedActions, createGameState, expectedPlay } from '../../../src/engine/game';
import { apply, refused, start } from './support';

/*
 * The game reducer, rule by rule: Given a state, When a seat acts, Then the
 * new state, its events and what each seat may do — or the refusal.
 */

/** Deep-freezes a state, so that a reducer that changed its input would throw. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

describe('game reducer', () => {
  it('LN-START-1: a new long game awaits the roll-off from either seat; the higher die moves first and rolls again (rerollByWinner)', () => {
    const created = start({ variant: 'long' });
    expect(created.expects).toEqual({ seat: 'white', action: 'roll-off' });
    expect(created.allowed).toEqual({ white: ['roll-off'], black: ['roll-off'] });
    expect(created.events).toEqual([]);
    const tie = apply(created.state, 'black', { type: 'roll-off', dice: [4, 4] });
    expect(tie.expects).toEqual({ seat: 'white', action: 'roll-off' });
    expect(tie.events).toEqual([{ game: 1, type: 'roll-off', seat: null, dice: [4, 4] }]);
    const decided = apply(tie.state, 'white', { type: 'roll-off', dice: [2, 5] });
    expect(decided.state.game.firstMover).toBe('black');
    expect(decided.expects).toEqual({ seat: 'black', action: 'roll' });
    expect(decided.state.game.dice).toBeNull();
    expect(decided.allowed).toEqual({ white: ['resign'], black: ['roll', 'resign'] });
  });

  it('SH-START-1: backgammon plays the roll-off dice; short-soviet starts with White without a roll-off', () => {
    const created = start({ variant: 'backgammon' });
    const decided = apply(created.state, 'white', { type: 'roll-off', dice: [3, 1] });
    expect(decided.expects).toEqual({ seat: 'white', action: 'play' });
    expect(decided.state.game.dice).toEqual([3, 1]);
    const play = expectedPlay(decided.state);
    expect(play.ok && play.value?.turns.map((t) => t.view.notation)).toContain('8/5 6/5');
    const soviet = start({ variant: 'short-soviet' });
    expect(soviet.expects).toEqual({ seat: 'white', action: 'roll' });
    expect(soviet.state.game.firstMover).toBe('white');
  });

  it('the wrong seat is NOT_YOUR_TURN, the right seat sending another action ACTION_NOT_EXPECTED; nothing changes', () => {
    const created = start({ variant: 'long' });
    const state = frozen(apply(created.state, 'white', { type: 'roll-off', dice: [6, 1] }).state);
    const before = JSON.stringify(state);
    expect(refused(state, 'black', { type: 'play', play: { notation: '24/18' } })).toMatchObject({
      by: 'game',
      code: 'NOT_YOUR_TURN',
      expects: { seat: 'white', action: 'roll' },
    });
    expect(refused(state, 'black', { type: 'roll', dice: [3, 2] }).code).toBe('NOT_YOUR_TURN');
    expect(refused(state, 'white', { type: 'play', play: { notation: '24/18' } })).toMatchObject({
      code: 'ACTION_NOT_EXPECTED',
      expects: { seat: 'white', action: 'roll' },
    });
    expect(refused(state, 'white', { type: 'roll', dice: [7, 2] })).toMatchObject({ by: 'rules', code: 'INVALID_DICE', field: 'dice' });
    expect(JSON.stringify(state)).toBe(before);
  });

  it('COM-7, ALG-8: a roll is played as one play; an illegal play names its rule, a prefix is INCOMPLETE_PLAY', () => {
    const created = start({ variant: 'long' });
    const rolled = apply(apply(created.state, 'white', { type: 'roll-off', dice: [6, 1] }).state, 'white', { type: 'roll', dice: [6, 5] });
    expect(rolled.expects).toEqual({ seat: 'white', action: 'play' });
    expect(rolled.events).toEqual([{ game: 1, type: 'roll', seat: 'white', dice: [6, 5] }]);
    const headTwice = refused(rolled.state, 'white', { type: 'play', play: { steps: [{ from: 24, to: 18 }, { from: 24, to: 19 }] } });
    expect(headTwice).toMatchObject({ code: 'ILLEGAL_PLAY', violation: { code: 'HEAD_RULE', rule: 'LN-HEAD-1' } });
    expect(refused(rolled.state, 'white', { type: 'play', play: { steps: [{ from: 24, to: 18 }] } })).toMatchObject({
      code: 'INCOMPLETE_PLAY',
      remainingDice: [5],
    });
    const played = apply(rolled.state, 'white', { type: 'play', play: { notation: '24/13' } });
    expect(played.events[0]).toMatchObject({ type: 'play', seat: 'white', dice: [6, 5], notation: '24/18/13' });
    expect(played.expects).toEqual({ seat: 'black', action: 'roll' });
    expect(played.state.game.opening).toBe(false);
  });

  it('MAX-5: a roll with no legal play is forfeited by the reducer itself (a no-play event)', () => {
    // White has two checkers on the bar and Black's home board is closed.
    const created = start({ variant: 'backgammon' });
    const state: GameState = {
      ...created.state,
      expects: { seat: 'white', action: 'roll' },
      game: {
        ...created.state.game,
        firstMover: 'white',
        opening: false,
        position: {
          turn: 'white',
          white: { points: { 6: 5, 8: 3, 13: 5 }, bar: 2, off: 0 },
          black: { points: { 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3 }, bar: 0, off: 0 },
        },
      },
    };
    const rolled = apply(state, 'white', { type: 'roll', dice: [6, 6] });
    expect(rolled.events.map((e) => e.type)).toEqual(['roll', 'no-play']);
    expect(rolled.expects).toEqual({ seat: 'black', action: 'roll' });
  });

  it('CUBE-2, CUBE-3: no double on the opening move; a double is taken or dropped by the doubled side; a drop ends the game at the old value', () => {
    const created = start({ variant: 'long', cube: true });
    const first = apply(created.state, 'white', { type: 'roll-off', dice: [6, 1] });
    expect(first.allowed.white).toEqual(['roll', 'resign']);
    expect(refused(first.state, 'white', { type: 'double' })).toMatchObject({ by: 'cube', code: 'NOT_BEFORE_ROLL', rule: 'CUBE-2' });
    const rolled = apply(first.state, 'white', { type: 'roll', dice: [6, 5] });
    const played = apply(rolled.state, 'white', { type: 'play', play: { notation: '24/13' } });
    expect(played.allowed.black).toEqual(['roll', 'double', 'resign']);
    const doubled = apply(played.state, 'black', { type: 'double' });
    expect(doubled.expects).toEqual({ seat: 'white', action: 'respond' });
    expect(doubled.allowed).toEqual({ white: ['take', 'drop', 'resign'], black: ['resign'] });
    expect(refused(doubled.state, 'black', { type: 'take' }).code).toBe('NOT_YOUR_TURN');
    const taken = apply(doubled.state, 'white', { type: 'take' });
    expect(taken.state.game.cube).toMatchObject({ value: 2, owner: 'white' });
    expect(taken.expects).toEqual({ seat: 'black', action: 'roll' });
    expect(taken.allowed.black).toEqual(['roll', 'resign']);
    const dropped = apply(doubled.state, 'white', { type: 'drop' });
    expect(dropped.state.status).toBe('finished');
    expect(dropped.state.game.result).toMatchObject({ winner: 'black', result: 'dropped-cube', points: 1 });
    expect(dropped.events.map((e) => e.type)).toEqual(['drop', 'game-over']);
    expect(dropped.allowed).toEqual({ white: [], black: [] });
    expect(refused(dropped.state, 'black', { type: 'roll', dice: [1, 2] }).code).toBe('GAME_FINISHED');
  });

  it('CUBE-5: equal roll-off dice double the cube automatically when the option is on (money play)', () => {
    const created = start({ variant: 'backgammon', rules: { automaticDoubles: 1 } });
    const tie = apply(created.state, 'white', { type: 'roll-off', dice: [2, 2] });
    expect(tie.state.game.cube).toMatchObject({ value: 2, owner: 'center', automaticDoubles: 1 });
    const again = apply(tie.state, 'white', { type: 'roll-off', dice: [3, 3] });
    expect(again.state.game.cube?.value).toBe(2);
  });

  it('LN-SCORE-5: the cube is off in long nardy unless asked for; CUBE-7: never in fevga', () => {
    const created = start({ variant: 'long' });
    const state = apply(created.state, 'white', { type: 'roll-off', dice: [6, 1] }).state;
    expect(refused(state, 'white', { type: 'double' })).toMatchObject({ code: 'CUBE_DISABLED', rule: 'LN-SCORE-5' });
    const refusedFevga = createGameState({ variant: 'fevga', cube: true });
    expect(!refusedFevga.ok && refusedFevga.error).toMatchObject({ code: 'INVALID_RULES', field: 'cube', rule: 'CUBE-7' });
  });

  it('resignation ends the game at the level resigned; the other seat may resign too', () => {
    const created = start({ variant: 'long' });
    const state = apply(created.state, 'white', { type: 'roll-off', dice: [6, 1] }).state;
    const resigned = apply(state, 'black', { type: 'resign', level: 'mars' });
    expect(resigned.events.map((e) => e.type)).toEqual(['resign', 'game-over']);
    expect(resigned.state.game.result).toMatchObject({ winner: 'white', points: 2 });
    expect(resigned.state.status).toBe('finished');
  });

  it('LN-MATCH-1, LN-START-3, CUBE-6: a match goes on with next-game from either seat; the previous winner starts; the Crawford game has no double', () => {
    const created = start({ variant: 'long', cube: true, match: { length: 3 } });
    let state = apply(created.state, 'white', { type: 'roll-off', dice: [6, 1] }).state;
    const won = apply(state, 'white', { type: 'resign', level: 'mars' });
    expect(won.expects).toEqual({ seat: 'black', action: 'next-game' });
    expect(won.allowed).toEqual({ white: ['next-game'], black: ['next-game'] });
    expect(won.state.match?.score).toEqual({ white: 0, black: 2 });
    expect(won.state.match?.nextGameIsCrawford).toBe(true);
    const next = apply(won.state, 'white', { type: 'next-game' });
    expect(next.events).toEqual([{ game: 1, type: 'next-game', seat: 'white' }]);
    expect(next.state.game).toMatchObject({ number: 2, firstMover: 'black', result: null, opening: true, cube: { value: 1, owner: 'center' } });
    expect(next.expects).toEqual({ seat: 'black', action: 'roll' });
    // Only after the opening move could anyone double: in the Crawford game nobody may.
    state = apply(next.state, 'black', { type: 'roll', dice: [6, 5] }).state;
    state = apply(state, 'black', { type: 'play', play: { notation: '24/13' } }).state;
    expect(allowedActions(state).white).toEqual(['roll', 'resign']);
    expect(refused(state, 'white', { type: 'double' })).toMatchObject({ code: 'CRAWFORD_NO_DOUBLE', rule: 'CUBE-6' });
    const over = apply(state, 'white', { type: 'resign', level: 'single' });
    expect(over.state.match?.score).toEqual({ white: 0, black: 3 });
    expect(over.state.match?.winner).toBe('black');
    expect(over.state.status).toBe('finished');
    expect(over.expects).toBeNull();
  });

  it('LN-SCORE-6: with the last roll on, the second mover rolls once more after the first mover bore off; no double on it', () => {
    const created = start({ variant: 'long', rules: { lastRoll: 'drawIfCompletes' }, cube: true });
    const base = apply(created.state, 'white', { type: 'roll-off', dice: [6, 1] }).state;
    // White (first mover) bears off his last checker; Black has one checker left.
    const state: GameState = {
      ...base,
      expects: { seat: 'white', action: 'roll' },
      game: {
        ...base.game,
        opening: false,
        position: {
          turn: 'white',
          white: { points: { 1: 1 }, off: 14 },
          black: { points: { 1: 1 }, off: 14 },
          firstTurn: { white: false, black: false },
        },
      },
    };
    const rolled = apply(state, 'white', { type: 'roll', dice: [2, 1] });
    expect(rolled.expects).toEqual({ seat: 'white', action: 'play' });
    const borne = apply(rolled.state, 'white', { type: 'play', play: { steps: [{ from: 1, to: 0 }] } });
    expect(borne.expects).toEqual({ seat: 'black', action: 'roll' });
    expect(borne.state.game.lastRoll).toBe(true);
    expect(borne.allowed.black).toEqual(['roll', 'resign']);
    const last = apply(apply(borne.state, 'black', { type: 'roll', dice: [3, 4] }).state, 'black', { type: 'play', play: { steps: [{ from: 1, to: 0 }] } });
    expect(last.state.status).toBe('finished');
    expect(last.state.game.result).toMatchObject({ winner: null, points: 0 });
  });

  it('a state is plain JSON: the same answer from its JSON round trip', () => {
    const created = start({ variant: 'nardgammon', cube: true, match: { length: 5 } });
    const state = apply(created.state, 'white', { type: 'roll-off', dice: [3, 5] }).state;
    const copy = JSON.parse(JSON.stringify(state)) as GameState;
    expect(copy).toEqual(state);
    expect(apply(copy, 'black', { type: 'roll', dice: [6, 6] })).toEqual(apply(state, 'black', { type: 'roll', dice: [6, 6] }));
  });
});
