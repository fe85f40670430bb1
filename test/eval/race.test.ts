import fc from 'fast-check';
import {
  createRaceEvaluator,
  firstRollOffChance,
  isLongRace,
  isShortRace,
  writeCrossing,
} from '../../src/eval/race';
import { MAX_ROLLS } from '../../src/eval/bearoff/build';
import { readOracleCases } from '../support/oracles';
import { SignedBoardJson, boardOf } from '../engine/short/support/gnubg-cases';
import { database, longBoard, shortBoard } from './support';
import { runs } from '../support/runs';

const shortRace = createRaceEvaluator({
  family: 'short',
  database: () => database('standard'),
  triple: 'backgammon',
});
const longRace = createRaceEvaluator({
  family: 'long',
  database: () => database('standard'),
  triple: 'none',
});

/** What this file reads of a case of the gnubg oracle's cases-eval.jsonl (../shared/oracles/gnubg/README.md). */
interface EvalCase {
  readonly board: SignedBoardJson;
  readonly positionClass: string;
  /** gnubg's [win, winG, winBG, loseG, loseBG] at each depth, 0 plies first. */
  readonly evaluations: readonly { readonly probs: readonly number[] }[];
}

describe('race detection', () => {
  it('short: no contact once every checker of the side to move is past every opponent checker', () => {
    expect(isShortRace(shortBoard({ points: { 6: 5, 5: 5 } }, { points: { 6: 5, 5: 5 } }))).toBe(true);
    // An opponent checker on his 20 is our 5, behind our 6: contact.
    expect(isShortRace(shortBoard({ points: { 6: 5 } }, { points: { 20: 1, 3: 5 } }))).toBe(false);
    expect(isShortRace(shortBoard({ points: { 6: 5 }, bar: 1 }, { points: { 3: 5 } }))).toBe(false);
  });

  it('long: both sides entirely on their own points 1..12', () => {
    expect(isLongRace(longBoard({ points: { 12: 3, 3: 5 } }, { points: { 9: 4, 1: 2 } }))).toBe(true);
    expect(isLongRace(longBoard({ points: { 13: 1, 3: 5 } }, { points: { 9: 4 } }))).toBe(false);
    // His 13 is our 1: he still passes through our home.
    expect(isLongRace(longBoard({ points: { 3: 5 } }, { points: { 13: 1 } }))).toBe(false);
  });
});

describe('exact race from the one-sided database', () => {
  it('one checker on 6 each: the side to move wins 3/4 at once, else needs the opponent to miss (1/4)', () => {
    const p = shortRace.evaluate(shortBoard({ points: { 6: 1 } }, { points: { 6: 1 } }));
    expect(p.win).toBeCloseTo(0.75 + 0.25 * 0.25, 4);
    expect(p.winMars).toBe(0);
    const q = longRace.evaluate(longBoard({ points: { 6: 1 } }, { points: { 6: 1 } }));
    expect(q.win).toBeCloseTo(0.8125, 4);
  });

  it('mars / gammon: finishing in one roll against fifteen checkers none off wins a mars', () => {
    const p = shortRace.evaluate(shortBoard({ points: { 1: 1 } }, { points: { 6: 15 } }));
    expect(p.win).toBeCloseTo(1, 6);
    expect(p.winMars).toBeCloseTo(1, 6);
    expect(p.winKoks).toBeCloseTo(0, 6);
  });

  it('backgammon: the loser still in the winner\u2019s home (his own 19..24) when the winner finishes', () => {
    // His 19 is our 6, past our checkers on 1: a race, and we finish first.
    const p = shortRace.evaluate(shortBoard({ points: { 1: 2 } }, { points: { 19: 1, 6: 14 } }));
    expect(p.winKoks).toBeCloseTo(1, 6);
  });

  it('equals gnubg\u2019s exact bear-off evaluations on the oracle\u2019s bearoff cases', () => {
    const cases = readOracleCases<EvalCase>('gnubg/cases-eval.jsonl').filter((c) =>
      c.positionClass.startsWith('bearoff'),
    );
    expect(cases.length).toBeGreaterThan(15);
    for (const c of cases) {
      const ours = shortRace.evaluate(boardOf(c.board));
      const theirs = c.evaluations[0].probs;
      expect(Math.abs(ours.win - theirs[0])).toBeLessThan(2e-4);
      expect(Math.abs(ours.winMars - theirs[1])).toBeLessThan(2e-4);
      expect(Math.abs(ours.loseMars - theirs[3])).toBeLessThan(2e-4);
    }
  });
});

