import { validateLongPlay } from '../../../src/engine/long/validate';
import { given, results, rules, spec, specs, turnsOf } from '../../support/long-builder';

/*
 * SPEC §7.1, long nardy classic: every legal-play scenario as a named test.
 * Unless a test says otherwise White is to move and it is not a first turn.
 */

const classic = rules('long');
const start = (turn: 'white' | 'black' = 'white') =>
  given({ white: { 24: 15 }, black: { 24: 15 }, turn, firstTurn: { white: true, black: true } });

describe('SPEC §7.1 long nardy classic', () => {
  it('LN-T01 first turn, 6-6: two checkers leave the head, two sixes are lost', () => {
    const t = turnsOf(classic, start(), [6, 6]);
    expect(t.turns.map((x) => x.steps.length)).toEqual([2]);
    expect(results(classic, start(), [6, 6])).toEqual(specs('W{24:13, 18:2}'));
    expect(t.unitsUsed).toBe(2);
    expect(t.stage.headAllowance).toBe(2);
  });

  it('LN-T02 first turn, 4-4', () => {
    expect(results(classic, start(), [4, 4])).toEqual(specs('W{24:13, 16:2}'));
    expect(turnsOf(classic, start(), [4, 4]).unitsUsed).toBe(4);
  });

  it('LN-T03 first turn, 3-3: exactly two results', () => {
    expect(results(classic, start(), [3, 3])).toEqual(specs('W{24:13, 21:1, 15:1}', 'W{24:13, 18:2}'));
  });

  it('LN-T04 first turn, 5-5: no exception, one checker plays all four', () => {
    expect(results(classic, start(), [5, 5])).toEqual(specs('W{24:14, 4:1}'));
    expect(turnsOf(classic, start(), [5, 5]).stage.headAllowance).toBe(1);
  });

  it('LN-T05 first turn, 2-2, exception modes', () => {
    expect(results(classic, start(), [2, 2])).toEqual(specs('W{24:14, 16:1}'));
    expect(results(rules('long', { firstTurnHeadException: 'anyDouble' }), start(), [2, 2])).toEqual(
      specs('W{24:14, 16:1}', 'W{24:13, 22:1, 18:1}', 'W{24:13, 20:2}'),
    );
  });

  it('LN-T06 first turn, non-double 6-5', () => {
    expect(results(classic, start(), [6, 5])).toEqual(specs('W{24:14, 13:1}'));
  });

  it('LN-T07 second mover, 6-6', () => {
    const state = given({ white: { 24: 14, 13: 1 }, black: { 24: 15 }, turn: 'black', firstTurn: { white: false, black: true } });
    expect(results(classic, state, [6, 6])).toEqual(specs('B{24:13, 18:2}'));
    expect(turnsOf(classic, state, [6, 6]).unitsUsed).toBe(2);
  });

  it('LN-T08 second mover, 4-4 with the lone path blocked', () => {
    const state = given({ white: { 24: 14, 4: 1 }, black: { 24: 15 }, turn: 'black', firstTurn: { white: false, black: true } });
    for (const mode of ['conditional', 'fixedDoubles', 'anyDouble'] as const) {
      expect(results(rules('long', { firstTurnHeadException: mode }), state, [4, 4])).toEqual(specs('B{24:13, 20:2}'));
    }
    expect(results(rules('long', { firstTurnHeadException: 'none' }), state, [4, 4])).toEqual(specs('B{24:14, 20:1}'));
  });

  it('LN-T09 second mover, 2-2: the mode matters', () => {
    const state = given({ white: { 24: 14, 4: 1 }, black: { 24: 15 }, turn: 'black', firstTurn: { white: false, black: true } });
    expect(results(classic, state, [2, 2])).toEqual(specs('B{24:13, 22:1, 18:1}', 'B{24:13, 20:2}'));
    const fixed = rules('long', { firstTurnHeadException: 'fixedDoubles' });
    expect(results(fixed, state, [2, 2])).toEqual(specs('B{24:14, 18:1}'));
    expect(turnsOf(fixed, state, [2, 2]).unitsUsed).toBe(3);
  });

  it('LN-T10 second mover, 5-5: the mode matters', () => {
    const state = given({ white: { 24: 14, 16: 1 }, black: { 24: 15 }, turn: 'black', firstTurn: { white: false, black: true } });
    expect(results(classic, state, [5, 5])).toEqual(specs('B{24:13, 19:1, 9:1}', 'B{24:13, 14:2}'));
    const fixed = rules('long', { firstTurnHeadException: 'fixedDoubles' });
    expect(results(fixed, state, [5, 5])).toEqual(specs('B{24:14, 9:1}'));
    expect(turnsOf(fixed, state, [5, 5]).unitsUsed).toBe(3);
  });

  it('LN-T11 the exception is for the first turn only', () => {
    const state = given({ white: { 24: 13, 13: 2 }, black: { 24: 15 } });
    expect(results(classic, state, [6, 6])).toEqual(specs('W{24:13, 1:2}', 'W{24:12, 18:1, 7:1, 1:1}'));
  });

  it('LN-T12 the head rule counts checkers, not steps', () => {
    const state = given({ white: { 24: 10, 8: 5 }, black: { 24: 15 } });
    const found = results(classic, state, [6, 5]);
    expect(found).toContain(spec('W{24:9, 13:1, 8:5}'));
    for (const t of turnsOf(classic, state, [6, 5]).turns) {
      expect(t.board[24]).toBeGreaterThanOrEqual(9);
    }
  });

  it('LN-T13 intermediate landings; no legal play', () => {
    const state = given({ white: { 10: 1, 1: 14 }, black: { 17: 1, 19: 1, 24: 13 } });
    const t = turnsOf(classic, state, [5, 3]);
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0].steps).toEqual([]);
    expect(t.unitsUsed).toBe(0);
    expect(results(classic, state, [5, 3])).toEqual(specs('W{10:1, 1:14}'));
  });

  it('LN-T14 only one die is playable: the larger', () => {
    const state = given({ white: { 12: 1, 1: 14 }, black: { 15: 1, 8: 14 } });
    expect(results(classic, state, [6, 3])).toEqual(specs('W{6:1, 1:14}'));
    const v = validateLongPlay(classic, state, [6, 3], [{ from: 12, to: 9 }]);
    expect(v.ok && !v.value.legal && v.value.error.code).toBe('MUST_USE_LARGER_DIE');
  });

  it('LN-T15 the larger die is impossible, so play the smaller', () => {
    const state = given({ white: { 12: 1, 1: 14 }, black: { 15: 1, 18: 1, 8: 13 } });
    expect(results(classic, state, [6, 3])).toEqual(specs('W{9:1, 1:14}'));
  });

  it('LN-T16 order forced: smaller first, then both', () => {
    const state = given({ white: { 12: 1, 1: 14 }, black: { 18: 1, 8: 14 } });
    expect(results(classic, state, [6, 3])).toEqual(specs('W{3:1, 1:14}'));
    expect(turnsOf(classic, state, [6, 3]).turns[0].steps).toEqual([
      { from: 12, to: 9 },
      { from: 9, to: 3 },
    ]);
  });

  const t17 = { 22: 1, 20: 2, 19: 1, 18: 1, 17: 1, 16: 1, 1: 8 };
  const blockResult = spec('W{21:1, 20:1, 19:1, 18:2, 17:1, 16:1, 1:8}');

  it('LN-T17 six-block with no opponent ahead', () => {
    const found = results(classic, given({ white: t17, black: { 24: 15 } }), [2, 1]);
    expect(found).not.toContain(blockResult);
    expect(found).toHaveLength(28);
    const v = validateLongPlay(classic, given({ white: t17, black: { 24: 15 } }), [2, 1], [
      { from: 22, to: 21 },
      { from: 20, to: 18 },
    ]);
    expect(v.ok && !v.value.legal && v.value.error.code).toBe('SIX_BLOCK');
  });

  it('LN-T18 the same block with an opponent checker ahead', () => {
    for (const ahead of [2, 3, 1]) {
      expect(results(classic, given({ white: t17, black: { 24: 14, [ahead]: 1 } }), [2, 1])).toContain(blockResult);
    }
    expect(results(classic, given({ white: t17, black: { 24: 14, 12: 1 } }), [2, 1])).not.toContain(blockResult);
  });

  it('LN-T19 needOpponentInHome is stricter', () => {
    const state = given({ white: { 9: 4, 8: 1, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2 }, black: { 10: 1, 22: 14 } });
    const target = spec('W{9:4, 7:1, 6:2, 5:1, 4:2, 3:2, 2:3}');
    expect(results(classic, state, [3, 1])).toContain(target);
    expect(results(rules('long', { sixBlock: 'needOpponentInHome' }), state, [3, 1])).not.toContain(target);
  });

  it('LN-T20 temporary block: classic vs Nardgammon', () => {
    const state = given({ white: { 24: 10, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1 }, black: { 11: 1, 24: 14 } });
    const target = spec('W{24:9, 20:2, 19:1, 18:1, 17:1, 16:1}');
    const classicResults = results(classic, state, [3, 1]);
    expect(classicResults).toContain(target);
    expect(classicResults).toHaveLength(24);
    const nardgammon = results(rules('nardgammon'), state, [3, 1]);
    expect(nardgammon).not.toContain(target);
    expect(nardgammon).toHaveLength(23);
  });

  it('LN-T21 a block across White’s 1/24 seam', () => {
    const white = { 24: 5, 23: 1, 22: 2, 2: 1, 1: 6 };
    const seamHeld = (r: string) => [24, 23, 22, 21, 2, 1].every((p) => new RegExp(`[{ ]${p}:`).test(r));
    const without = results(classic, given({ white, black: { 20: 15 } }), [2, 1]);
    expect(without.length).toBeGreaterThan(0);
    expect(without.filter(seamHeld)).toEqual([]);
    const withAhead = results(classic, given({ white, black: { 20: 14, 5: 1 } }), [2, 1]);
    expect(withAhead.filter(seamHeld).length).toBeGreaterThan(0);
  });

  it('LN-T22 not a block across Black’s start and finish', () => {
    const state = given({ white: { 15: 1, 13: 1, 12: 1, 11: 2, 10: 1, 9: 1, 1: 8 }, black: { 20: 15 } });
    expect(results(classic, state, [1, 2])).toContain(spec('W{14:1, 13:1, 12:1, 11:1, 10:1, 9:2, 1:8}'));
  });

  it('LN-T23 the block rule applies before the maximum: forced pass', () => {
    const state = given({ white: { 8: 1, 6: 4, 5: 3, 4: 3, 3: 2, 1: 2 }, black: { 22: 15 } });
    const t = turnsOf(classic, state, [6, 6]);
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0].steps).toEqual([]);
    const control1 = given({ white: { 8: 1, 6: 3, 5: 4, 4: 3, 3: 2, 1: 2 }, black: { 22: 15 } });
    expect(results(classic, control1, [6, 6])).toEqual(specs('W{5:4, 4:3, 3:2, 2:1, 1:2} off:3'));
    expect(turnsOf(classic, control1, [6, 6]).unitsUsed).toBe(4);
    const control2 = given({ white: { 8: 1, 6: 4, 5: 3, 4: 3, 3: 2, 1: 2 }, black: { 22: 14, 12: 1 } });
    expect(turnsOf(classic, control2, [6, 6]).unitsUsed).toBe(4);
  });

  it('LN-T24 bear-off, higher-point rule', () => {
    const state = given({ white: { 5: 2, 3: 1, 2: 12 }, black: { 20: 15 } });
    expect(results(classic, state, [6, 4])).toEqual(specs('W{3:1, 2:12, 1:1} off:1'));
    const v = validateLongPlay(classic, state, [6, 4], [{ from: 3, to: 0 }]);
    expect(v.ok && !v.value.legal && v.value.error.code).toBe('BEAR_OFF_HIGHER_CHECKER');
  });

  it('LN-T25 both dice exceed the highest point', () => {
    expect(results(classic, given({ white: { 2: 5, 1: 10 }, black: { 20: 15 } }), [6, 5])).toEqual(specs('W{2:3, 1:10} off:2'));
  });

  it('LN-T26 bearing off is optional', () => {
    expect(results(classic, given({ white: { 6: 1, 1: 14 }, black: { 20: 15 } }), [2, 1])).toEqual(
      specs('W{4:1, 1:13} off:1', 'W{3:1, 1:14}'),
    );
  });

  it('LN-T27 enter home, then bear off in the same turn', () => {
    const state = given({ white: { 7: 1, 3: 14 }, black: { 8: 15 } });
    expect(results(classic, state, [3, 1])).toEqual(specs('W{4:1, 3:13, 2:1}', 'W{3:15}', 'W{6:1, 3:13} off:1'));
    const v = validateLongPlay(classic, state, [3, 1], [{ from: 3, to: 0 }]);
    expect(v.ok && !v.value.legal && v.value.error.code).toBe('BEAR_OFF_NOT_ALL_HOME');
  });

  it('LN-T28 opponent checkers inside my home', () => {
    expect(results(classic, given({ white: { 6: 1, 2: 14 }, black: { 16: 1, 17: 1, 20: 13 } }), [2, 1])).toEqual(
      specs('W{6:1, 2:12, 1:1} off:1'),
    );
  });

  it('LN-T29 the last checker goes with one die (MAX-6)', () => {
    const state = given({ white: { 6: 1 }, black: { 20: 15 } });
    const t = turnsOf(classic, state, [6, 5]);
    expect(t.turns.map((x) => x.next.kind)).toContain('gameOver');
    const v = validateLongPlay(classic, state, [6, 5], [{ from: 6, to: 0 }]);
    expect(v.ok && v.value.legal && v.value.complete).toBe(true);
    if (v.ok && v.value.legal && v.value.complete) expect(v.value.turn.next).toEqual({ kind: 'gameOver', actor: null, winner: 'white' });
  });

  it('LN-T30 a double only partly playable', () => {
    const state = given({ white: { 10: 1, 1: 14 }, black: { 16: 1, 20: 14 } });
    expect(results(classic, state, [3, 3])).toEqual(specs('W{7:1, 1:14}'));
    expect(turnsOf(classic, state, [3, 3]).unitsUsed).toBe(1);
  });

  it('LN-T31 a double enters home and then bears off', () => {
    expect(results(classic, given({ white: { 9: 1, 2: 14 }, black: { 13: 1, 20: 14 } }), [2, 2])).toEqual(
      specs('W{5:1, 2:12} off:2', 'W{3:1, 2:13} off:1'),
    );
  });

  it('LN-T32 landing on the opponent’s empty head point', () => {
    const state = given({ white: { 18: 1, 1: 14 }, black: { 20: 15 } });
    expect(results(classic, state, [6, 5])).toEqual(specs('W{7:1, 1:14}'));
    for (const steps of [
      [
        { from: 18, to: 12 },
        { from: 12, to: 7 },
      ],
      [
        { from: 18, to: 13 },
        { from: 13, to: 7 },
      ],
    ]) {
      const v = validateLongPlay(classic, state, [6, 5], steps);
      expect(v.ok && v.value.legal && v.value.complete).toBe(true);
    }
  });

  it('LN-T33 no hitting', () => {
    const state = given({ white: { 13: 1, 1: 14 }, black: { 22: 1, 19: 14 } });
    expect(results(classic, state, [3, 2])).toEqual(specs('W{8:1, 1:14}'));
    const v = validateLongPlay(classic, state, [3, 2], [{ from: 13, to: 10 }]);
    expect(v.ok && !v.value.legal && v.value.error).toMatchObject({ code: 'BLOCKED_POINT', stepIndex: 0 });
  });

  it('LN-T36 the first-turn flag is per player', () => {
    const state = given({
      white: { 24: 12, 18: 1, 13: 1, 8: 1 },
      black: { 24: 13, 19: 1, 14: 1 },
      turn: 'black',
      firstTurn: { white: false, black: false },
    });
    const t = turnsOf(classic, state, [6, 6]);
    expect(t.stage.headAllowance).toBe(1);
    for (const turn of t.turns) expect(turn.board[24]).toBeGreaterThanOrEqual(12);
  });
});
