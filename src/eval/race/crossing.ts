import { MAX_ROLLS } from '../bearoff/build';
import { once } from '../once';

/*
 * The dice as a renewal process: how many rolls a side needs to carry a
 * number of pips (and die-units) across into home. Shared by both families'
 * race evaluation (index.ts).
 */

/** Highest pip total the crossing table covers (15 checkers from the bar in backgammon: 285). */
const MAX_CROSSING = 400;
/** Pips rolled per turn: a+b, or 4a for a double. */
const PIPS_PER_ROLL = 49 / 6;
/**
 * Two tables over x = 0 … MAX_CROSSING pips and k = 0 … MAX_ROLLS−1 rolls,
 * built together on first use (about 0.1 s):
 *
 * - REACH[x][k] = P(the dice need exactly k rolls to total at least x pips)
 *   — the renewal count K, exact for dice whose every pip can be used (the
 *   case while checkers come home in a race). Used where whole rolls
 *   matter: the first checker off, getting out of the opponent's home.
 * - EFFECTIVE[x][k]: the crossing as a number of rolls taken away from the
 *   bear-off that follows. The roll that completes the crossing has L pips
 *   left over, which move checkers on inside home; it is counted as the
 *   crossing's last roll with probability 1 − L/(49/6) and as the
 *   bear-off's first with probability L/(49/6). Its mean is exactly
 *   x / (49/6) (Wald's identity), so a crossing of x pips costs x pips'
 *   worth of rolls, with the variance the dice give it.
 */
interface CrossingTables {
  readonly reach: Float64Array;
  readonly effective: Float64Array;
}

function buildCrossingTables(): CrossingTables {
  const width = MAX_CROSSING + 1;
  const rollPmf = new Float64Array(25);
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) rollPmf[a === b ? 4 * a : a + b] += 1 / 36;
  const rollValues: number[] = [];
  for (let r = 1; r <= 24; r++) if (rollPmf[r] > 0) rollValues.push(r);
  const reach = new Float64Array(width * MAX_ROLLS);
  const effective = new Float64Array(width * MAX_ROLLS);
  // pmf of the pip total after k−1 rolls, restricted to totals below MAX_CROSSING
  let pmf = new Float64Array(width);
  pmf[0] = 1;
  for (let k = 1; k < MAX_ROLLS; k++) {
    const next = new Float64Array(width);
    for (let s = 0; s < MAX_CROSSING; s++) {
      const p = pmf[s];
      if (p < 1e-300) continue;
      for (const r of rollValues) {
        const q = p * rollPmf[r];
        // This roll takes the total from s to s + r: it completes the
        // crossing of every x in (s, s + r], with r − (x − s) pips left over.
        const top = s + r < MAX_CROSSING ? s + r : MAX_CROSSING;
        for (let x = s + 1; x <= top; x++) {
          reach[x * MAX_ROLLS + k] += q;
          const left = s + r - x;
          const early = left >= PIPS_PER_ROLL ? 1 : left / PIPS_PER_ROLL;
          effective[x * MAX_ROLLS + k - 1] += q * early;
          effective[x * MAX_ROLLS + k] += q * (1 - early);
        }
        if (s + r < MAX_CROSSING) next[s + r] += q;
      }
    }
    pmf = next;
  }
  reach[0] = 1;
  effective[0] = 1;
  for (let x = 1; x <= MAX_CROSSING; x++) {
    // Whatever did not fit (only for very long crossings) goes to the last slot.
    for (const t of [reach, effective]) {
      let sum = 0;
      for (let k = 0; k < MAX_ROLLS; k++) sum += t[x * MAX_ROLLS + k];
      if (sum < 1) t[x * MAX_ROLLS + MAX_ROLLS - 1] += 1 - sum;
    }
  }
  return { reach, effective };
}

/**
 * The tables, built on the first call: a memo of the pure
 * `buildCrossingTables`, whose arrays are only read after (rows are copied
 * out by `copyRow`).
 */
const crossingTables = once(buildCrossingTables);

