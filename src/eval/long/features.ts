import { longestRunOnPath } from './path-run';
/*
 * Features of a long-nardy position for the linear contact evaluator
 * (docs/evaluation.md, "Long family"). Board layout: src/engine/long/board.ts
 * — seen from the side to move, [1..24] signed counts by the mover's own
 * point, [0] mover off, [25] opponent off; the mover's point p is the
 * opponent's p ± 12 (COM-5).
 *
 * One block of features per side (each in its own numbering), then a few
 * global ones. The blocking features measure a side's points along the
 * **other** side's path, as the six-block rule does (LN-BLOCK-1).
 */

const RAW = 24 * 4;
/** Per side: raw point encoding, then hand-made features. */
export const LONG_SIDE_FEATURES = RAW + 14;
const GLOBAL = 4;
/** Length of the feature vector. */
export const LONG_FEATURES = 2 * LONG_SIDE_FEATURES + GLOBAL;

export const LONG_SIDE_FEATURE_NAMES: readonly string[] = [
  'pips/100',
  'off/15',
  'checkers on the head (own 24)/15',
  'checkers home (own 1..6)/15',
  'points held/10',
  'pips still to cross into home/100',
  'longest block along the other side\'s path/6',
  'block of 4 or more',
  'other side\'s checkers behind that block/15',
  'other side\'s checkers within 6 points behind it × length/6',
  'other side\'s single steps blocked (share)',
  'own single steps open (share)',
  'stacked checkers beyond 3, head excluded/15',
  'points held in the other side\'s home/6',
];

export const LONG_GLOBAL_FEATURE_NAMES: readonly string[] = [
  'bias',
  'race lead (opponent pips − mover pips + 4)/100',
  'race lead / √(total pips)',
  'total pips/720',
];

function otherPoint(p: number): number {
  return p <= 12 ? p + 12 : p - 12;
}

/** One side's checkers by own point and the other side's checkers by this side's point. */
class SideView {
  readonly own = new Int8Array(25);
  /** The other side's checkers, by **this** side's point numbers. */
  readonly his = new Int8Array(25);
  /** The other side's checkers by **his own** point numbers. */
  readonly hisOwn = new Int8Array(25);
  off = 0;
  pips = 0;

  read(board: Int8Array, mover: boolean): void {
    this.own.fill(0);
    this.his.fill(0);
    this.hisOwn.fill(0);
    let pips = 0;
    for (let p = 1; p <= 24; p++) {
      const v = board[p];
      const q = mover ? p : otherPoint(p);
      const n = mover ? v : -v;
      if (n > 0) {
        this.own[q] = n;
        pips += n * q;
      } else if (n < 0) {
        this.his[q] = -n;
        this.hisOwn[otherPoint(q)] = -n;
      }
    }
    this.off = mover ? board[0] : board[25];
    this.pips = pips;
  }
}

/** The scratch of `longFeatures`: both sides' views of a board, owned by the caller. */
export class LongFeatureScratch {
  readonly mover = new SideView();
  readonly opponent = new SideView();
}

function sideFeatures(s: SideView, out: Float64Array, base: number): void {
  const own = s.own;
  let home = 0;
  let held = 0;
  let cross = 0;
  let stacked = 0;
  let inHisHome = 0;
  for (let p = 1; p <= 24; p++) {
    const n = own[p];
    const k = base + (p - 1) * 4;
    out[k] = n >= 1 ? 1 : 0;
    out[k + 1] = n >= 2 ? 1 : 0;
    out[k + 2] = n >= 3 ? 1 : 0;
    out[k + 3] = n > 3 ? (n - 3) / 3 : 0;
    if (n <= 0) continue;
    held++;
    if (p <= 6) home += n;
    else cross += n * (p - 6);
    if (p !== 24 && n > 3) stacked += n - 3;
    // This side's own 13..18 is the other side's home (his 1..6).
    if (p >= 13 && p <= 18) inHisHome++;
  }
  // Blocks along the other side's path: this side's held points in his
  // numbering x = otherPoint(p); runs of consecutive x (no wrap, LN-BLOCK-1).
  const path = longestRunOnPath(own, 0);
  const bestLen = path >> 5;
  const bestTop = path & 31;
  let behind = 0;
  let close = 0;
  if (bestLen >= 2) {
    const hisOwn = s.hisOwn;
    for (let y = bestTop + 1; y <= 24; y++) {
      const n = hisOwn[y];
      if (n <= 0) continue;
      behind += n;
      if (y <= bestTop + 6) close += n;
    }
  }
  // Single steps of the other side landing on this side's points, and this
  // side's own open steps (LN-MOVE-2), as shares of all (point, die) pairs.
  let hisSteps = 0;
  let hisBlocked = 0;
  let mySteps = 0;
  let myOpen = 0;
  for (let p = 1; p <= 24; p++) {
    if (s.his[p] > 0) {
      // The other side moves from his own y down; in this side's numbering
      // his step from point p lands on the point his y − d maps to.
      const y = otherPoint(p);
      for (let d = 1; d <= 6; d++) {
        const t = y - d;
        if (t < 1) continue;
        hisSteps++;
        if (own[otherPoint(t)] > 0) hisBlocked++;
      }
    }
    if (own[p] > 0) {
      for (let d = 1; d <= 6; d++) {
        const t = p - d;
        if (t < 1) continue;
        mySteps++;
        if (s.his[t] === 0) myOpen++;
      }
    }
  }
  const h = base + RAW;
  out[h] = s.pips / 100;
  out[h + 1] = s.off / 15;
  out[h + 2] = own[24] / 15;
  out[h + 3] = home / 15;
  out[h + 4] = held / 10;
  out[h + 5] = cross / 100;
  out[h + 6] = bestLen / 6;
  out[h + 7] = bestLen >= 4 ? 1 : 0;
  out[h + 8] = behind / 15;
  out[h + 9] = (close / 15) * (bestLen / 6);
  out[h + 10] = hisSteps > 0 ? hisBlocked / hisSteps : 0;
  out[h + 11] = mySteps > 0 ? myOpen / mySteps : 1;
  out[h + 12] = stacked / 15;
  out[h + 13] = inHisHome / 6;
}

/**
 * Writes the feature vector of a long-family board (seen from the side to
 * move, nothing pending) into `out` (length `LONG_FEATURES`).
 * Allocation-free with a `scratch` the caller owns (one per evaluator); a
 * scratch is not re-entrant.
 */
export function longFeatures(board: Int8Array, out: Float64Array, scratch: LongFeatureScratch = new LongFeatureScratch()): void {
  const moverView = scratch.mover;
  const opponentView = scratch.opponent;
  moverView.read(board, true);
  opponentView.read(board, false);
  sideFeatures(moverView, out, 0);
  sideFeatures(opponentView, out, LONG_SIDE_FEATURES);
  const g = 2 * LONG_SIDE_FEATURES;
  const total = moverView.pips + opponentView.pips;
  const lead = opponentView.pips - moverView.pips + 4;
  out[g] = 1;
  out[g + 1] = lead / 100;
  out[g + 2] = lead / Math.sqrt(Math.max(total, 16));
  out[g + 3] = total / 720;
}
