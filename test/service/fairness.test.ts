import { randomBytes } from 'crypto';
import { commitmentOf, deterministicSeeds, rollAt } from '../../src/service/sessions/fairness';

/*
 * The server dice are uniform: χ² over 60,000 rolls (both dice, 120,000 faces
 * and 60,000 ordered pairs), with seeds from the cryptographic RNG as in play.
 */

describe('provably fair dice', () => {
  const ROLLS = 60_000;
  const faces = new Array<number>(6).fill(0);
  const pairs = new Array<number>(36).fill(0);
  beforeAll(() => {
    let seed = randomBytes(32);
    for (let i = 0; i < ROLLS; i++) {
      if (i % 200 === 0) seed = randomBytes(32); // a game uses a few hundred rolls of one seed
      const [a, b] = rollAt(seed, i % 200);
      faces[a - 1]++;
      faces[b - 1]++;
      pairs[(a - 1) * 6 + (b - 1)]++;
    }
  });

  /** χ² statistic against the uniform distribution. */
  const chiSquare = (counts: number[]) => {
    const total = counts.reduce((x, y) => x + y, 0);
    const expected = total / counts.length;
    return counts.reduce((sum, c) => sum + ((c - expected) * (c - expected)) / expected, 0);
  };

  it('faces: χ² with 5 degrees of freedom below the 0.1% critical value (20.52)', () => {
    const x2 = chiSquare(faces);
    console.log(`dice χ² (faces, 120,000 values, 5 d.f.): ${x2.toFixed(2)}; pairs: ${chiSquare(pairs).toFixed(2)} (35 d.f.)`);
    expect(x2).toBeLessThan(20.52);
  });

  it('ordered pairs: χ² with 35 degrees of freedom below the 0.1% critical value (66.62)', () => {
    expect(chiSquare(pairs)).toBeLessThan(66.62);
  });

  it('rolls are a function of the seed and the index; the commitment is SHA-256 of the seed', () => {
    const seeds = deterministicSeeds('fixed');
    const seed = seeds();
    expect(rollAt(seed, 0)).toEqual(rollAt(Buffer.from(seed), 0));
    expect(commitmentOf(seed)).toMatch(/^[0-9a-f]{64}$/);
    const distinct = new Set(Array.from({ length: 100 }, (_, i) => rollAt(seed, i).join('')));
    expect(distinct.size).toBeGreaterThan(20);
  });
});
