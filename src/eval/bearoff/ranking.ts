/**
 * A dense ranking of home distributions: every way of placing 0..15
 * checkers on own points 1..6 gets an index in [0, BEAROFF_POSITIONS).
 * Equivalently, 15 checkers in 7 boxes (off + six points): C(21, 6) =
 * 54 264 positions. Index 0 is "all borne off".
 *
 * The rank counts, point by point from 6 down to 1, the distributions that
 * put fewer checkers on that point with the same checkers above it
 * (combinatorial number system), so it costs six table look-ups.
 */

export const HOME_POINTS = 6;
export const MAX_CHECKERS = 15;

/** C(n, k) for small n, k (exact in doubles). */
function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** Distributions of at most r checkers on k points: C(r + k, k). */
function upTo(k: number, r: number): number {
  return r < 0 ? 0 : binomial(r + k, k);
}

/** Number of ranked positions: C(21, 6) = 54 264. */
export const BEAROFF_POSITIONS = upTo(HOME_POINTS, MAX_CHECKERS);

/**
 * SKIP[(point − 1) · 16 · 16 + left · 16 + c]: how many distributions with
 * at most `left` checkers on points 1..point put fewer than c checkers on
 * `point` — the rank offset for c checkers there.
 */
const SKIP: Int32Array = (() => {
  const t = new Int32Array(HOME_POINTS * 16 * 16);
  for (let point = 1; point <= HOME_POINTS; point++) {
    for (let left = 0; left <= MAX_CHECKERS; left++) {
      let sum = 0;
      for (let c = 0; c <= left; c++) {
        t[(point - 1) * 256 + left * 16 + c] = sum;
        sum += upTo(point - 1, left - c);
      }
    }
  }
  return t;
})();

/**
 * Rank of the checkers on points 1..6 read from `counts[base + 1 … base + 6]`
 * (negative entries — opponent checkers — count as 0). The caller
 * guarantees at most 15 checkers there.
 */
export function rankHome(counts: ArrayLike<number>, base = 0): number {
  let left = MAX_CHECKERS;
  let rank = 0;
  for (let point = HOME_POINTS; point >= 1; point--) {
    const raw = counts[base + point];
    const c = raw > 0 ? raw : 0;
    rank += SKIP[(point - 1) * 256 + left * 16 + c];
    left -= c;
  }
  return rank;
}

/** Writes the counts of rank `rank` into `out[1..6]` (out[0] is left alone). */
export function unrankHome(rank: number, out: Int8Array | Int32Array): void {
  let left = MAX_CHECKERS;
  for (let point = HOME_POINTS; point >= 1; point--) {
    let c = 0;
    // The largest c whose offset does not exceed the remaining rank.
    while (c < left && SKIP[(point - 1) * 256 + left * 16 + c + 1] <= rank) c++;
    rank -= SKIP[(point - 1) * 256 + left * 16 + c];
    out[point] = c;
    left -= c;
  }
}