describe('first checker off within one roll (backgammon, exact)', () => {
  const own = (points: Record<number, number>): Int8Array => {
    const a = new Int8Array(26);
    for (const [p, n] of Object.entries(points)) a[Number(p)] = n;
    return a;
  };

  it('one checker on 7, the rest on the 1-point: all rolls but 3-2 and 4-2 bring it in and bear one off', () => {
    // 3-2: 7/4 leaves the 2 below the checker on 4 (7/5/2 uses both dice); 4-2 alike.
    expect(firstRollOffChance(own({ 7: 1, 1: 14 }))).toBeCloseTo(32 / 36, 12);
  });

  it('three checkers outside (7, 11, 11): only 5-5 and 6-6 bring them in and bear one off', () => {
    expect(firstRollOffChance(own({ 1: 6, 2: 3, 5: 1, 6: 2, 7: 1, 11: 2 }))).toBeCloseTo(2 / 36, 12);
  });

  it('more than four checkers outside: never', () => {
    expect(firstRollOffChance(own({ 7: 5, 6: 10 }))).toBe(0);
  });

  it('the opponent bears off next roll for sure: the gammon is the one-roll miss (gnubg 2-ply 0.944)', () => {
    // Both sides from the side to move: ours on 1..11, his two checkers on his 1-point, 13 off.
    const board = shortBoard(
      { points: { 1: 6, 2: 3, 5: 1, 6: 2, 7: 1, 11: 2 } },
      { points: { 1: 2 }, off: 13 },
    );
    const p = shortRace.evaluate(board);
    expect(p.win).toBeCloseTo(0, 9);
    expect(p.loseMars).toBeCloseTo(34 / 36, 9);
  });
});

/** Random race boards: each side's 1..15 checkers spread on own points 1..maxPoint. */
function raceSide(maxPoint: number) {
  return fc.array(fc.integer({ min: 1, max: maxPoint }), { minLength: 1, maxLength: 15 }).map((points) => {
    const spec: Record<number, number> = {};
    for (const p of points) spec[p] = (spec[p] ?? 0) + 1;
    return spec;
  });
}

