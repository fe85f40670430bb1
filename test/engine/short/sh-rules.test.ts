import { parseNotation } from '../../../src/engine/notation';
import { flipBoard, moverPips, opponentPips } from '../../../src/engine/short/board';
import {
  initialShortPosition,
  makeShortPositionJson,
  parseShortPosition,
  withShortTurn,
} from '../../../src/engine/short/position';
import { SHORT_PRESETS, SHORT_STANDARD } from '../../../src/engine/short/rules';
import { legalShortTurns } from '../../../src/engine/short/turn';
import { validateShortNotation, validateShortPlay } from '../../../src/engine/short/validate';
import { nextShortGameStarter, shortOpening } from '../../../src/engine/short/opening';
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

/* Rule tests named after the SPEC §5 rule IDs (with the MAX-* and ALG-* rules they rely on). */

describe('SH-INIT and COM-5: start position and numbering', () => {
  it('SH-INIT-1 each side has 2 on 24, 5 on 13, 3 on 8 and 5 on 6; black stands on W1, W12, W17, W19', () => {
    const start = initialShortPosition('white');
    const json = makeShortPositionJson(start);
    expect(json.white).toEqual({ points: { '24': 2, '13': 5, '8': 3, '6': 5 }, bar: 0, off: 0 });
    expect(json.black).toEqual({ points: { '24': 2, '13': 5, '8': 3, '6': 5 }, bar: 0, off: 0 });
    const b = start.board; // seen from white: black's checkers are negative
    expect([b[1], b[12], b[17], b[19]]).toEqual([-2, -5, -3, -5]);
  });

  it('COM-3 pip counts at the start are 167 each; the bar counts 25', () => {
    expect(moverPips(initialShortPosition().board)).toBe(167);
    expect(opponentPips(initialShortPosition().board)).toBe(167);
    const p = given('W{24:2, 13:5, 8:3, 6:4} bar:1', 'B{24:2, 13:5, 8:3, 6:5}');
    expect(moverPips(p.board)).toBe(167 - 6 + 25);
  });

  it("COM-5 white's point p is black's 25 − p, and the board flips with one call", () => {
    const p = given('W{20:1, 6:14}', 'B{22:1, 6:14}');
    expect(p.board[20]).toBe(1);
    expect(p.board[3]).toBe(-1); // black's 22
    const asBlack = withShortTurn(p, 'black');
    expect(asBlack.board[22]).toBe(1);
    expect(asBlack.board[5]).toBe(-1); // white's 20
    expect(flipBoard(asBlack.board)).toEqual(p.board);
  });
});

