import { DISTINCT_ROLLS } from '../../engine/dice';

/*
 * Features of a backgammon (short nardy) position for the linear contact
 * evaluator (docs/evaluation.md, "Short family"). Board layout: see
 * src/engine/short/board.ts — seen from the side to move, [1..24] signed
 * counts by the mover's own point, [25] mover's bar, [26] opponent's bar,
 * [0] mover off, [27] opponent off.
 *
 * The same per-side block of features is computed for the side to move and
 * for the opponent (each in its own numbering); the evaluator gives the two
 * blocks different weights, because the side to move rolls first.
 */

/** Per side: raw point encoding, 4 numbers for each of the 24 own points. */
const RAW = 24 * 4;
/** Per side: hand-made features after the raw block. */
export const SIDE_FEATURES = RAW + 24;
/** Global features after the two side blocks. */
const GLOBAL = 6 + 2 * 24 + 6;
/** Length of the feature vector. */
export const SHORT_FEATURES = 2 * SIDE_FEATURES + GLOBAL;

/**
 * HIT_MASK[d]: the rolls (bit i = roll i of `SHORT_ROLLS`) with which a
 * checker can hit a blot d pips away using one die or the sum of both
 * (a double: up to four steps), ignoring points blocked on the way.
 * `SHORT_ROLLS` lists the 15 non-doubles first, then the 6 doubles.
 */
export const SHORT_ROLLS: readonly (readonly [number, number])[] = DISTINCT_ROLLS.map((roll) => roll.dice);

const HIT_MASK: Int32Array = (() => {
  const masks = new Int32Array(25);
  SHORT_ROLLS.forEach(([a, b], i) => {
    const reach = a === b ? [a, 2 * a, 3 * a, 4 * a] : [a, b, a + b];
    for (const d of reach) if (d <= 24) masks[d] |= 1 << i;
  });
  return masks;
})();

/** Weighted number of rolls (out of 36) in a roll mask: non-doubles count twice. */
function rollsIn(mask: number): number {
  let n = 0;
  let m = mask & 0x7fff;
  while (m) {
    m &= m - 1;
    n += 2;
  }
  m = mask >>> 15;
  while (m) {
    m &= m - 1;
    n += 1;
  }
  return n;
}

/** Names of the hand-made per-side features, in order (for docs and the fitting script). */
export const SIDE_FEATURE_NAMES: readonly string[] = [
  'pips/100',
  'bar',
  'bar>=1',
  'off/15',
  'blots',
  'shots against blots /36',
  'home points made',
  'home board closed',
  'longest prime',
  'prime >= 4',
  'anchors in opponent home',
  'back checkers (own 19..24 + bar)',
  'checkers trapped behind the opponent prime',
  'entering: P(a bar checker stays out)',
  'stacked checkers beyond 3',
  'outfield points made (own 7..11)',
  'expected pips lost to hits /25',
  'back checkers\' open single steps /6 (escape)',
  'home points × (other side\'s bar + blots in our home) (attack)',
  'checkers on own 1..6 /15',
  'checkers on own 7..12 /15',
  'checkers on own 13..18 /15',
  'longest prime × checkers trapped behind it /15',
  'anchors × back checkers',
];

export const GLOBAL_FEATURE_NAMES: readonly string[] = [
  'bias',
  'race lead / 100',
  'contact',
  'race lead × contact / 100',
  'race lead / √(total pips)',
  'race lead / √(total pips) × contact',
  // 48 game-phase products: each side's 24 hand-made features × min(1, total pips / 334)
  ...['mover', 'opponent'].flatMap((side) => SIDE_FEATURE_NAMES.map((name) => `${side} ${name} × phase`)),
  'mover shots × opponent home points/6',
  'opponent shots × mover home points/6',
  'mover pips lost to hits × opponent home points/6',
  'opponent pips lost to hits × mover home points/6',
  'lead/√total × |lead/√total|',
  '(lead/√total)³',
];

/**
 * Side-relative view: `own[p]` = this side's checkers on its own point p,
 * `his[p]` = the other side's checkers on *this side's* point p.
 */
class SideView {
  readonly own = new Int8Array(26);
  readonly his = new Int8Array(26);
  bar = 0;
  hisBar = 0;
  off = 0;
  pips = 0;
  /** Bit p set: the other side has checkers on this side's point p (bit 0: on his bar). */
  hisMask = 0;
  /** This side's rearmost checker (25 = the bar, 0 = none on the board). */
  rear = 0;
  /** Set by `sideFeatures`: points made in own home, own blots in own home. */
  homePoints = 0;
  homeBlots = 0;