function copyRow(table: Float64Array, pips: number, out: Float64Array): Float64Array {
  const x = pips <= 0 ? 0 : pips >= MAX_CROSSING ? MAX_CROSSING : Math.round(pips);
  for (let k = 0; k < MAX_ROLLS; k++) out[k] = table[x * MAX_ROLLS + k];
  return out;
}


/** Writes P(exactly k rolls to roll at least `pips` pips) into `out`. */
export function writeCrossing(pips: number, out: Float64Array): Float64Array {
  return copyRow(crossingTables().reach, pips, out);
}

/** Writes the effective-rolls distribution of a crossing of `pips` pips (see above) into `out`. */
export function writeEffectiveCrossing(pips: number, out: Float64Array): Float64Array {
  return copyRow(crossingTables().effective, pips, out);
}

/** Die-units counted by `writeReach` (a larger need is capped). */
const MAX_UNITS_NEEDED = 64;

/** The 21 rolls as (pips, is a double, probability). */
const ROLL_PIPS: readonly { pips: number; double: boolean; p: number }[] = (() => {
  const rolls: { pips: number; double: boolean; p: number }[] = [];
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= a; b++)
      rolls.push({ pips: a === b ? 4 * a : a + b, double: a === b, p: a === b ? 1 / 36 : 2 / 36 });
  return rolls;
})();

/**
 * A memo of `writeReach`'s pure result by (pips, units): at most
 * 401 × 65 rows, each copied out, never written after it is stored.
 */
const reachCache = new Map<number, Float64Array>();

/**
 * Rolls until the dice have given at least `pips` pips **and** at least
 * `unitsNeeded` die-units (each checker that must move needs a unit of its
 * own, however few pips it needs; a roll gives 2 units, a double 4). Exact
 * for the dice, by dynamic programming over (pips so far, doubles so far);
 * results are cached by (pips, units).
 */
export function writeReach(pips: number, unitsNeeded: number, out: Float64Array): Float64Array {
  const x = pips <= 0 ? 0 : pips >= MAX_CROSSING ? MAX_CROSSING : Math.round(pips);
  const u = unitsNeeded <= 0 ? 0 : unitsNeeded > MAX_UNITS_NEEDED ? MAX_UNITS_NEEDED : unitsNeeded;
  // One roll always gives two units: then the pips alone decide.
  if (u <= 2 && x > 0) return writeCrossing(x, out);
  if (u === 0) return writeCrossing(x, out);
  const key = x * (MAX_UNITS_NEEDED + 1) + u;
  const hit = reachCache.get(key);
  if (hit) {
    out.set(hit);
    return out;
  }
  const maxDoubles = MAX_UNITS_NEEDED / 2;
  const width = maxDoubles + 1;
  // pmf[s · width + j]: pips so far s (capped at x) and doubles so far j (capped).
  let pmf = new Float64Array((x + 1) * width);
  let next = new Float64Array((x + 1) * width);
  pmf[0] = 1;
  const result = new Float64Array(MAX_ROLLS);
  let previous = 0;
  for (let k = 1; k < MAX_ROLLS; k++) {
    next.fill(0);
    for (let s = 0; s <= x; s++) {
      for (let j = 0; j < width; j++) {
        const q = pmf[s * width + j];
        if (q === 0) continue;
        for (const roll of ROLL_PIPS) {
          const t = s + roll.pips > x ? x : s + roll.pips;
          const jj = roll.double && j < maxDoubles ? j + 1 : j;
          next[t * width + jj] += q * roll.p;
        }
      }
    }
    const swap = pmf;
    pmf = next;
    next = swap;
    // P(K ≤ k): both totals reached (they only grow).
    let cdf = 0;
    const minDoubles = Math.max(0, Math.ceil((u - 2 * k) / 2));
    for (let j = minDoubles; j < width; j++) cdf += pmf[x * width + j];
    result[k] = cdf - previous;
    previous = cdf;
    if (cdf > 1 - 1e-13) break;
  }
  result[MAX_ROLLS - 1] += Math.max(0, 1 - previous);
  reachCache.set(key, result);
  out.set(result);
  return out;
}


/** Effective pip count (EPC) of a side: expected rolls × 49/6 pips per roll. */
export function effectivePips(expectedRolls: number): number {
  return expectedRolls * PIPS_PER_ROLL;
}
