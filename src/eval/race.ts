import { BearoffDatabase } from './bearoff/database';
import { MAX_ROLLS } from './bearoff/build';
import { rankHome } from './bearoff/ranking';
import { Evaluator, Family, makeEvaluator } from './evaluator';
import { LOSE_KOKS, LOSE_MARS, WIN, WIN_KOKS, WIN_MARS } from './probabilities';

/*
 * Race evaluation (no contact left) for both families.
 *
 * In a race the two sides no longer affect each other, so each side's
 * future is a one-sided problem: how many rolls it needs to bear off all
 * checkers (N), to bear off the first one (F, for mars / gammon), and — for
 * the triple results — to bring every checker home (S) or to get every
 * checker out of the winner's home (K, backgammon). With the side to move
 * rolling first:
 *
 *   win      = Σn P(Nm = n) · P(No ≥ n)
 *   winMars  = Σn P(Nm = n) · P(Fo ≥ n)          (the opponent has had n−1 rolls)
 *   loseMars = Σn P(No = n) · P(Fm ≥ n + 1)      (the mover has had n rolls)
 *
 * and the triple slots alike with the measure the scoring asks for. When all
 * of a side's checkers are home, N and F come exactly from the one-sided
 * bear-off database. Otherwise the side must first carry X pips across into
 * home; the crossing is modelled as a renewal of dice pips (`crossing`), the
 * checkers still outside are put on the 6-point for the database look-up,
 * and N = crossing + N(home with them on the 6-point). docs/evaluation.md
 * describes the model and its measured error.
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
let reachTable: Float64Array | null = null;
let effectiveTable: Float64Array | null = null;

function buildCrossingTables(): void {
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
  reachTable = reach;
  effectiveTable = effective;
}

function copyRow(table: Float64Array, pips: number, out: Float64Array): Float64Array {
  const x = pips <= 0 ? 0 : pips >= MAX_CROSSING ? MAX_CROSSING : Math.round(pips);
  for (let k = 0; k < MAX_ROLLS; k++) out[k] = table[x * MAX_ROLLS + k];
  return out;
}

/** Writes P(exactly k rolls to roll at least `pips` pips) into `out`. */
export function writeCrossing(pips: number, out: Float64Array): Float64Array {
  if (!reachTable) buildCrossingTables();
  return copyRow(reachTable as Float64Array, pips, out);
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

/**
 * Backgammon first-roll bear-off search (`firstRollOffChance`). A race has
 * no blocking, so the moves of a roll commute except that bearing off needs
 * every checker home: the search first spends dice on the checkers still
 * outside (own 7..25), then, with all home, tries to bear one off, moving
 * checkers inside home first where a spare die allows it.
 */
function homeBearsOff(pos: Int8Array, dice: Int8Array, n: number): boolean {
  if (n === 0) return false;
  let high = 0;
  for (let p = 6; p >= 1; p--) {
    if (pos[p] > 0) {
      high = p;
      break;
    }
  }
  if (high === 0) return true;
  for (let i = 0; i < n; i++) {
    const die = dice[i];
    if (pos[die] > 0 || die > high) return true;
  }
  if (n === 1) return false;
  let tried = 0;
  for (let i = 0; i < n; i++) {
    const die = dice[i];
    if (tried & (1 << die)) continue;
    tried |= 1 << die;
    dice[i] = dice[n - 1];
    dice[n - 1] = die;
    let ok = false;
    for (let q = high; q > die && !ok; q--) {
      if (pos[q] === 0) continue;
      pos[q]--;
      pos[q - die]++;
      ok = homeBearsOff(pos, dice, n - 1);
      pos[q - die]--;
      pos[q]++;
    }
    dice[n - 1] = dice[i];
    dice[i] = die;
    if (ok) return true;
  }
  return false;
}

function outsideBearsOff(pos: Int8Array, outside: number, dice: Int8Array, n: number): boolean {
  if (outside === 0) return homeBearsOff(pos, dice, n);
  // Every checker outside needs a die of its own, and then one must go off.
  if (outside > n) return false;
  let tried = 0;
  for (let i = 0; i < n; i++) {
    const die = dice[i];
    if (tried & (1 << die)) continue;
    tried |= 1 << die;
    dice[i] = dice[n - 1];
    dice[n - 1] = die;
    let ok = false;
    for (let p = 25; p >= 7 && !ok; p--) {
      if (pos[p] === 0) continue;
      const q = p - die;
      pos[p]--;
      pos[q]++;
      ok = outsideBearsOff(pos, q <= 6 ? outside - 1 : outside, dice, n - 1);
      pos[q]--;
      pos[p]++;
    }
    dice[n - 1] = dice[i];
    dice[i] = die;
    if (ok) return true;
  }
  return false;
}

/** The 15 non-double rolls. */
const NON_DOUBLES: readonly (readonly [number, number])[] = (() => {
  const rolls: [number, number][] = [];
  for (let a = 2; a <= 6; a++) for (let b = 1; b < a; b++) rolls.push([a, b]);
  return rolls;
})();

const searchBoard = new Int8Array(26);
const searchDice = new Int8Array(4);

/**
 * Exact chance that a backgammon side with none off bears its first checker
 * off with its next roll: every checker outside home must come in and one
 * go off, all with that roll's dice. `own` holds the side's counts by own
 * point, [25] = bar.
 */
export function firstRollOffChance(own: Int8Array): number {
  let outside = 0;
  for (let p = 7; p <= 25; p++) outside += own[p];
  if (outside > 4) return 0;
  let chance = 0;
  for (let d = 1; d <= 6; d++) {
    searchDice.fill(d);
    searchBoard.set(own);
    if (outsideBearsOff(searchBoard, outside, searchDice, 4)) chance += 1 / 36;
  }
  if (outside > 2) return chance;
  for (const [a, b] of NON_DOUBLES) {
    searchDice[0] = a;
    searchDice[1] = b;
    searchBoard.set(own);
    if (outsideBearsOff(searchBoard, outside, searchDice, 2)) chance += 2 / 36;
  }
  return chance;
}

/** Writes the effective-rolls distribution of a crossing of `pips` pips (see above) into `out`. */
export function writeEffectiveCrossing(pips: number, out: Float64Array): Float64Array {
  if (!effectiveTable) buildCrossingTables();
  return copyRow(effectiveTable as Float64Array, pips, out);
}

/**
 * What the koks (triple) slot of a race measures, per scoring rule:
 * - `none`: no triple result (long nardy K0, FV-6);
 * - `backgammon`: SH-SCORE-3, none off and a checker on the bar or in the winner's home (loser's 19..24);
 * - `startQuarter`: LN-SCORE-3 K3, none off and a checker on own 19..24;
 * - `noneInHome`: K4, none off and nothing on own 1..6;
 * - `allHome`: K1/K2 home mars, none off but all home;
 * - `notAllHome`: K5 / Soviet 4-point loss, none off and not all home.
 */
export type TripleMeasure = 'none' | 'backgammon' | 'startQuarter' | 'noneInHome' | 'allHome' | 'notAllHome';

/** Board layout constants of the two families, read without importing both board modules into hot loops. */
interface Layout {
  /** index of the mover's borne-off count */
  readonly moverOff: number;
  /** index of the opponent's borne-off count */
  readonly opponentOff: number;
  /** index of the mover's bar, or −1 */
  readonly moverBar: number;
  /** index of the opponent's bar, or −1 */
  readonly opponentBar: number;
  /** the opponent's own point of the mover's point p */
  other(p: number): number;
}

const LONG_LAYOUT: Layout = {
  moverOff: 0,
  opponentOff: 25,
  moverBar: -1,
  opponentBar: -1,
  other: (p) => (p <= 12 ? p + 12 : p - 12),
};

const SHORT_LAYOUT: Layout = {
  moverOff: 0,
  opponentOff: 27,
  moverBar: 25,
  opponentBar: 26,
  other: (p) => 25 - p,
};

/**
 * Short nardy: no contact — every checker of the side to move (the bar
 * counting as point 25) is past every opponent checker (his bar counting
 * as the mover's point 0), so no hit or block can happen again.
 */
export function isShortRace(board: Int8Array): boolean {
  if (board[25] > 0 || board[26] > 0) return false;
  let rearMine = 0;
  for (let p = 24; p >= 1; p--) {
    if (board[p] > 0) {
      rearMine = p;
      break;
    }
  }
  for (let p = 1; p <= 24; p++) {
    if (board[p] < 0) return p > rearMine;
  }
  return true;
}

/**
 * Long family: no checker can interact any more. Both sides move the same
 * way round, so the points a side can still reach are all own points below
 * its rearmost checker. Those sets are disjoint exactly when every checker
 * of each side stands on its own points 1..12 (for the side to move, own
 * 1..12; for the opponent, the mover's 13..24): then no landing can be
 * blocked (LN-MOVE-2), no six-block can have an opponent checker behind it
 * (LN-BLOCK-3, FV-5) and no head rule applies, so the game is a pure race.
 */
export function isLongRace(board: Int8Array): boolean {
  for (let p = 13; p <= 24; p++) if (board[p] > 0) return false;
  for (let p = 1; p <= 12; p++) if (board[p] < 0) return false;
  return true;
}

/** One side's race distributions (scratch, reused). */
class SideRace {
  /** own counts by own point, [25] = bar */
  readonly own = new Int8Array(26);
  readonly off = new Float64Array(MAX_ROLLS);
  readonly firstOff = new Float64Array(MAX_ROLLS);
  /** rolls to bring every checker home (S) */
  readonly home = new Float64Array(MAX_ROLLS);
  /** rolls until the triple condition is gone (K), per measure */
  readonly triple = new Float64Array(MAX_ROLLS);
  borneOff = 0;
  readonly homeBoard = new Int8Array(7);
  readonly dbDist = new Float64Array(MAX_ROLLS);
  readonly cross = new Float64Array(MAX_ROLLS);

  /** Fills `own` from a board seen from the mover; `mover` false reads the opponent's checkers. */
  read(board: Int8Array, layout: Layout, mover: boolean): void {
    const own = this.own;
    own.fill(0);
    if (mover) {
      for (let p = 1; p <= 24; p++) if (board[p] > 0) own[p] = board[p];
      own[25] = layout.moverBar >= 0 ? board[layout.moverBar] : 0;
      this.borneOff = board[layout.moverOff];
    } else {
      for (let p = 1; p <= 24; p++) if (board[p] < 0) own[layout.other(p)] = -board[p];
      own[25] = layout.opponentBar >= 0 ? board[layout.opponentBar] : 0;
      this.borneOff = board[layout.opponentOff];
    }
  }
}

/** out = a ⊛ b (distributions over rolls, truncated with the tail folded into the last slot). */
function convolve(a: Float64Array, b: Float64Array, out: Float64Array): void {
  out.fill(0);
  let aLast = MAX_ROLLS - 1;
  while (aLast > 0 && a[aLast] === 0) aLast--;
  let bLast = MAX_ROLLS - 1;
  while (bLast > 0 && b[bLast] === 0) bLast--;
  for (let i = 0; i <= aLast; i++) {
    const ai = a[i];
    if (ai === 0) continue;
    for (let j = 0; j <= bLast; j++) {
      const k = i + j < MAX_ROLLS ? i + j : MAX_ROLLS - 1;
      out[k] += ai * b[j];
    }
  }
}

/** Tunable constants of the crossing model (calibrated in docs/evaluation.md). */
export interface RaceModel {
  /** Extra pips per checker still outside home (crossing inefficiency). */
  readonly perCheckerOutside: number;
  /**
   * Pips credited back once for a side with checkers outside: the roll that
   * brings the last checker home usually has pips left over, which move
   * checkers on inside home, so the crossing needs fewer whole rolls than
   * "at least X pips" suggests.
   */
  readonly overshootCredit: number;
  /** The same two constants for the first checker off (mars / gammon saving: every checker just needs to get in). */
  readonly marsPerCheckerOutside: number;
  readonly marsOvershootCredit: number;
  /**
   * Mars saving: the fewest pips a checker outside home costs. A checker one
   * pip from home still takes a whole die (3.5 pips on average) to come in.
   */
  readonly marsMinimumPerChecker: number;
}

export const DEFAULT_RACE_MODEL: RaceModel = Object.freeze({
  perCheckerOutside: 0.5,
  overshootCredit: 1,
  marsPerCheckerOutside: 0.75,
  marsOvershootCredit: 0,
  marsMinimumPerChecker: 0,
});

/**
 * Puts the exact chance `p1` of the first checker off within one roll into
 * slot 1 of a first-off distribution and rescales the later slots to the
 * rest (slot 0 is empty: the side has none off and checkers outside).
 */
function fixFirstRoll(d: Float64Array, p1: number): void {
  const rest = 1 - d[0] - d[1];
  d[1] = p1;
  if (rest > 1e-12) {
    const scale = (1 - d[0] - p1) / rest;
    for (let k = 2; k < MAX_ROLLS; k++) d[k] *= scale;
  } else {
    d[2] += 1 - d[0] - p1;
  }
}

/**
 * Computes one side's distributions. `db` is the bear-off database of the
 * rule set in force; `triple` says which triple measure to fill.
 */
function sideDistributions(
  side: SideRace,
  db: BearoffDatabase,
  triple: TripleMeasure,
  model: RaceModel,
  exactFirstRoll: boolean,
): void {
  const own = side.own;
  // Crossing: pips to bring every checker onto the 6-point at least.
  let crossPips = 0;
  let marsPips = 0;
  let marsUnits = 0;
  let outside = 0;
  const minimum = model.marsMinimumPerChecker;
  for (let p = 7; p <= 25; p++) {
    if (own[p] > 0) {
      crossPips += own[p] * (p - 6);
      marsPips += own[p] * (p - 6 > minimum ? p - 6 : minimum);
      marsUnits += own[p] * Math.ceil((p - 6) / 6);
      outside += own[p];
    }
  }
  const hb = side.homeBoard;
  for (let p = 1; p <= 6; p++) hb[p] = own[p];
  hb[6] += outside;
  const rank = rankHome(hb);
  if (outside === 0) {
    db.writeOff(rank, side.off);
    db.writeFirstOff(rank, side.firstOff);
    side.home.fill(0);
    side.home[0] = 1;
  } else {
    writeCrossing(crossPips, side.home);
    writeEffectiveCrossing(
      Math.max(0, crossPips + model.perCheckerOutside * outside - model.overshootCredit),
      side.cross,
    );
    db.writeOff(rank, side.dbDist);
    convolve(side.cross, side.dbDist, side.off);
    if (side.borneOff > 0) {
      side.firstOff.fill(0);
      side.firstOff[0] = 1;
    } else {
      // The first checker off: every checker must get in and then one goes
      // off, which can happen within the same roll, so it is one crossing of
      // X pips plus the pips of the lowest checker home.
      let lowest = 6;
      for (let p = 1; p <= 6; p++) {
        if (hb[p] > 0) {
          lowest = p;
          break;
        }
      }
      writeReach(
        Math.max(1, marsPips + lowest + model.marsPerCheckerOutside * outside - model.marsOvershootCredit),
        marsUnits + 1,
        side.firstOff,
      );
      if (exactFirstRoll) fixFirstRoll(side.firstOff, firstRollOffChance(own));
    }
  }
  // Triple measures: the distribution of rolls until the triple condition is gone.
  const t = side.triple;
  t.fill(0);
  switch (triple) {
    case 'none':
      t[0] = 1;
      break;
    case 'backgammon':
    case 'startQuarter': {
      // Get every checker out of own 19..24 (and off the bar).
      let pips = 0;
      let needed = 0;
      for (let p = 19; p <= 25; p++) {
        if (own[p] > 0) {
          pips += own[p] * (p - 18);
          needed += own[p] * Math.ceil((p - 18) / 6);
        }
      }
      writeReach(pips, needed, t);
      break;
    }
    case 'noneInHome': {
      // The first checker to reach home ends the condition; the dice can all go to the nearest one.
      let nearest = 0;
      for (let p = 1; p <= 25; p++) {
        if (own[p] > 0) {
          nearest = p;
          break;
        }
      }
      writeCrossing(nearest > 6 ? nearest - 6 : 0, t);
      break;
    }
    case 'notAllHome':
      t.set(side.home);
      break;
    case 'allHome':
      // Handled by the caller from firstOff and home (mars minus not-all-home).
      t.set(side.home);
      break;
  }
}

/** P(X ≥ n) for every n, from a distribution: out[n] = Σ_{k ≥ n} d[k]. */
function tailsInto(d: Float64Array, out: Float64Array): void {
  let s = 0;
  for (let k = MAX_ROLLS - 1; k >= 0; k--) {
    s += d[k];
    out[k] = s;
  }
}

/**
 * Race probabilities of two one-sided futures, the mover rolling first
 * (formulas at the top of this file).
 */
function combine(
  m: SideRace,
  o: SideRace,
  triple: TripleMeasure,
  tails: Float64Array[],
  out: Float64Array,
  offset: number,
): void {
  const [oOff, oFirst, oTriple, mFirst, mTriple, oHome, mHome] = tails;
  tailsInto(o.off, oOff);
  tailsInto(o.firstOff, oFirst);
  tailsInto(o.triple, oTriple);
  tailsInto(m.firstOff, mFirst);
  tailsInto(m.triple, mTriple);
  tailsInto(o.home, oHome);
  tailsInto(m.home, mHome);
  const oCanMars = o.borneOff === 0;
  const mCanMars = m.borneOff === 0;
  let win = 0;
  let winMars = 0;
  let winTriple = 0;
  let loseMars = 0;
  let loseTriple = 0;
  for (let n = 1; n < MAX_ROLLS; n++) {
    const dm = m.off[n];
    if (dm !== 0) {
      win += dm * oOff[n];
      if (oCanMars) {
        winMars += dm * oFirst[n];
        if (triple === 'allHome') winTriple += dm * Math.max(0, oFirst[n] - oHome[n]);
        else if (triple !== 'none') winTriple += dm * Math.min(oFirst[n], oTriple[n]);
      }
    }
    const d = o.off[n];
    if (d !== 0) {
      const k = n + 1 < MAX_ROLLS ? n + 1 : MAX_ROLLS - 1;
      if (mCanMars) {
        loseMars += d * mFirst[k];
        if (triple === 'allHome') loseTriple += d * Math.max(0, mFirst[k] - mHome[k]);
        else if (triple !== 'none') loseTriple += d * Math.min(mFirst[k], mTriple[k]);
      }
    }
  }
  out[offset + WIN] = win;
  out[offset + WIN_MARS] = winMars;
  out[offset + WIN_KOKS] = winTriple;
  out[offset + LOSE_MARS] = loseMars;
  out[offset + LOSE_KOKS] = loseTriple;
}

/** Options of a race evaluator. */
export interface RaceEvaluatorOptions {
  readonly family: Family;
  /**
   * The one-sided database of the bear-off rule set in force, asked for on
   * the first race evaluation (so a caller can load it lazily).
   */
  readonly database: () => BearoffDatabase;
  readonly triple: TripleMeasure;
  readonly model?: RaceModel;
}

/** A race evaluator: `evaluateInto` assumes `isShortRace` / `isLongRace` holds. */
export interface RaceEvaluator extends Evaluator {
  /** Whether `board` is a race of this family. */
  isRace(board: Int8Array): boolean;
  /** Expected rolls the side to move (`mover`) or the opponent still needs to bear off all checkers. */
  expectedRolls(board: Int8Array, mover: boolean): number;
}

/**
 * Creates the exact / effective-pip race evaluator of a family (see the top
 * of this file). Allocation-free per call.
 */
export function createRaceEvaluator(options: RaceEvaluatorOptions): RaceEvaluator {
  const layout = options.family === 'long' ? LONG_LAYOUT : SHORT_LAYOUT;
  const model = options.model ?? DEFAULT_RACE_MODEL;
  const triple = options.triple;
  // The first-roll search knows the backgammon moves only.
  const exactFirstRoll = options.family === 'short';
  const mover = new SideRace();
  const opponent = new SideRace();
  const tails: Float64Array[] = [];
  for (let i = 0; i < 7; i++) tails.push(new Float64Array(MAX_ROLLS));
  let db: BearoffDatabase | null = null;
  const database = (): BearoffDatabase => (db ??= options.database());
  const isRace = options.family === 'long' ? isLongRace : isShortRace;
  const core = {
    family: options.family,
    name: `race-${options.family}`,
    // 2: the backgammon race takes its first-roll bear-off chance exactly (`firstRollOffChance`).
    version: `${exactFirstRoll ? 2 : 1}.${model.perCheckerOutside}.${model.overshootCredit}.${model.marsPerCheckerOutside}.${model.marsOvershootCredit}.${model.marsMinimumPerChecker}.${triple}.${options.family === 'long' ? 'l' : 's'}`,
    isRace,
    evaluateInto(board: Int8Array, out: Float64Array, offset: number): void {
      const d = database();
      mover.read(board, layout, true);
      opponent.read(board, layout, false);
      sideDistributions(mover, d, triple, model, exactFirstRoll);
      sideDistributions(opponent, d, triple, model, exactFirstRoll);
      combine(mover, opponent, triple, tails, out, offset);
    },
    expectedRolls(board: Int8Array, isMover: boolean): number {
      const side = isMover ? mover : opponent;
      side.read(board, layout, isMover);
      sideDistributions(side, database(), 'none', model, false);
      let mean = 0;
      for (let k = 0; k < MAX_ROLLS; k++) mean += k * side.off[k];
      return mean;
    },
  };
  return makeEvaluator(core);
}

/** Effective pip count (EPC) of a side: expected rolls × 49/6 pips per roll. */
export function effectivePips(expectedRolls: number): number {
  return expectedRolls * PIPS_PER_ROLL;
}