  /** `mover` true: the side to move; false: the opponent, turned to his numbering. */
  read(board: Int8Array, mover: boolean): void {
    const own = this.own;
    const his = this.his;
    let pips = 0;
    let mask = 0;
    let rear = 0;
    for (let p = 1; p <= 24; p++) {
      const v = mover ? board[p] : -board[25 - p];
      if (v > 0) {
        own[p] = v;
        his[p] = 0;
        pips += v * p;
        rear = p;
      } else {
        own[p] = 0;
        his[p] = -v;
        if (v < 0) mask |= 1 << p;
      }
    }
    this.bar = mover ? board[25] : board[26];
    this.hisBar = mover ? board[26] : board[25];
    if (this.hisBar > 0) mask |= 1;
    this.off = mover ? board[0] : board[27];
    this.pips = pips + 25 * this.bar;
    this.hisMask = mask;
    this.rear = this.bar > 0 ? 25 : rear;
  }
}

/** The scratch of `shortFeatures`: both sides' views of a board, owned by the caller. */
export class ShortFeatureScratch {
  readonly mover = new SideView();
  readonly opponent = new SideView();
}

/**
 * The four raw inputs of a point holding `n` of the side's checkers: a blot,
 * a made point, a spare, and half the checkers beyond three (all 0 when empty).
 */
function writePoint(out: Float64Array, k: number, n: number): void {
  out[k] = n === 1 ? 1 : 0;
  out[k + 1] = n >= 2 ? 1 : 0;
  out[k + 2] = n >= 3 ? 1 : 0;
  out[k + 3] = n > 3 ? (n - 3) / 2 : 0;
}

/**
 * The rolls of the other side that hit a blot of ours on point `p` (SH-MOVE-1),
 * direct or combined, as a mask of `SHORT_ROLLS`; points blocked on the way
 * are not checked. Hitters stand on lower points of ours: his checkers move
 * up in our numbering.
 */
function blotShots(hisMask: number, p: number): number {
  let m = hisMask & ((1 << p) - 1);
  let blotMask = 0;
  while (m !== 0) {
    const q = 31 - Math.clz32(m);
    m ^= 1 << q;
    blotMask |= HIT_MASK[p - q];
  }
  return blotMask;
}

/** Checkers trapped behind the other side's prime of 4 or more: those on the bar and on points 13..24. */
function trappedBehind(side: SideView, hisPrime: number): number {
  let trapped = 0;
  if (hisPrime >= 4) {
    trapped = side.bar;
    for (let p = 13; p <= 24; p++) trapped += side.own[p];
  }
  return trapped;
}

/**
 * Entering (SH-BAR-1): a bar checker enters on own 19..24; the other side's
 * points made there close it. The count of closed points (0 with nobody on the bar).
 */
function closedEntries(side: SideView): number {
  let closed = 0;
  if (side.bar > 0) for (let p = 19; p <= 24; p++) if (side.his[p] >= 2) closed++;
  return closed;
}

/** Escape: open single steps of the rearmost checker (from the bar: entering points); all 6 once it is below point 19. */
function openSteps(side: SideView): number {
  const rear = side.rear;
  let open = 0;
  if (rear >= 19) {
    for (let d = 1; d <= 6; d++) if (side.his[rear - d] < 2) open++;
  } else open = 6;
  return open;
}

/**
 * Writes one side's block of features at `base`: the raw point encoding
 * and the hand-made features, in one pass over the points.
 */