describe('JSON position contract', () => {
  const start = {
    turn: 'white',
    white: { points: { '24': 2, '13': 5, '8': 3, '6': 5 } },
    black: { points: { '24': 2, '13': 5, '8': 3, '6': 5 }, bar: 0, off: 0 },
  };

  it('parses and makes the contract; bar and off default to 0 and are always written', () => {
    const parsed = parseShortPosition(start);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.value.board).toEqual(initialShortPosition('white').board);
    expect(makeShortPositionJson(parsed.value)).toEqual({
      turn: 'white',
      white: { points: { '24': 2, '13': 5, '8': 3, '6': 5 }, bar: 0, off: 0 },
      black: { points: { '24': 2, '13': 5, '8': 3, '6': 5 }, bar: 0, off: 0 },
    });
  });

  it('round-trips an asymmetric position with a checker on each bar, seen from either side', () => {
    const json = {
      turn: 'black' as const,
      white: { points: { '24': 1, '13': 5, '8': 3, '6': 4, '3': 1 }, bar: 1, off: 0 },
      black: { points: { '20': 2, '13': 4, '6': 5, '2': 1 }, bar: 1, off: 2 },
    };
    const parsed = parseShortPosition(json);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.value.board[25]).toBe(1); // black (to move) on the bar
    expect(parsed.value.board[26]).toBe(1); // white on the bar
    expect(parsed.value.board[0]).toBe(2); // black's off
    expect(makeShortPositionJson(parsed.value)).toEqual(json);
    expect(makeShortPositionJson(withShortTurn(parsed.value, 'white'))).toEqual({ ...json, turn: 'white' });
  });

  it('rejects unknown fields with their path', () => {
    const r = parseShortPosition({ ...start, white: { ...start.white, home: 3 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'position.white.home' });
    const top = parseShortPosition({ ...start, cube: 2 }, 'game.position');
    if (!top.ok) expect(top.error).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'game.position.cube' });
    else throw new Error('an unknown field was accepted');
  });

  it('rejects wrong checker counts, shared points and non-integers', () => {
    const fourteen = parseShortPosition({
      ...start,
      white: { points: { '24': 2, '13': 5, '8': 3, '6': 4 } },
    });
    if (fourteen.ok) throw new Error('14 checkers accepted');
    expect(fourteen.error).toMatchObject({ code: 'WRONG_CHECKER_COUNT', field: 'position.white' });
    const sixteen = parseShortPosition({
      ...start,
      black: { points: { '24': 2, '13': 5, '8': 3, '6': 5 }, bar: 1 },
    });
    if (sixteen.ok) throw new Error('16 checkers accepted');
    expect(sixteen.error.code).toBe('WRONG_CHECKER_COUNT');
    // white's 1 is black's 24
    const shared = parseShortPosition({ ...start, white: { points: { '1': 2, '13': 5, '8': 3, '6': 5 } } });
    if (shared.ok) throw new Error('a shared point was accepted');
    expect(shared.error).toMatchObject({ code: 'POINT_HELD_BY_BOTH', field: 'position.black.points.24' });
    for (const bad of [{ '24': 2.5 }, { '24': '2' }, { '25': 2 }, { '0': 1 }, { '-1': 1 }]) {
      const r = parseShortPosition({ ...start, white: { points: { ...bad, '13': 5 } } });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_POSITION');
    }
    const negativeBar = parseShortPosition({ ...start, white: { ...start.white, bar: -1 } });
    if (!negativeBar.ok)
      expect(negativeBar.error).toMatchObject({ code: 'INVALID_POSITION', field: 'position.white.bar' });
    else throw new Error('a negative bar was accepted');
    const turn = parseShortPosition({ ...start, turn: 'red' });
    if (!turn.ok) expect(turn.error).toMatchObject({ code: 'INVALID_POSITION', field: 'position.turn' });
    else throw new Error('turn red was accepted');
  });

  it('GAME_OVER when a side has already borne off 15', () => {
    const over = given('W{} off:15', 'B{6:15}');
    const r = legalShortTurns(SHORT_STANDARD, over, [3, 1]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('GAME_OVER');
  });
});

