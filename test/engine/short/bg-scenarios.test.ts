import { makeNotation } from '../../../src/engine/notation';
import { initialShortPosition } from '../../../src/engine/short/position';
import { SHORT_PRESETS } from '../../../src/engine/short/rules';
import { shortOpening } from '../../../src/engine/short/opening';
import {
  given,
  moverAfter,
  opponentAfter,
  plays,
  results,
  rolls,
  spec,
  steps,
  validate,
} from './support/builder';

/*
 * SPEC §7.3, the short-nardy / backgammon scenarios (BG-T12 and BG-T14…19
 * are about scoring and the cube, outside the movement rules tested here).
 * White is to move unless a test says otherwise.
 *
 * BG-T06, BG-T07 and BG-T10 in the spec put Black's spare checkers on his
 * point 24, which is white's point 1 where white has 14 checkers — not a
 * position. Here those spare checkers stand on Black's point 1 (white's 24),
 * where they touch none of white's moves.
 */

describe('SPEC §7.3 short nardy / backgammon', () => {
  it('BG-T01 opening: the standard position with 3-1 has 16 results, 8/5 6/5 among them', () => {
    // Given the start of a game (SH-INIT-1)
    const start = initialShortPosition('white');
    // When white plays the roll-off dice 3 and 1
    const turns = rolls(start, [3, 1]);
    // Then
    expect(turns.turns).toHaveLength(16);
    expect(turns.unitsUsed).toBe(2);
    expect(turns.turns.map((t) => moverAfter(t, 'white'))).toContain(spec('W{24:2, 13:5, 8:2, 6:4, 5:2}'));
    expect(plays(turns)).toContain('8/5 6/5');
  });

  it('BG-T01 the opening move is never a double under useRollOffDice', () => {
    const rules = SHORT_PRESETS.backgammon;
    expect(rules.openingRoll).toBe('useRollOffDice');
    for (let w = 1; w <= 6; w++) {
      for (let b = 1; b <= 6; b++) {
        const opening = shortOpening(rules, { white: w, black: b });
        if (!opening.ok) throw new Error(opening.error.message);
        const o = opening.value;
        if (w === b) expect(o.kind).toBe('reroll');
        else if (o.kind === 'start') {
          expect(o.dice).not.toBeNull();
          expect(o.dice?.[0]).not.toBe(o.dice?.[1]);
          expect(o.starter).toBe(w > b ? 'white' : 'black');
        } else throw new Error('a decided roll-off must start the game');
      }
    }
  });

  it('BG-T02 bar, both entry points closed: no legal play even though other checkers could move', () => {
    const position = given('W{13:5, 8:4, 6:5} bar:1', 'B{6:2, 1:2, 13:11}');
    const turns = rolls(position, [6, 1]);
    expect(turns.unitsUsed).toBe(0);
    expect(turns.turns).toHaveLength(1);
    expect(turns.turns[0].steps).toEqual([]);
    const v = validate(position, [6, 1], steps('13/7'));
    expect(v.legal).toBe(false);
    if (!v.legal)
      expect(v.error).toMatchObject({ code: 'MUST_ENTER_FROM_BAR', stepIndex: 0, rule: 'SH-BAR-1' });
  });

  it('BG-T03 enter, then move: bar/24 with the 1, then the 6 by any checker — exactly three results', () => {
    const turns = rolls(given('W{13:5, 8:4, 6:5} bar:1', 'B{6:2, 13:13}'), [6, 1]);
    expect(turns.turns.map((t) => moverAfter(t, 'white')).sort()).toEqual(
      [
        spec('W{18:1, 13:5, 8:4, 6:5}'),
        spec('W{24:1, 13:4, 8:4, 7:1, 6:5}'),
        spec('W{24:1, 13:5, 8:3, 6:5, 2:1}'),
      ].sort(),
    );
    expect(plays(turns)).toEqual(['bar/24 13/7', 'bar/24 8/2', 'bar/24/18']);
  });

  it('BG-T04 two on the bar, one enters: the 6 is lost and no other checker may move', () => {
    const position = given('W{13:5, 8:3, 6:5} bar:2', 'B{6:2, 5:2, 4:2, 3:2, 2:2, 13:5}');
    const turns = rolls(position, [6, 1]);
    expect(turns.unitsUsed).toBe(1);
    expect(turns.turns.map((t) => moverAfter(t, 'white'))).toEqual([spec('W{24:1, 13:5, 8:3, 6:5} bar:1')]);
    const v = validate(position, [6, 1], steps('25/24 13/7'));
    expect(v.legal).toBe(false);
    if (!v.legal) expect(v.error).toMatchObject({ code: 'MUST_ENTER_FROM_BAR', stepIndex: 1 });
  });

  it('BG-T05 hitting in passing depends on the route: 13/10*/5 and 13/8/5 are different results', () => {
    const turns = rolls(given('W{13:1, 6:14}', 'B{15:1, 24:14}'), [3, 5]);
    expect(results(turns)).toEqual(
      [
        `${spec('W{6:14, 5:1}')} | ${spec('B{24:14} bar:1')}`, // 13/10*/5
        `${spec('W{6:14, 5:1}')} | ${spec('B{24:14, 15:1}')}`, // 13/8/5
        `${spec('W{8:1, 6:13, 3:1}')} | ${spec('B{24:14, 15:1}')}`, // 13/8 6/3
      ].sort(),
    );
    expect(plays(turns)).toEqual(['13/10*/5', '13/8 6/3', '13/8/5']);
  });

  it('BG-T06 a closed intermediate: no legal play although W5 is open', () => {
    const turns = rolls(given('W{13:1, 1:14}', 'B{18:2, 14:2, 1:11}'), [6, 2]);
    expect(turns.unitsUsed).toBe(0);
    expect(turns.turns.map((t) => t.steps)).toEqual([[]]);
  });

  it('BG-T07 the larger die: each die is playable alone but not both, so 12/6 is the one result', () => {
    const position = given('W{12:1, 1:14}', 'B{23:2, 1:13}');
    const turns = rolls(position, [6, 4]);
    expect(turns.unitsUsed).toBe(1);
    expect(plays(turns)).toEqual(['12/6']);
    const v = validate(position, [6, 4], steps('12/8'));
    expect(v.legal).toBe(false);
    if (!v.legal) expect(v.error).toMatchObject({ code: 'MUST_USE_LARGER_DIE', stepIndex: 0, rule: 'MAX-2' });
  });

  it('BG-T08 bear-off blocked by back checkers: the 6 bears off from W5 and the 4 is lost', () => {
    const position = given('W{5:2, 3:1, 2:12}', 'B{24:15}');
    const turns = rolls(position, [6, 4]);
    expect(turns.unitsUsed).toBe(1);
    expect(turns.turns.map((t) => moverAfter(t, 'white'))).toEqual([spec('W{5:1, 3:1, 2:12} off:1')]);
    const v = validate(position, [6, 4], steps('5/off 3/off'));
    expect(v.legal).toBe(false);
    if (!v.legal) expect(v.error).toMatchObject({ code: 'BEAR_OFF_HIGHER_CHECKER', stepIndex: 1 });
    const blocked = validate(position, [6, 4], steps('5/1'));
    expect(blocked.legal).toBe(false);
    if (!blocked.legal) expect(blocked.error).toMatchObject({ code: 'BLOCKED_POINT', stepIndex: 0 });
  });

  it('BG-T09 bar during the bear-off phase: exactly three results and no bear-off', () => {
    const position = given('W{5:2, 2:12} bar:1', 'B{1:1, 24:14}');
    const turns = rolls(position, [6, 1]);
    expect(plays(turns)).toEqual(['bar/19 5/4', 'bar/19/18', 'bar/24*/18']);
    expect(turns.turns.every((t) => t.steps.every((s) => s.to !== 0))).toBe(true);
    const v = validate(position, [6, 1], steps('25/24 5/off'));
    expect(v.legal).toBe(false);
    if (!v.legal)
      expect(v.error).toMatchObject({ code: 'BEAR_OFF_NOT_ALL_HOME', stepIndex: 1, rule: 'SH-OFF-1' });
  });

  it('BG-T10 a double partly playable: 3-3 plays only 20/17, 6-6 nothing', () => {
    const position = given('W{20:1, 1:14}', 'B{11:2, 1:13}');
    const threes = rolls(position, [3, 3]);
    expect(threes.unitsUsed).toBe(1);
    expect(plays(threes)).toEqual(['20/17']);
    const sixes = rolls(position, [6, 6]);
    expect(sixes.unitsUsed).toBe(0);
    expect(sixes.turns.map((t) => t.steps)).toEqual([[]]);
  });

  it('BG-T11 the last checker goes with one die: 6/off ends the game and is legal', () => {
    const position = given('W{6:1} off:14', 'B{1:15}');
    const turns = rolls(position, [6, 5]);
    expect(turns.turns).toHaveLength(1);
    const [won] = turns.turns;
    expect(won).toMatchObject({ gameOver: true, winner: 'white', steps: [{ from: 6, to: 0 }] });
    expect(won.position.turn).toBe('white');
    const v = validate(position, [6, 5], steps('6/off'));
    expect(v).toMatchObject({ legal: true, complete: true });
    // The longer way to the same position is legal too (MAX-6).
    expect(validate(position, [6, 5], steps('6/1 1/off'))).toMatchObject({ legal: true, complete: true });
    const more = validate(position, [6, 5], steps('6/off 6/1'));
    expect(more.legal).toBe(false);
    if (!more.legal)
      expect(more.error).toMatchObject({ code: 'TOO_MANY_STEPS', stepIndex: 1, rule: 'MAX-6' });
  });

  it('BG-T13 hit and bear off in the same turn: three results, 6/4* then 4/off among them', () => {
    const position = given('W{6:1, 3:2, 2:12}', 'B{21:1, 1:14}');
    const turns = rolls(position, [4, 2]);
    expect(turns.turns).toHaveLength(3);
    expect(plays(turns)).toContain('6/4*/off');
    const hitAndOff = turns.turns.find((t) => makeNotation(t.steps, t.hits) === '6/4*/off');
    expect(hitAndOff && opponentAfter(hitAndOff, 'white')).toBe(spec('B{1:14} bar:1'));
    expect(validate(position, [4, 2], steps('6/4 4/off'))).toMatchObject({ legal: true, complete: true });
  });
});