describe('race odds (properties)', () => {
  it('identical sides: the side to move, rolling first, is at least even', () => {
    fc.assert(
      fc.property(raceSide(6), (side) => {
        expect(shortRace.evaluate(shortBoard({ points: side }, { points: side })).win).toBeGreaterThanOrEqual(
          0.5 - 1e-9,
        );
      }),
      { numRuns: runs(200) },
    );
  });

  it('one more opponent checker never lowers the chances of the side to move (both families)', () => {
    fc.assert(
      fc.property(raceSide(6), raceSide(6), fc.integer({ min: 1, max: 6 }), (mine, his, extra) => {
        const hisCount = Object.values(his).reduce((a, b) => a + b, 0);
        fc.pre(hisCount < 15);
        const more = { ...his, [extra]: (his[extra] ?? 0) + 1 };
        const before = shortRace.evaluate(shortBoard({ points: mine }, { points: his })).win;
        const after = shortRace.evaluate(shortBoard({ points: mine }, { points: more })).win;
        expect(after).toBeGreaterThanOrEqual(before - 1e-3);
        const lBefore = longRace.evaluate(longBoard({ points: mine }, { points: his })).win;
        const lAfter = longRace.evaluate(longBoard({ points: mine }, { points: more })).win;
        expect(lAfter).toBeGreaterThanOrEqual(lBefore - 1e-3);
      }),
      { numRuns: runs(200) },
    );
  });

  it('beyond the database: more pips to cross never helps (effective-pip model)', () => {
    fc.assert(
      fc.property(raceSide(12), raceSide(12), (mine, his) => {
        const board = longBoard({ points: mine }, { points: his });
        fc.pre(isLongRace(board));
        // Checkers already outside home: the crossing model is monotone there.
        const points = Object.keys(his)
          .map(Number)
          .filter((p) => p >= 7 && p < 12);
        fc.pre(points.length > 0);
        const p = points[0];
        const moved = { ...his, [p]: his[p] - 1, [p + 1]: (his[p + 1] ?? 0) + 1 };
        if (moved[p] === 0) delete moved[p];
        const before = longRace.evaluate(board).win;
        const after = longRace.evaluate(longBoard({ points: mine }, { points: moved })).win;
        // Moving one of his checkers one point back (more pips for him) never lowers our chances.
        expect(after).toBeGreaterThanOrEqual(before - 1e-9);
      }),
      { numRuns: runs(200) },
    );
  });

  it('crossing distributions are distributions with mean ≈ pips / 8.17 + overshoot', () => {
    const out = new Float64Array(MAX_ROLLS);
    for (const x of [0, 1, 8, 30, 100, 285]) {
      writeCrossing(x, out);
      const sum = out.reduce((a, v) => a + v, 0);
      const mean = out.reduce((a, v, k) => a + v * k, 0);
      expect(sum).toBeCloseTo(1, 9);
      expect(mean).toBeGreaterThanOrEqual(x / (49 / 6) - 1e-9);
      expect(mean).toBeLessThanOrEqual(x / (49 / 6) + 1);
    }
  });
});

describe('the distributions of sides seen before', () => {
  it('a side seen before gives the numbers it gave computed afresh (races sharing one side, both families)', () => {
    // Races in which one side stays the same while the other moves, in varied order, as a search evaluates them.
    const mover: Record<number, number>[] = [{ 6: 3, 5: 4, 3: 2, 1: 1 }, { 8: 2, 6: 5, 2: 3 }, { 12: 1, 4: 4 }];
    const opponent: Record<number, number>[] = [{ 6: 2, 4: 4, 2: 3 }, { 5: 5, 1: 2 }, { 9: 1, 6: 3, 3: 3 }, { 7: 2, 6: 2 }];
    const pairs: [number, number][] = [];
    for (let round = 0; round < 3; round++)
      for (let m = 0; m < mover.length; m++) for (let o = 0; o < opponent.length; o++) pairs.push([(m + round) % 3, o]);
    for (const [family, race, board] of [
      ['short', shortRace, (m: Record<number, number>, o: Record<number, number>) => shortBoard({ points: m }, { points: o })],
      ['long', longRace, (m: Record<number, number>, o: Record<number, number>) => longBoard({ points: m }, { points: o })],
    ] as const) {
      const out = new Float64Array(5);
      const fresh = new Float64Array(5);
      for (const [m, o] of [...pairs, ...pairs.map(([a, b]) => [b % 3, a] as [number, number])]) {
        const b = board(mover[m], opponent[o]);
        race.evaluateInto(b, out, 0);
        createRaceEvaluator({ family, database: () => database('standard'), triple: family === 'short' ? 'backgammon' : 'none' }).evaluateInto(b, fresh, 0);
        expect(Array.from(out)).toEqual(Array.from(fresh));
      }
      // The same side on both sides at once.
      const same = board(mover[0], mover[0]);
      race.evaluateInto(same, out, 0);
      createRaceEvaluator({ family, database: () => database('standard'), triple: family === 'short' ? 'backgammon' : 'none' }).evaluateInto(same, fresh, 0);
      expect(Array.from(out)).toEqual(Array.from(fresh));
    }
  });
});