describe('SH-MOVE: movement and hitting', () => {
  it('SH-MOVE-1 a point held by two or more opponent checkers is closed', () => {
    const position = given('W{13:1, 6:14}', 'B{14:2, 24:13}'); // black holds W11
    expect(plays(rolls(position, [2, 1]))).not.toContain('13/11');
    const v = validate(position, [2, 1], steps('13/11'));
    if (v.legal) throw new Error('landed on a closed point');
    expect(v.error).toMatchObject({ code: 'BLOCKED_POINT', stepIndex: 0, rule: 'SH-MOVE-1' });
  });

  it('SH-MOVE-1 landing on a blot hits it: it goes to its owner’s bar; hitting is never compulsory', () => {
    const position = given('W{13:1, 6:14}', 'B{14:1, 24:14}'); // a black blot on W11
    const turns = rolls(position, [2, 1]);
    const hit = turns.turns.find((t) => t.steps.some((s) => s.to === 11) && t.hits.some(Boolean));
    expect(hit).toBeDefined();
    if (hit) expect(opponentAfter(hit, 'white')).toBe(spec('B{24:14} bar:1'));
    // a play that does not hit exists too
    expect(turns.turns.some((t) => !t.hits.some(Boolean))).toBe(true);
  });

  it('SH-MOVE-2 every intermediate landing must be open', () => {
    const position = given('W{13:1, 6:14}', 'B{15:2, 16:2, 24:11}'); // W10 and W9 closed
    const turns = rolls(position, [4, 3]);
    expect(plays(turns).some((p) => p.startsWith('13/'))).toBe(false);
    const v = validate(position, [4, 3], steps('13/10 10/6'));
    if (v.legal) throw new Error('passed through a closed point');
    expect(v.error).toMatchObject({ code: 'BLOCKED_POINT', stepIndex: 0 });
  });

  it('SH-MOVE-2 the route decides a hit in passing (see BG-T05); both routes validate', () => {
    const position = given('W{13:1, 6:14}', 'B{15:1, 24:14}');
    const viaHit = validate(position, [3, 5], steps('13/10 10/5'));
    const quiet = validate(position, [3, 5], steps('13/8 8/5'));
    if (!viaHit.legal || !viaHit.complete || !quiet.legal || !quiet.complete)
      throw new Error('both routes are legal');
    expect(viaHit.turn.hits).toEqual([true, false]);
    expect(opponentAfter(viaHit.turn, 'white')).toBe(spec('B{24:14} bar:1'));
    expect(opponentAfter(quiet.turn, 'white')).toBe(spec('B{24:14, 15:1}'));
  });
});

describe('SH-BAR: the bar', () => {
  it('SH-BAR-1 a checker on the bar enters before any other checker moves', () => {
    const position = given('W{13:5, 8:4, 6:5} bar:1', 'B{13:15}');
    const turns = rolls(position, [5, 2]);
    expect(turns.turns.every((t) => t.steps[0].from === 25)).toBe(true);
    const v = validate(position, [5, 2], steps('13/8 25/23'));
    if (v.legal) throw new Error('moved with a checker on the bar');
    expect(v.error).toMatchObject({ code: 'MUST_ENTER_FROM_BAR', stepIndex: 0, rule: 'SH-BAR-1' });
  });

  it('SH-BAR-1 entering with die d lands on own point 25 − d and may hit', () => {
    const position = given('W{13:5, 8:4, 6:5} bar:1', 'B{3:1, 13:14}'); // a black blot on W22
    const turns = rolls(position, [3, 3]);
    expect(turns.turns.every((t) => t.steps[0].from === 25 && t.steps[0].to === 22 && t.hits[0])).toBe(true);
  });

  it('SH-BAR-1 a die that cannot enter is lost; the entered checker may use the other', () => {
    const position = given('W{13:5, 8:4, 6:5} bar:1', 'B{6:2, 13:13}'); // W19 closed
    const turns = rolls(position, [6, 1]);
    expect(plays(turns)).toContain('bar/24/18');
    const entering = validate(position, [6, 1], steps('25/19'));
    if (entering.legal) throw new Error('entered on a closed point');
    expect(entering.error).toMatchObject({ code: 'BLOCKED_POINT', stepIndex: 0 });
  });

  it('SH-BAR-1 two on the bar and one entry open: a double enters both then plays on', () => {
    const position = given('W{13:5, 8:3, 6:5} bar:2', 'B{6:2, 5:2, 4:2, 3:2, 13:7}'); // only W23 and W24 open
    const turns = rolls(position, [2, 2]);
    expect(turns.unitsUsed).toBe(4);
    expect(turns.turns.every((t) => t.steps[0].from === 25 && t.steps[1].from === 25)).toBe(true);
  });
});