function sideFeatures(side: SideView, out: Float64Array, base: number): void {
  const own = side.own;
  const his = side.his;
  let blots = 0;
  let homePoints = 0;
  let anchors = 0;
  let back = side.bar;
  let stacked = 0;
  let outfield = 0;
  let prime = 0;
  let run = 0;
  // The other side's longest run of made points below this side's rear (his prime in front of us).
  let hisPrime = 0;
  let hisRun = 0;
  // Shots (SH-MOVE-1): the other side's rolls that hit at least one of our blots.
  let shotMask = 0;
  let pipLoss = 0;
  let ourHomeBlots = 0;
  let home = 0;
  let outer = 0;
  let middle = 0;
  const hisMask = side.hisMask;
  const rear = side.rear;
  for (let p = 1; p <= 24; p++) {
    const n = own[p];
    if (p < rear) {
      if (his[p] >= 2) {
        hisRun++;
        if (hisRun > hisPrime) hisPrime = hisRun;
      } else hisRun = 0;
    }
    writePoint(out, base + (p - 1) * 4, n);
    if (n === 0) {
      run = 0;
      continue;
    }
    if (p >= 19) back += n;
    else if (p >= 13) middle += n;
    else if (p >= 7) outer += n;
    else home += n;
    if (n > 3) stacked += n - 3;
    if (n === 1) {
      blots++;
      run = 0;
      const blotMask = blotShots(hisMask, p);
      shotMask |= blotMask;
      // A hit sends the blot back to the bar: 25 − p pips lost.
      if (blotMask !== 0) pipLoss += (rollsIn(blotMask) / 36) * (25 - p);
      if (p <= 6) ourHomeBlots++;
      continue;
    }
    run++;
    if (run > prime) prime = run;
    if (p <= 6) homePoints++;
    else if (p <= 11) outfield++;
    else if (p >= 19) anchors++;
  }
  const trapped = trappedBehind(side, hisPrime);
  // A bar checker stays out with probability (closed/6)².
  const closed = closedEntries(side);
  const open = openSteps(side);
  const h = base + RAW;
  out[h] = side.pips / 100;
  out[h + 1] = side.bar;
  out[h + 2] = side.bar > 0 ? 1 : 0;
  out[h + 3] = side.off / 15;
  out[h + 4] = blots;
  out[h + 5] = rollsIn(shotMask) / 36;
  out[h + 6] = homePoints;
  out[h + 7] = homePoints === 6 ? 1 : 0;
  out[h + 8] = prime;
  out[h + 9] = prime >= 4 ? 1 : 0;
  out[h + 10] = anchors;
  out[h + 11] = back;
  out[h + 12] = trapped;
  out[h + 13] = side.bar > 0 ? (closed / 6) * (closed / 6) : 0;
  out[h + 14] = stacked;
  out[h + 15] = outfield;
  out[h + 16] = pipLoss / 25;
  out[h + 17] = open / 6;
  out[h + 18] = 0; // attack: filled by shortFeatures, which sees both sides
  out[h + 19] = home / 15;
  out[h + 20] = outer / 15;
  out[h + 21] = middle / 15;
  out[h + 22] = (hisPrime * trapped) / 15;
  out[h + 23] = anchors * back;
  side.homePoints = homePoints;
  side.homeBlots = ourHomeBlots;
}

/** Is there still contact (some checker of the side to move behind an opponent checker)? */
function hasContact(mover: SideView): boolean {
  // An opponent checker on a point of ours below our rearmost checker (his bar = our point 0).
  return (mover.hisMask & ((1 << mover.rear) - 1)) !== 0 || mover.hisBar > 0;
}

/**
 * Writes the feature vector of `board` (seen from the side to move) into
 * `out` (length `SHORT_FEATURES`). Allocation-free with a `scratch` the
 * caller owns (one per evaluator); a scratch is not re-entrant.
 */
export function shortFeatures(board: Int8Array, out: Float64Array, scratch: ShortFeatureScratch = new ShortFeatureScratch()): void {
  const { mover, opponent } = scratch;
  mover.read(board, true);
  opponent.read(board, false);
  sideFeatures(mover, out, 0);
  sideFeatures(opponent, out, SIDE_FEATURES);
  const g = 2 * SIDE_FEATURES;
  const lead = (opponent.pips - mover.pips) / 100;
  const contact = hasContact(mover) ? 1 : 0;
  // Attack: our home points against the other side's checkers on the bar and blots in our home
  // (his blots in our home are his own 19..24).
  let moverTargets = opponent.bar;
  let opponentTargets = mover.bar;
  for (let p = 19; p <= 24; p++) {
    if (opponent.own[p] === 1) moverTargets++;
    if (mover.own[p] === 1) opponentTargets++;
  }
  out[RAW + 18] = mover.homePoints * moverTargets;
  out[SIDE_FEATURES + RAW + 18] = opponent.homePoints * opponentTargets;
  const normalised = (opponent.pips - mover.pips + 4) / Math.sqrt(Math.max(opponent.pips + mover.pips, 16));
  out[g] = 1;
  out[g + 1] = lead;
  out[g + 2] = contact;
  out[g + 3] = lead * contact;
  out[g + 4] = normalised;
  out[g + 5] = normalised * contact;
  // Game phase: the hand-made features of both sides × how far the game has gone.
  const phase = Math.min(1, (mover.pips + opponent.pips) / 334);
  for (let i = 0; i < 24; i++) {
    out[g + 6 + i] = out[RAW + i] * phase;
    out[g + 30 + i] = out[SIDE_FEATURES + RAW + i] * phase;
  }
  // Exposure against the board it would be hit into, and the race lead's curvature.
  out[g + 54] = out[RAW + 5] * (opponent.homePoints / 6);
  out[g + 55] = out[SIDE_FEATURES + RAW + 5] * (mover.homePoints / 6);
  out[g + 56] = out[RAW + 16] * (opponent.homePoints / 6);
  out[g + 57] = out[SIDE_FEATURES + RAW + 16] * (mover.homePoints / 6);
  out[g + 58] = normalised * Math.abs(normalised);
  out[g + 59] = normalised * normalised * normalised;
}
