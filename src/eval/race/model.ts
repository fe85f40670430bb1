import type { TripleMeasure } from '../../engine/scoring/loss';
import { MAX_ROLLS } from '../bearoff/build';
import { BearoffDatabase } from '../bearoff/database';
import { rankHome } from '../bearoff/ranking';
import { LOSE_KOKS, LOSE_MARS, WIN, WIN_KOKS, WIN_MARS } from '../probabilities';
import { writeCrossing, writeEffectiveCrossing, writeReach } from './crossing';

/**
 * What the koks (triple) slot of a race measures, per scoring rule:
 * - `none`: no triple result (long nardy K0, FV-6);
 * - `backgammon`: SH-SCORE-3, none off and a checker on the bar or in the winner's home (loser's 19..24);
 * - `startQuarter`: LN-SCORE-3 K3, none off and a checker on own 19..24;
 * - `noneInHome`: K4, none off and nothing on own 1..6;
 * - `allHome`: K1/K2 home mars, none off but all home;
 * - `notAllHome`: K5 / Soviet 4-point loss, none off and not all home.
 */
/** The exact chance that a side with none off bears a checker off with its next roll (own counts, [25] = bar). */
export type FirstRollOff = (own: Int8Array) => number;

/** The scoring core's triple measure (`lossKind`), which the race model estimates. */
export type { TripleMeasure } from '../../engine/scoring/loss';

/** Board layout constants of a family (long.ts, short.ts), read in the hot loops without importing the board modules. */
export interface Layout {
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

/** One side's race distributions (scratch, reused). */
export class SideRace {
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

/**
 * The distributions of the last few sides evaluated, by content: a side's
 * distributions depend on its own checkers only, and a search evaluates
 * many races in which one side stays the same (the side that did not just
 * play: every play of a roll, every roll of a position). A hit returns the
 * numbers computed before, so answers are the same with or without it.
 */
export class SideRaceCache {
  private readonly sides: SideRace[] = [];
  private readonly filled: boolean[] = [];
  private readonly probe = new SideRace();
  private next = 0;

  constructor(
    size: number,
    private readonly compute: (side: SideRace) => void,
  ) {
    for (let i = 0; i < size; i++) {
      this.sides.push(new SideRace());
      this.filled.push(false);
    }
  }

  /** The side of `board` (the mover's, or the opponent's), its distributions computed; never evicts `keep`. */
  side(board: Int8Array, layout: Layout, mover: boolean, keep: SideRace | null): SideRace {
    const probe = this.probe;
    probe.read(board, layout, mover);
    const sides = this.sides;
    for (let i = 0; i < sides.length; i++) if (this.filled[i] && sameSide(sides[i], probe)) return sides[i];
    let at = this.next;
    if (sides[at] === keep) at = (at + 1) % sides.length;
    this.next = (at + 1) % sides.length;
    const side = sides[at];
    side.own.set(probe.own);
    side.borneOff = probe.borneOff;
    this.filled[at] = true;
    this.compute(side);
    return side;
  }
}

function sameSide(a: SideRace, b: SideRace): boolean {
  if (a.borneOff !== b.borneOff) return false;
  const x = a.own;
  const y = b.own;
  for (let p = 0; p < 26; p++) if (x[p] !== y[p]) return false;
  return true;
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
 * rule set in force; `triple` says which triple measure to fill; `firstRoll`,
 * where the family has one, is the exact chance of a checker off with the next roll.
 */
export function sideDistributions(
  side: SideRace,
  db: BearoffDatabase,
  triple: TripleMeasure,
  model: RaceModel,
  firstRoll: FirstRollOff | null,
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
      if (firstRoll) fixFirstRoll(side.firstOff, firstRoll(own));
    }
  }
  tripleDistribution(side, triple);
}

/** Fills `side.triple`: the distribution of rolls until the triple condition of `triple` is gone. */
function tripleDistribution(side: SideRace, triple: TripleMeasure): void {
  const own = side.own;
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
export function combine(
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