describe('SH-OFF: bearing off', () => {
  it('SH-OFF-1 exact die, oversized die from the highest point only, and no bear-off with a checker on the bar', () => {
    const home = given('W{5:3, 3:2, 2:10}', 'B{13:15}');
    expect(plays(rolls(home, [6, 3]))).toContain('5/off 3/off');
    const v = validate(home, [6, 3], steps('3/off 2/off'));
    if (v.legal) throw new Error('an oversized die bore off below the highest point');
    expect(v.error).toMatchObject({ code: 'BEAR_OFF_HIGHER_CHECKER', stepIndex: 1 });
    const oversized = validate(home, [6, 4], steps('3/off'));
    if (oversized.legal) throw new Error('an oversized die bore off below the highest point');
    expect(oversized.error).toMatchObject({ code: 'BEAR_OFF_HIGHER_CHECKER', rule: 'LN-OFF-3' });
    const barred = given('W{5:3, 2:11} bar:1', 'B{13:15}');
    const entered = validate(barred, [6, 5], steps('25/20 5/off'));
    if (entered.legal) throw new Error('bore off with a checker outside the home');
    expect(entered.error).toMatchObject({ code: 'BEAR_OFF_NOT_ALL_HOME', stepIndex: 1, rule: 'SH-OFF-1' });
  });

  it('SH-OFF-1 inside the home a blot may be hit and points with two or more are closed', () => {
    const position = given('W{6:5, 5:5, 2:5}', 'B{21:1, 22:2, 13:12}'); // black blot on W4, black point on W3
    const turns = rolls(position, [2, 1]);
    expect(plays(turns)).toContain('6/4* 5/4');
    expect(plays(turns).some((p) => /\/3\b/.test(p))).toBe(false);
  });

  it('SH-OFF-2 a checker hit during the bear-off must re-enter and come home before bearing off resumes', () => {
    const position = given('W{6:2, 5:2} bar:1 off:10', 'B{13:15}');
    const turns = rolls(position, [6, 6]);
    expect(plays(turns)).toEqual(['bar/19/13/7/1']);
    expect(turns.turns[0].steps.some((s) => s.to === 0)).toBe(false);
  });

  it('SH-OFF-3 hitting in the home and bearing off in one turn (see BG-T13)', () => {
    const position = given('W{5:1, 2:14}', 'B{22:1, 13:14}'); // black blot on W3
    const v = validate(position, [2, 3], steps('5/3 3/off'));
    if (!v.legal || !v.complete) throw new Error('hit then bear off is legal');
    expect(v.turn.hits).toEqual([true, false]);
    expect(opponentAfter(v.turn, 'white')).toBe(spec('B{13:14} bar:1'));
  });
});

