import { LONG_PRESETS } from '../../src/engine/long/rules';
import { LongStageSolver, movementOf } from '../../src/engine/long/stage';
import { ShortStageSolver } from '../../src/engine/short/stage';
import { MAX_ROLLS, ROLLS } from '../../src/eval/bearoff/build';
import { readFileSync } from 'fs';
import { join } from 'path';
import { gunzipSync } from 'zlib';
import { DEFAULT_DATA_DIR as DATA_DIR, bearoffFileName } from '../../src/service/analysis/data';
import { BearoffDatabase, loadBearoffDatabase } from '../../src/eval/bearoff/database';
import { BEAROFF_POSITIONS, rankHome, unrankHome } from '../../src/eval/bearoff/ranking';
import { database, longBoard, shortBoard } from './support';
import { expectBe } from '../support/expect';

/** A home distribution as the board slice the databases read (`[1..6]`). */
function home(points: Record<number, number>): Int8Array {
  const b = new Int8Array(7);
  for (const [p, n] of Object.entries(points)) b[Number(p)] = n;
  return b;
}

function distribution(db: BearoffDatabase, points: Record<number, number>): number[] {
  return Array.from(db.writeOff(db.rankOf(home(points)), new Float64Array(MAX_ROLLS)));
}

describe('home ranking', () => {
  it('numbers the C(21, 6) = 54 264 home distributions densely and round-trips', () => {
    expect(BEAROFF_POSITIONS).toBe(54264);
    const b = new Int8Array(7);
    const seen = new Set<number>();
    for (let r = 0; r < BEAROFF_POSITIONS; r += 7) {
      unrankHome(r, b);
      let total = 0;
      for (let p = 1; p <= 6; p++) total += b[p];
      // 7,752 homes: the hot-loop forms of the matchers (test/support/expect.ts).
      if (total > 15) expect(total).toBeLessThanOrEqual(15);
      expectBe(rankHome(b), r);
      seen.add(r);
    }
    expect(rankHome(home({}))).toBe(0);
    expect(rankHome(home({ 6: 15 }))).toBe(BEAROFF_POSITIONS - 1);
  });
});

describe('one-sided bear-off database, standard rules (LN-OFF-1…4, SH-OFF-1)', () => {
  const db = database('standard');

  it('one checker on point 1 is off in one roll', () => {
    expect(distribution(db, { 1: 1 })[1]).toBeCloseTo(1, 6);
  });

  it('two checkers on point 1 are off in one roll (a non-double takes two, a double four)', () => {
    expect(distribution(db, { 1: 2 })[1]).toBeCloseTo(1, 6);
  });

  it('one checker on point 6: one roll unless the dice total less than 6 (1-1, 2-1, 3-1, 4-1, 3-2)', () => {
    const d = distribution(db, { 6: 1 });
    expect(d[1]).toBeCloseTo(27 / 36, 4);
    expect(d[2]).toBeCloseTo(9 / 36, 4);
    expect(db.meanOff(db.rankOf(home({ 6: 1 })))).toBeCloseTo(1.25, 3);
  });

  it('fifteen on point 1: pairs come off, doubles take four', () => {
    // Expected rolls: exact value of the chain 15 → … with P(double) = 1/6, computed here directly.
    const memo = new Map<number, number>();
    const expected = (n: number): number => {
      if (n <= 0) return 0;
      const hit = memo.get(n);
      if (hit !== undefined) return hit;
      const v = 1 + (5 / 6) * expected(n - 2) + (1 / 6) * expected(n - 4);
      memo.set(n, v);
      return v;
    };
    expect(db.meanOff(db.rankOf(home({ 1: 15 })))).toBeCloseTo(expected(15), 3);
  });

  it('first-checker-off distribution: one on point 1 and fourteen on 2 → always one roll', () => {
    // Any die bears a checker off: a 1 from point 1, a 2 or more from point 2 (LN-OFF-2/3).
    const r = db.rankOf(home({ 1: 1, 2: 14 }));
    expect(db.firstOffProbability(r, 1)).toBeCloseTo(1, 6);
    // Some checkers already off: nothing to save.
    expect(db.meanFirstOff(db.rankOf(home({ 6: 3 })))).toBe(0);
  });

  it('agrees with a brute-force recursion over the rules core for every position of up to 4 checkers', () => {
    // Independent oracle: legal plays from the backgammon move generator, the
    // opponent out of the way (one checker on his point 1, behind us), best
    // play = fewest expected rolls.
    const solver = new ShortStageSolver();
    const memo = new Map<number, number[]>();
    const solve = (pts: Int8Array): number[] => {
      const key = rankHome(pts);
      const hit = memo.get(key);
      if (hit) return hit;
      let left = 0;
      for (let p = 1; p <= 6; p++) left += pts[p];
      const dist = new Array<number>(12).fill(0);
      if (left === 0) {
        dist[0] = 1;
        memo.set(key, dist);
        return dist;
      }
      const points: Record<number, number> = {};
      for (let p = 1; p <= 6; p++) if (pts[p] > 0) points[p] = pts[p];
      const board = shortBoard({ points }, { points: { 1: 1 } });
      for (const roll of ROLLS) {
        const n = solver.solve(board, roll.high, roll.low);
        const results: Int8Array[] = [];
        for (let k = 0; k < n; k++) results.push(solver.playBoardInto(k, new Int8Array(28)).slice(0, 7));
        let best: number[] | null = null;
        let bestMean = Infinity;
        for (const r of results) {
          const d = solve(r);
          const mean = d.reduce((s, v, i) => s + v * i, 0);
          if (mean < bestMean) {
            bestMean = mean;
            best = d;
          }
        }
        for (let i = 0; i + 1 < 12; i++) dist[i + 1] += roll.weight * (best as number[])[i];
      }
      memo.set(key, dist);
      return dist;
    };
    const b = new Int8Array(7);
    let checked = 0;
    for (let r = 0; r < BEAROFF_POSITIONS; r++) {
      unrankHome(r, b);
      let total = 0;
      for (let p = 1; p <= 6; p++) total += b[p];
      if (total > 4) continue;
      const brute = solve(b.slice());
      const ours = Array.from(db.writeOff(r, new Float64Array(MAX_ROLLS)).slice(0, 12));
      for (let i = 0; i < 12; i++) expect(Math.abs(ours[i] - brute[i])).toBeLessThan(1e-4);
      checked++;
    }
    expect(checked).toBe(210);
  });

  it('needs more rolls on average when a checker is added (monotonicity)', () => {
    // Moving a checker up is not monotone: it can remove wastage (LN-OFF-3).
    const b = new Int8Array(7);
    for (let r = 1; r < BEAROFF_POSITIONS; r += 97) {
      unrankHome(r, b);
      let total = 0;
      for (let p = 1; p <= 6; p++) total += b[p];
      if (total === 15) continue;
      const mean = db.meanOff(r);
      for (let p = 1; p <= 6; p++) {
        b[p]++;
        expect(db.meanOff(rankHome(b))).toBeGreaterThanOrEqual(mean - 1e-4);
        b[p]--;
      }
    }
  });

  it('each stored distribution sums to 1', () => {
    for (let r = 0; r < BEAROFF_POSITIONS; r += 53) {
      const off = db.writeOff(r, new Float64Array(MAX_ROLLS)).reduce((a, v) => a + v, 0);
      const first = db.writeFirstOff(r, new Float64Array(MAX_ROLLS)).reduce((a, v) => a + v, 0);
      expect(off).toBeCloseTo(1, 5);
      expect(first).toBeCloseTo(1, 5);
    }
  });
});

