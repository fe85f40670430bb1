import { validateLongPlay } from '../../../src/engine/long/validate';
import { given, moverText, results, rules, spec, specs, turnsOf } from '../../support/long-builder';

/* SPEC §7.2: the long-nardy variants, as named tests. */

describe('SPEC §7.2 long-nardy variants', () => {
  it('V-T01 Nardgammon: the temporary-block result is illegal', () => {
    const state = given({ white: { 24: 10, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1 }, black: { 11: 1, 24: 14 } });
    expect(results(rules('nardgammon'), state, [3, 1])).not.toContain(spec('W{24:9, 20:2, 19:1, 18:1, 17:1, 16:1}'));
    const v = validateLongPlay(rules('nardgammon'), state, [3, 1], [
      { from: 24, to: 21 },
      { from: 21, to: 20 },
    ]);
    expect(v.ok && !v.value.legal && v.value.error).toMatchObject({ code: 'SIX_BLOCK', stepIndex: 0 });
  });

  describe('V-T02 cascade and "all home" handling', () => {
    const position = { white: { 13: 1, 3: 14 }, black: { 13: 1, 14: 14 } };

    it('V-T02 crazy: the forced 2-stage brings the last checker home and the cascade stops', () => {
      const t = turnsOf(rules('crazy'), given(position), [2, 2]);
      expect(t.turns.map((x) => moverText(x, 'white'))).toEqual(specs('W{5:1, 3:14}'));
      expect(t.turns[0].next.kind).toBe('turn');
    });

    it('V-T02 crazy-gulbar: exactly one more stage (3-3) of exact bear-off, then the cascade stops', () => {
      const r = rules('crazy-gulbar');
      const first = turnsOf(r, given(position), [2, 2]);
      expect(first.turns.map((x) => moverText(x, 'white'))).toEqual(specs('W{5:1, 3:14}'));
      expect(first.turns[0].next).toEqual({ kind: 'cascade', actor: 'white', units: [3, 3, 3, 3] });
      const extra = turnsOf(r, first.turns[0].state);
      expect(extra.stage.origin).toBe('cascade');
      expect(extra.turns.map((x) => moverText(x, 'white'))).toEqual(specs('W{5:1, 3:10} off:4'));
      expect(extra.turns[0].next.kind).toBe('turn');
    });

    it('V-T02 control: entering home on the 3rd unit gives no extra stage; the unplayed 2 becomes debt (TM-3a)', () => {
      const control = { white: { 11: 1, 3: 14 }, black: { 13: 1, 14: 14 } };
      const crazy = turnsOf(rules('crazy'), given(control), [2, 2]);
      expect(crazy.turns.map((x) => moverText(x, 'white'))).toEqual(specs('W{5:1, 3:14}'));
      expect(crazy.unitsUsed).toBe(3);
      const gulbar = turnsOf(rules('crazy-gulbar'), given(control), [2, 2]);
      expect(gulbar.turns.map((x) => moverText(x, 'white'))).toEqual(specs('W{5:1, 3:14}'));
      // The spec's narrative adds "and the later stages"; TM-3a drops stages
      // removed by the all-home stop, as the reference oracle does.
      expect(gulbar.turns[0].next).toEqual({ kind: 'debt', actor: 'black', stages: [[2]], units: [2] });
    });
  });

  it('V-T03 exact-only bear-off, no home moves (crazy)', () => {
    const state = given({ white: { 5: 2, 3: 13 }, black: { 20: 15 } });
    const crazy = turnsOf(rules('crazy'), state, [6, 4]);
    expect(crazy.turns).toHaveLength(1);
    expect(crazy.turns[0].steps).toEqual([]);
    expect(crazy.turns[0].next.kind).toBe('turn');
    expect(results(rules('long'), state, [6, 4])).toEqual(specs('W{3:13, 1:1} off:1'));
    const v = validateLongPlay(rules('crazy'), state, [6, 4], [{ from: 5, to: 1 }]);
    expect(v.ok && !v.value.legal && v.value.error.code).toBe('HOME_MOVE_FORBIDDEN');
  });

  it('V-T04 a double that cannot be started', () => {
    const state = given({ white: { 20: 1, 1: 14 }, black: { 5: 1, 20: 14 } });
    for (const name of ['crazy', 'giul'] as const) {
      const t = turnsOf(rules(name), state, [3, 3]);
      expect(t.turns[0].steps).toEqual([]);
      expect(t.turns[0].next).toEqual({ kind: 'turn', actor: 'black' });
    }
    const t = turnsOf(rules('crazy-gulbar'), state, [3, 3]);
    expect(t.turns[0].steps).toEqual([]);
    expect(t.turns[0].next.stages).toEqual([
      [3, 3, 3, 3],
      [4, 4, 4, 4],
      [5, 5, 5, 5],
      [6, 6, 6, 6],
    ]);
    expect(t.turns[0].state.position.turn).toBe('black');
    expect(t.turns[0].state.pending.map((s) => s.origin)).toEqual(['debt', 'debt', 'debt', 'debt']);
  });

  it('V-T05 Gul-bar (seed): a partly played double becomes debt; a full one re-rolls', () => {
    const r = rules('gulbar');
    const t = turnsOf(r, given({ white: { 20: 1, 1: 14 }, black: { 5: 1, 20: 14 } }), [1, 1]);
    expect(t.turns.map((x) => moverText(x, 'white'))).toEqual(specs('W{18:1, 1:14}'));
    expect(t.turns[0].next).toEqual({ kind: 'debt', actor: 'black', stages: [[1, 1]], units: [1, 1] });
    // Black must pay before he may roll: dice are refused while the debt is pending (TM-7).
    const afterDebt = t.turns[0].state;
    const refused = turnsOf.bind(null, r, afterDebt, [6, 5]);
    expect(refused).toThrow(/STAGE_MISMATCH/);
    const paid = turnsOf(r, afterDebt);
    expect(paid.stage).toMatchObject({ actor: 'black', origin: 'debt', units: [1, 1] });
    expect(paid.turns.every((x) => x.next.kind === 'roll' && x.state.position.turn === 'black')).toBe(true);
    const control = turnsOf(r, given({ white: { 20: 1, 1: 14 }, black: { 20: 15 } }), [1, 1]);
    expect(control.turns.every((x) => x.next.kind === 'reroll')).toBe(true);
  });

  describe('V-T06 cascade → debt → the opponent pays', () => {
    const position = { white: { 20: 1, 1: 14 }, black: { 1: 14, 16: 1 } };

    /** White's forced 3-stage, then the 4-stage that cannot start. */
    const whiteCascade = (r: ReturnType<typeof rules>) => {
      const three = turnsOf(r, given(position), [3, 3]);
      expect(three.turns.map((x) => moverText(x, 'white'))).toEqual(specs('W{8:1, 1:14}'));
      expect(three.turns[0].next).toEqual({ kind: 'cascade', actor: 'white', units: [4, 4, 4, 4] });
      const four = turnsOf(r, three.turns[0].state);
      expect(four.turns).toHaveLength(1);
      expect(four.turns[0].steps).toEqual([]);
      return four.turns[0];
    };

    it('V-T06 crazy-gulbar: stage 4 is forced, stage 5 cannot start, the rest lapses', () => {
      const r = rules('crazy-gulbar');
      const white = { turns: [whiteCascade(r)] };
      expect(white.turns[0].next.stages).toEqual([
        [4, 4, 4, 4],
        [5, 5, 5, 5],
        [6, 6, 6, 6],
      ]);
      const four = turnsOf(r, white.turns[0].state);
      expect(four.turns.map((x) => moverText(x, 'black'))).toEqual(specs('B{1:14} off:1'));
      expect(four.turns[0].steps).toEqual([
        { from: 16, to: 12 },
        { from: 12, to: 8 },
        { from: 8, to: 4 },
        { from: 4, to: 0 },
      ]);
      const five = turnsOf(r, four.turns[0].state);
      expect(five.turns[0].steps).toEqual([]);
      expect(five.turns[0].next).toEqual({ kind: 'roll', actor: 'black' });
      expect(moverText(five.turns[0], 'black')).toBe(spec('B{1:14} off:1'));
    });

    it('V-T06 standard bear-off (gulbara-intl with toOpponent): Black ends with B{1:6} off:9', () => {
      const r = rules('gulbara-intl', { unplayedDoubles: 'toOpponent' });
      let state = whiteCascade(r).state;
      expect(state.pending.map((s) => s.units)).toEqual([
        [4, 4, 4, 4],
        [5, 5, 5, 5],
        [6, 6, 6, 6],
      ]);
      let last = null;
      for (let i = 0; i < 3; i++) {
        const t = turnsOf(r, state);
        expect(t.turns).toHaveLength(1);
        last = t.turns[0];
        state = last.state;
      }
      expect(last && moverText(last, 'black')).toBe(spec('B{1:6} off:9'));
      expect(last?.next).toEqual({ kind: 'roll', actor: 'black' });
    });

    it('V-T06 forfeit (crazy): the debt disappears', () => {
      const stuck = whiteCascade(rules('crazy'));
      expect(stuck.next).toEqual({ kind: 'turn', actor: 'black' });
      expect(stuck.state.pending).toEqual([]);
    });
  });

  it('V-T07 Khachapuri opening', () => {
    const r = rules('khachapuri');
    const state = given({ white: { 24: 4, 6: 11 }, black: { 24: 4, 6: 11 }, firstTurn: { white: true, black: true } });
    expect(results(r, state, [6, 5])).toEqual(specs('W{24:3, 13:1, 6:11}'));
    const none = turnsOf(r, state, [6, 6]);
    expect(none.turns[0].steps).toEqual([]);
    const threes = turnsOf(r, state, [3, 3]);
    expect(threes.turns.map((x) => moverText(x, 'white')).sort()).toEqual(
      specs('W{24:4, 6:7, 3:4}', 'W{24:3, 21:1, 6:8, 3:3}', 'W{24:2, 21:2, 6:9, 3:2}', 'W{24:1, 21:3, 6:10, 3:1}', 'W{21:4, 6:11}'),
    );
    expect(threes.turns.every((x) => x.next.kind === 'reroll')).toBe(true);
  });

  it('V-T08 Fevga first runner', () => {
    const r = rules('fevga');
    const state = given({ white: { 24: 15 }, black: { 24: 15 }, firstTurn: { white: true, black: true } });
    expect(results(r, state, [6, 6])).toEqual(specs('W{24:14, 18:1}'));
    expect(turnsOf(r, state, [6, 6]).unitsUsed).toBe(1);
    expect(results(r, state, [4, 4])).toEqual(specs('W{24:14, 16:1}'));
    expect(turnsOf(r, state, [4, 4]).unitsUsed).toBe(2);
    expect(results(r, state, [5, 5])).toEqual(specs('W{24:14, 4:1}', 'W{24:13, 19:1, 9:1}'));
    const v = validateLongPlay(r, state, [5, 5], [
      { from: 24, to: 19 },
      { from: 24, to: 19 },
    ]);
    expect(v.ok && !v.value.legal && v.value.error).toMatchObject({ code: 'FEVGA_RUNNER', stepIndex: 1 });
  });

  it('V-T09 Fevga starting quarter', () => {
    const state = given({ white: { 24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 10: 2 }, black: { 24: 15 } });
    const found = results(rules('fevga'), state, [5, 4]);
    const quarterHeld = (r: string) => [24, 23, 22, 21, 20, 19].every((p) => new RegExp(`[{ ]${p}:`).test(r));
    expect(found.filter(quarterHeld)).toEqual([]);
    expect(found).toContain(spec('W{24:8, 22:1, 21:1, 20:1, 19:2, 10:2}'));
    const v = validateLongPlay(rules('fevga'), state, [5, 4], [
      { from: 24, to: 19 },
      { from: 10, to: 6 },
    ]);
    expect(v.ok && !v.value.legal && v.value.error.code).toBe('FEVGA_STARTING_QUARTER');
  });

  it('V-T10 Fevga allows a prime with nothing ahead', () => {
    const state = given({ white: { 22: 1, 20: 2, 19: 1, 18: 1, 17: 1, 16: 1, 1: 8 }, black: { 24: 15 } });
    expect(results(rules('fevga'), state, [2, 1])).toContain(spec('W{21:1, 20:1, 19:1, 18:2, 17:1, 16:1, 1:8}'));
  });

  it('V-T11 Fevga: every opponent checker right behind a prime', () => {
    const r = rules('fevga');
    // The trap exists at the start: only plays that open it are legal (FV-5b).
    const trapped = given({ white: { 21: 1, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1, 1: 9 }, black: { 10: 15 } });
    const primeHeld = (text: string) => [21, 20, 19, 18, 17, 16].every((p) => new RegExp(`[{ ]${p}:`).test(text));
    for (const dice of [
      [2, 1],
      [6, 5],
      [1, 1],
      [3, 3],
    ] as [number, number][]) {
      const found = results(r, trapped, dice);
      expect(found.length).toBeGreaterThan(0);
      expect(found.filter(primeHeld)).toEqual([]);
    }
    // Creating it is illegal (FV-5a): 23→21 with 9→8 would close W21..W16 in front of all of Black.
    const creating = given({ white: { 23: 1, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1, 9: 1, 1: 8 }, black: { 10: 15 } });
    const found = results(r, creating, [2, 1]);
    expect(found).not.toContain(spec('W{21:1, 20:1, 19:1, 18:1, 17:1, 16:1, 8:1, 1:8}'));
    expect(found).toContain(spec('W{21:1, 20:1, 19:1, 18:1, 17:1, 15:1, 9:1, 1:8}'));
    const v = validateLongPlay(r, creating, [2, 1], [
      { from: 23, to: 21 },
      { from: 9, to: 8 },
    ]);
    expect(v.ok && !v.value.legal && v.value.error.code).toBe('FEVGA_PRIME_TRAP');
  });

  it('V-T12 Giul: the cascade stops at home and moves inside home remain legal', () => {
    const r = rules('giul');
    const t = turnsOf(r, given({ white: { 13: 1, 3: 14 }, black: { 13: 1, 14: 14 } }), [2, 2]);
    expect(t.turns.map((x) => moverText(x, 'white'))).toEqual(specs('W{5:1, 3:14}'));
    expect(t.turns[0].next.kind).toBe('turn');
    const home = given({ white: { 5: 1, 3: 14 }, black: { 13: 1, 14: 14 } });
    // 5→4→3 is a move inside home (W2 holds Black, W1 too): crazy forbids it, Giul does not.
    expect(results(r, home, [2, 1])).toContain(spec('W{3:15}'));
    expect(turnsOf(rules('crazy'), home, [2, 1]).turns[0].steps).toEqual([]);
  });
});