describe('SH-MAX: MAX-1…MAX-7 and ALG-7/ALG-8 in short nardy', () => {
  it('SH-MAX MAX-1 both dice must be played when some play uses both', () => {
    // 6/4 is legal alone but leaves the 6 unplayable; 13/11/5 uses both.
    const position = given('W{13:1, 6:1, 1:13}', 'B{18:2, 1:13}');
    expect(plays(rolls(position, [6, 2]))).toEqual(['13/11/5']);
    const v = validate(position, [6, 2], steps('6/4'));
    if (v.legal) throw new Error('6/4 blocks the 6');
    expect(v.error).toMatchObject({ code: 'MUST_USE_BOTH_DICE', stepIndex: 0, rule: 'MAX-1' });
  });

  it('SH-MAX MAX-1 a double plays as many units as possible; a shorter list is an incomplete prefix', () => {
    const start = initialShortPosition('white');
    const v = validate(start, [6, 6], steps('24/18 24/18'));
    expect(v).toEqual({ legal: true, complete: false, remainingUnits: [6, 6] });
  });

  it('SH-MAX MAX-2 only one die playable: the larger (see BG-T07)', () => {
    const turns = rolls(given('W{12:1, 1:14}', 'B{23:2, 1:13}'), [4, 6]);
    expect(turns.unitsUsed).toBe(1);
    expect(turns.turns.map((t) => t.steps)).toEqual([[{ from: 12, to: 6 }]]);
  });

  it('SH-MAX MAX-4 when the smaller die first makes both playable, both must be played', () => {
    const position = given('W{9:1, 1:14}', 'B{22:2, 1:13}'); // W3 closed: 9/3 fails, 9/7/1 works
    expect(plays(rolls(position, [6, 2]))).toEqual(['9/7/1']);
    expect(validate(position, [6, 2], steps('9/7'))).toEqual({
      legal: true,
      complete: false,
      remainingUnits: [6],
    });
  });

  it('SH-MAX MAX-5 no legal play: the roll is forfeited, the position stays and the turn passes', () => {
    const position = given('W{13:5, 8:4, 6:5} bar:1', 'B{6:2, 1:2, 13:11}');
    const [only] = rolls(position, [6, 1]).turns;
    expect(only.steps).toEqual([]);
    expect(only.position.turn).toBe('black');
    expect(withShortTurn(only.position, 'white').board).toEqual(position.board);
    expect(validate(position, [6, 1], [])).toMatchObject({ legal: true, complete: true });
  });

  it('SH-MAX MAX-6 a game-winning play with fewer units is legal when a maximal play reaches the same position', () => {
    const position = given('W{6:1} off:14', 'B{1:15}');
    expect(validate(position, [6, 5], steps('6/off'))).toMatchObject({ legal: true, complete: true });
  });

  it('SH-MAX MAX-6 as gnubg applies it: the shorter win is illegal when the maximal play hits on the way', () => {
    // gnubg oracle case L0423 (simplified): 3/off with the 4 alone would leave the blot on W2 alone;
    // both dice can be played, 3/2* then 2/off, so only that play is legal.
    const position = given('W{3:1} off:14', 'B{23:1, 1:14}');
    const turns = rolls(position, [4, 1]);
    expect(turns.unitsUsed).toBe(2);
    expect(plays(turns)).toEqual(['3/2*/off']);
    const v = validate(position, [4, 1], steps('3/off'));
    if (v.legal) throw new Error('the shorter win is not legal for gnubg');
    expect(v.error).toMatchObject({ code: 'MUST_USE_BOTH_DICE', stepIndex: 0 });
  });

  it('SH-MAX MAX-7 a different value than rolled is refused', () => {
    const v = validate(initialShortPosition(), [3, 1], steps('13/11'));
    if (v.legal) throw new Error('a 2 was played with 3-1');
    expect(v.error).toMatchObject({ code: 'DIE_NOT_AVAILABLE', stepIndex: 0, rule: 'COM-8' });
  });

  it('ALG-7 the same position reached by different routes is one play; a hit makes a different play', () => {
    const start = initialShortPosition();
    const turns = rolls(start, [6, 5]);
    const keys = turns.turns.map((t) => `${moverAfter(t, 'white')}|${opponentAfter(t, 'white')}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(plays(turns)).toContain('24/18/13');
    expect(results(rolls(given('W{13:1, 6:14}', 'B{15:1, 24:14}'), [3, 5]))).toHaveLength(3);
  });

  it('ALG-8 a prefix of a legal play is legal but incomplete; other lists name the first failing step', () => {
    const start = initialShortPosition();
    expect(validate(start, [6, 5], steps('24/18'))).toEqual({
      legal: true,
      complete: false,
      remainingUnits: [5],
    });
    expect(validate(start, [6, 5], steps('24/18 18/13'))).toMatchObject({ legal: true, complete: true });
    const backwards = validate(start, [6, 5], steps('13/18'));
    if (!backwards.legal) expect(backwards.error).toMatchObject({ code: 'INVALID_STEP', stepIndex: 0 });
    else throw new Error('a backward step was accepted');
    const empty = validate(start, [6, 5], steps('20/14'));
    if (!empty.legal) expect(empty.error).toMatchObject({ code: 'NO_CHECKER', stepIndex: 0 });
    else throw new Error('a step from an empty point was accepted');
    const three = validate(start, [6, 5], steps('24/18 18/13 13/8'));
    if (!three.legal) expect(three.error).toMatchObject({ code: 'TOO_MANY_STEPS', stepIndex: 2 });
    else throw new Error('a third step was accepted');
    const shape = validateShortPlay(SHORT_STANDARD, start, [6, 5], [{ from: 26, to: 20 }]);
    if (!shape.ok) expect(shape.error).toMatchObject({ code: 'INVALID_STEPS', field: 'steps[0].from' });
    else throw new Error('a step from point 26 was accepted');
  });

  it('ALG-8 notation: 24/13 fits either order of 6-5, bar/22* enters and hits', () => {
    const start = initialShortPosition();
    const segments = parseNotation('24/13');
    if (!segments.ok) throw new Error(segments.error.message);
    const r = validateShortNotation(SHORT_STANDARD, start, [6, 5], segments.value);
    expect(r.ok && r.value).toMatchObject({ legal: true, complete: true });
    const barPosition = given('W{13:5, 8:4, 6:5} bar:1', 'B{3:1, 13:14}');
    const bar = parseNotation('bar/22* 13/10');
    if (!bar.ok) throw new Error(bar.error.message);
    const v = validateShortNotation(SHORT_STANDARD, barPosition, [3, 3], bar.value);
    expect(v.ok && v.value).toEqual({ legal: true, complete: false, remainingUnits: [3, 3] });
  });
});

describe('SH-START: opening and the next game', () => {
  it('SH-START-1 rerollByWinner: the higher roller starts with a roll of his own; fixedFirstSeat: white starts', () => {
    const reroll = shortOpening({ ...SHORT_STANDARD, openingRoll: 'rerollByWinner' }, { white: 2, black: 5 });
    expect(reroll.ok && reroll.value).toEqual({ kind: 'start', starter: 'black', dice: null });
    const fixed = shortOpening(SHORT_PRESETS['short-soviet'], null);
    expect(fixed.ok && fixed.value).toEqual({ kind: 'start', starter: 'white', dice: null });
    const useDice = shortOpening(SHORT_STANDARD, { white: 2, black: 5 });
    expect(useDice.ok && useDice.value).toEqual({ kind: 'start', starter: 'black', dice: [5, 2] });
  });

  it('SH-START-1 automaticDoubles: equal roll-off dice double the stake up to the limit', () => {
    const rules = { ...SHORT_STANDARD, automaticDoubles: 1 };
    const first = shortOpening(rules, { white: 4, black: 4 }, 0);
    const second = shortOpening(rules, { white: 4, black: 4 }, 1);
    expect(first.ok && first.value).toEqual({ kind: 'reroll', automaticDouble: true });
    expect(second.ok && second.value).toEqual({ kind: 'reroll', automaticDouble: false });
  });

  it('SH-START-2 every game starts with a roll-off by default; previousWinner keeps the winner', () => {
    expect(nextShortGameStarter(SHORT_STANDARD, 'black')).toBeNull();
    expect(nextShortGameStarter({ ...SHORT_STANDARD, nextGameStarter: 'previousWinner' }, 'black')).toBe(
      'black',
    );
  });

  it('presets: backgammon (standard scoring, cube) and short-soviet (fixed first seat, Soviet scoring, no cube)', () => {
    expect(SHORT_PRESETS.backgammon).toMatchObject({
      family: 'short',
      openingRoll: 'useRollOffDice',
      nextGameStarter: 'rollOff',
      scoring: 'standard',
      cube: true,
      jacoby: false,
      beaver: false,
      raccoon: false,
      automaticDoubles: 0,
      cubeCap: null,
      crawford: true,
    });
    expect(SHORT_PRESETS['short-soviet']).toMatchObject({
      openingRoll: 'fixedFirstSeat',
      scoring: 'soviet',
      cube: false,
    });
  });
});