describe('one-sided bear-off database, exact-only rules (CR-4, CG-5)', () => {
  const db = database('exactOnly');

  it('one checker on point 6 comes off with the first roll that shows a 6 (geometric, p = 11/36)', () => {
    const d = distribution(db, { 6: 1 });
    expect(d[1]).toBeCloseTo(11 / 36, 4);
    expect(d[2]).toBeCloseTo((25 / 36) * (11 / 36), 4);
    expect(db.meanOff(db.rankOf(home({ 6: 1 })))).toBeCloseTo(36 / 11, 2);
  });

  it('agrees on expected rolls with the long-nardy move generator under the crazy preset (up to 4 checkers)', () => {
    const rules = LONG_PRESETS.crazy;
    const solver = new LongStageSolver();
    const movement = movementOf(rules);
    const memo = new Map<number, number>();
    // M(P) = (1 + Σ_{roll changes P} p · M(result)) / (1 − P(no change)).
    const mean = (pts: Int8Array): number => {
      const key = rankHome(pts);
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      const points: Record<number, number> = {};
      let total = 0;
      for (let p = 1; p <= 6; p++) {
        if (pts[p] > 0) points[p] = pts[p];
        total += pts[p];
      }
      if (total === 0) return 0;
      // The opponent far away on his own point 1 (our 13): a race (race.ts).
      const board = longBoard({ points }, { points: { 1: 1 } });
      let stay = 0;
      let sum = 1;
      for (const roll of ROLLS) {
        const units = roll.high === roll.low ? [roll.high, roll.high, roll.high, roll.high] : [roll.high, roll.low];
        const n = solver.solve(board, units, 1, movement);
        expectBe(n, 1); // exact-only with no home moves leaves no choice
        const after = solver.playBoardInto(0, new Int8Array(26)).slice(0, 7);
        if (rankHome(after) === key) stay += roll.weight;
        else sum += roll.weight * mean(after);
      }
      const value = sum / (1 - stay);
      memo.set(key, value);
      return value;
    };
    const b = new Int8Array(7);
    let checked = 0;
    for (let r = 1; r < BEAROFF_POSITIONS; r++) {
      unrankHome(r, b);
      let total = 0;
      for (let p = 1; p <= 6; p++) total += b[p];
      if (total > 4) continue;
      expect(Math.abs(db.meanOff(r) - mean(b.slice()))).toBeLessThan(2e-3);
      checked++;
    }
    expect(checked).toBe(209);
  });
});

describe('database file format', () => {
  const bytes = gunzipSync(readFileSync(join(DATA_DIR, bearoffFileName('standard'))));

  it('loads the committed file', () => {
    expect(loadBearoffDatabase(bytes).ok).toBe(true);
  });

  it('rejects bytes that are not a whole database, with a stable error', () => {
    for (const bad of [new Uint8Array([1, 2, 3]), bytes.subarray(0, 100), Uint8Array.from([...bytes.subarray(0, 2000), 0]), Uint8Array.from(bytes).fill(0, 0, 6)]) {
      const r = loadBearoffDatabase(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_REQUEST');
    }
  });
});
