import { KeyTable, grownArray } from '../key-table';
import { PlayPool } from '../play-pool';
import * as layout from './board';
import { ShortBoard } from './board';

// Module-local copies of the board layout: hot loops read plain constants,
// not import bindings (which some loaders turn into getters).
const BOARD_LENGTH: number = layout.BOARD_LENGTH;
const CHECKERS: number = layout.CHECKERS;
const MOVER_BAR: number = layout.MOVER_BAR;
const MOVER_OFF: number = layout.MOVER_OFF;
const OPPONENT_BAR: number = layout.OPPONENT_BAR;
const MAX_UNITS = 4;
/** A board's bytes in 32-bit words (28 = 7 · 4): the solver copies boards a word at a time. */
const BOARD_WORDS = BOARD_LENGTH / 4;

/**
 * Key weights of the mover's points: base-16 digits (a count is ≤ 15),
 * points 1..12 in the low key, 13..24 in the high key (both below 2^48).
 */
const KEY_WEIGHT: Float64Array = (() => {
  const w = new Float64Array(BOARD_LENGTH);
  for (let p = 1; p <= 24; p++) w[p] = Math.pow(16, (p - 1) % 12);
  return w;
})();

/**
 * Solves one turn of short nardy (backgammon): every legal play for a board
 * seen from the mover and a roll, following ALG-1…ALG-7, MAX-1…MAX-7,
 * SH-MOVE-1/2, SH-BAR-1 and SH-OFF-1…3.
 *
 * The search works in place on one scratch board with apply/undo and
 * allocates nothing per node:
 * - two different dice: both orders are searched (MAX-4);
 * - a double: the steps are searched in non-increasing order of their
 *   source point. Every legal sequence of equal steps stays legal when
 *   reordered that way (steps from higher points never hinder steps from
 *   lower ones: landing points only open up by hits, and bear-off
 *   conditions only look at points above the source), so this visits each
 *   multiset of steps once instead of every permutation (ALG-9).
 *
 * Only leaves are recorded (a node with no further legal step, all units
 * used, or the game won): an inner node always has a child using one unit
 * more, so it is never maximal (ALG-5). Resulting positions are
 * deduplicated by an exact key — the mover's checkers per point, his bar,
 * and the set of points where an opponent blot was hit, which fixes the
 * opponent's checkers (ALG-7). The first step list found (larger die first,
 * sources from the bar and the highest point down) is the canonical one.
 *
 * A solver is reusable and not re-entrant: results stay readable until the
 * next `solve`.
 */
export class ShortStageSolver extends PlayPool {
  // --- the roll being solved
  private unitCount = 0;
  private isPair = false;
  private large = 0;
  private small = 0;

  // --- search state, seen from the mover
  private readonly board: ShortBoard = new Int8Array(BOARD_LENGTH);
  /** The same bytes as 32-bit words, for copying a board in BOARD_WORDS stores. */
  private readonly boardWords = new Int32Array(this.board.buffer);
  /** The mover's checkers on the bar or on points 7..24 (SH-OFF-1). */
  private outside = 0;
  /** Bit p set: the mover has a checker on point p (1..24); the sources a step can take, highest first. */
  private occupied = 0;
  private low = 0;
  private high = 0;
  /** Bit p−1 set: the opponent blot on own point p was hit in this play. */
  private hitMask = 0;
  private depth = 0;
  private largerUsed = 0;
  /** Most units used by any leaf so far. */
  private best = 0;
  private readonly pathFrom = new Int8Array(MAX_UNITS);
  private readonly pathTo = new Int8Array(MAX_UNITS);
  private readonly pathHit = new Uint8Array(MAX_UNITS);
  private readonly found = new KeyTable(1024);

  // --- candidate pool, one entry per distinct resulting position
  private entryUnits: Int8Array = new Int8Array(0);
  private entryLarger: Uint8Array = new Uint8Array(0);
  private entryStepCount: Int8Array = new Int8Array(0);
  private entryFrom: Int8Array = new Int8Array(0);
  private entryTo: Int8Array = new Int8Array(0);
  private entryHit: Uint8Array = new Uint8Array(0);
  private entryBoard: Int8Array = new Int8Array(0);
  private entryWords: Int32Array = new Int32Array(0);
  private alive: Int32Array = new Int32Array(0);
  private aliveCount = 0;


  protected growPools(c: number): void {
    this.entryUnits = grownArray(this.entryUnits, c);
    this.entryLarger = grownArray(this.entryLarger, c);
    this.entryStepCount = grownArray(this.entryStepCount, c);
    this.entryFrom = grownArray(this.entryFrom, c * MAX_UNITS);
    this.entryTo = grownArray(this.entryTo, c * MAX_UNITS);
    this.entryHit = grownArray(this.entryHit, c * MAX_UNITS);
    this.entryBoard = grownArray(this.entryBoard, c * BOARD_LENGTH);
    this.entryWords = new Int32Array(this.entryBoard.buffer);
    this.alive = grownArray(this.alive, c);
  }

  /**
   * Finds the legal plays of a roll.
   * @param board the position seen from the mover (not modified)
   * @param die1 one die, 1..6
   * @param die2 the other die, 1..6 (equal to `die1` for a double)
   * @returns the number of legal plays (≥ 1: one empty play when nothing can move, MAX-5)
   */
  solve(board: ShortBoard, die1: number, die2: number): number {
    if (die1 === die2) return this.solveUnits(board, die1, 4);
    this.load(board);
    this.unitCount = 2;
    this.isPair = true;
    this.large = die1 > die2 ? die1 : die2;
    this.small = die1 > die2 ? die2 : die1;
    this.visitPair(0);
    this.selectMaximal();
    return this.aliveCount;
  }

  /**
   * Finds the legal plays of `count` (1..4) equal die-units, e.g. what is
   * left of a double or of a roll part-way through a turn.
   */
  solveUnits(board: ShortBoard, die: number, count: number): number {
    if (count < 0 || count > MAX_UNITS) throw new RangeError('a turn has at most four die-units');
    this.load(board);
    this.unitCount = count;
    this.isPair = false;
    this.large = die;
    this.small = die;
    this.visitEqual(MOVER_BAR);
    this.selectMaximal();
    return this.aliveCount;
  }

  private load(board: ShortBoard): void {
    const b = this.board;
    let outside = board[MOVER_BAR];
    let low = 0;
    let high = 0;
    let occupied = 0;
    for (let i = 0; i < BOARD_LENGTH; i++) b[i] = board[i];
    for (let p = 1; p <= 24; p++) {
      const n = b[p];
      if (n <= 0) continue;
      occupied |= 1 << p;
      if (p > 6) outside += n;
      if (p <= 12) low += n * KEY_WEIGHT[p];
      else high += n * KEY_WEIGHT[p];
    }
    this.outside = outside;
    this.occupied = occupied;
    this.low = low;
    this.high = high;
    this.hitMask = 0;
    this.depth = 0;
    this.largerUsed = 0;
    this.best = 0;
    this.count = 0;
    this.found.clear();
  }

  // ---------------------------------------------------------------- search

  /**
   * Can the mover play `die` from `from` (which holds one of his checkers)?
   * ALG-1 order; the bar rule (SH-BAR-1) is enforced by the callers, which
   * only offer the bar as a source while checkers are on it.
   */
  private canStep(from: number, die: number): boolean {
    const b = this.board;
    const to = from - die;
    if (to > 0) return b[to] >= -1; // SH-MOVE-1: closed when held by two or more
    if (this.outside > 0) return false; // SH-OFF-1: the bar and points 7..24 count as outside
    if (to === 0) return true; // LN-OFF-2
    for (let p = from + 1; p <= 6; p++) if (b[p] > 0) return false; // LN-OFF-3
    return true;
  }

  /** Plays a legal step in place and pushes it on the path. */
  private apply(from: number, die: number): void {
    const b = this.board;
    const d = this.depth;
    let to = from - die;
    let hit = 0;
    b[from]--;
    if (from <= 12) this.low -= KEY_WEIGHT[from];
    else if (from <= 24) this.high -= KEY_WEIGHT[from];
    if (from <= 24 && b[from] === 0) this.occupied &= ~(1 << from);
    if (to <= 0) {
      to = 0;
      b[MOVER_OFF]++;
    } else {
      if (b[to] === -1) {
        // SH-MOVE-1: a blot is hit and goes to its owner's bar.
        b[to] = 1;
        b[OPPONENT_BAR]++;
        this.hitMask |= 1 << (to - 1);
        hit = 1;
      } else {
        b[to]++;
      }
      this.occupied |= 1 << to;
      if (to <= 12) this.low += KEY_WEIGHT[to];
      else this.high += KEY_WEIGHT[to];
      if (from > 6 && to <= 6) this.outside--;
    }
    this.pathFrom[d] = from;
    this.pathTo[d] = to;
    this.pathHit[d] = hit;
    this.depth = d + 1;
  }

  /** Takes back the last step of the path. */
  private undo(): void {
    const b = this.board;
    const d = this.depth - 1;
    const from = this.pathFrom[d];
    const to = this.pathTo[d];
    b[from]++;
    if (from <= 12) this.low += KEY_WEIGHT[from];
    else if (from <= 24) this.high += KEY_WEIGHT[from];
    if (from <= 24) this.occupied |= 1 << from;
    if (to === 0) {
      b[MOVER_OFF]--;
    } else {
      if (this.pathHit[d] === 1) {
        b[to] = -1;
        b[OPPONENT_BAR]--;
        this.hitMask &= ~(1 << (to - 1));
      } else {
        b[to]--;
      }
      if (b[to] <= 0) this.occupied &= ~(1 << to);
      if (to <= 12) this.low -= KEY_WEIGHT[to];
      else this.high -= KEY_WEIGHT[to];
      if (from > 6 && to <= 6) this.outside++;
    }
    this.depth = d;
  }

  /** Two different dice, in both orders (MAX-4). `used`: bit 0 = the larger die, bit 1 = the smaller. */
  private visitPair(used: number): void {
    const b = this.board;
    if (used === 3 || b[MOVER_OFF] === CHECKERS) {
      this.record();
      return;
    }
    let any = false;
    for (let u = 0; u < 2; u++) {
      const bit = 1 << u;
      if ((used & bit) !== 0) continue;
      const die = u === 0 ? this.large : this.small;
      if (b[MOVER_BAR] > 0) {
        // SH-BAR-1: only the bar may be the source while checkers are on it.
        if (!this.canStep(MOVER_BAR, die)) continue;
        any = true;
        this.stepPair(MOVER_BAR, die, used | bit, u);
        continue;
      }
      // The larger die after the smaller (MAX-4 searches both orders): a step of another checker, where
      // neither step bears off and the smaller did not enter from the bar, ends where the larger-first order
      // already ended — that order was legal too (a step of one checker never closes a point to another, and
      // only the bar rule SH-BAR-1 and the bear-off rules SH-OFF-1…3 look at the other checkers) and came
      // first, so it is not searched again (ALG-9: each resulting position once, not every path to it).
      const mirrored = used === 2 && this.pathFrom[0] !== MOVER_BAR && this.pathTo[0] > 0;
      // The sources from point 24 down (steps and takebacks inside leave `occupied` as it was).
      for (let sources = this.occupied; sources !== 0; ) {
        const from = 31 - Math.clz32(sources);
        sources ^= 1 << from;
        if (!this.canStep(from, die)) continue;
        any = true;
        if (mirrored && from !== this.pathTo[0] && from - die > 0) continue;
        this.stepPair(from, die, used | bit, u);
      }
    }
    if (!any) this.record();
  }

  private stepPair(from: number, die: number, used: number, u: number): void {
    const before = this.largerUsed;
    if (u === 0) this.largerUsed = 1;
    this.apply(from, die);
    this.visitPair(used);
    this.undo();
    this.largerUsed = before;
  }

  /** Equal units, sources in non-increasing order (see the class comment). */
  private visitEqual(maxFrom: number): void {
    const b = this.board;
    if (this.depth === this.unitCount || b[MOVER_OFF] === CHECKERS) {
      this.record();
      return;
    }
    const die = this.large;
    let any = false;
    if (b[MOVER_BAR] > 0) {
      // SH-BAR-1: enter first; if the bar checker cannot enter, nothing else moves.
      if (this.canStep(MOVER_BAR, die)) {
        any = true;
        this.apply(MOVER_BAR, die);
        this.visitEqual(MOVER_BAR);
        this.undo();
      }
    } else {
      // The sources from min(maxFrom, 24) down.
      for (let sources = this.occupied & ((2 << (maxFrom < 24 ? maxFrom : 24)) - 1); sources !== 0; ) {
        const from = 31 - Math.clz32(sources);
        sources ^= 1 << from;
        if (!this.canStep(from, die)) continue;
        any = true;
        this.apply(from, die);
        this.visitEqual(from);
        this.undo();
      }
    }
    if (!any) this.record();
  }

  /**
   * ALG-3/ALG-5/ALG-7: records a leaf, keeping one entry per resulting
   * position with the most units any path to it used.
   *
   * MAX-6 as gnubg applies it (the reference for backgammon): a play that
   * bears off the 15th checker is compared by the units it actually used,
   * so a shorter game-winning play is legal only when its resulting
   * position is also reached by a maximal play. The two readings differ
   * only when the longer play hits on the way (oracle case L0423: with the
   * last checker on 3, an opponent blot on 2 and 4-1 to play, 3/off alone is
   * not legal, 3/2*\/off is). A won position keeps its shortest step list as
   * the canonical one: the rest of the roll is void once the game is over.
   */
  private record(): void {
    const b = this.board;
    const units = this.depth;
    const won = b[MOVER_OFF] === CHECKERS;
    if (units < this.best && !won) return;
    if (units > this.best) this.best = units;
    const larger = this.largerUsed;
    const i = this.count;
    if (i === this.capacity) this.ensureCapacity(i + 1);
    const existing = this.found.putIfAbsent(this.low, this.high, b[MOVER_BAR] + this.hitMask * 16, i);
    if (existing >= 0) {
      const shorter = won && units < this.entryStepCount[existing];
      if (units > this.entryUnits[existing]) {
        this.entryUnits[existing] = units;
        this.entryLarger[existing] = larger;
        if (!won) this.copyPath(existing);
      } else if (units === this.entryUnits[existing] && larger > this.entryLarger[existing]) {
        this.entryLarger[existing] = larger;
        if (!won) this.copyPath(existing);
      }
      if (shorter) this.copyPath(existing);
      return;
    }
    this.entryUnits[i] = units;
    this.entryLarger[i] = larger;
    this.copyPath(i);
    const words = this.boardWords;
    const ew = this.entryWords;
    const base = i * BOARD_WORDS;
    for (let k = 0; k < BOARD_WORDS; k++) ew[base + k] = words[k];
    this.count = i + 1;
  }

  private copyPath(i: number): void {
    const n = this.depth;
    const base = i * MAX_UNITS;
    this.entryStepCount[i] = n;
    for (let k = 0; k < n; k++) {
      this.entryFrom[base + k] = this.pathFrom[k];
      this.entryTo[base + k] = this.pathTo[k];
      this.entryHit[base + k] = this.pathHit[k];
    }
  }

  /** ALG-5 and ALG-6 / MAX-2. */
  private selectMaximal(): void {
    const max = this.best;
    let n = 0;
    let anyLarger = false;
    for (let i = 0; i < this.count; i++) {
      if (this.entryUnits[i] !== max) continue;
      this.alive[n++] = i;
      if (this.entryLarger[i] === 1) anyLarger = true;
    }
    // ALG-6 / MAX-2: only one die of two can be played — the larger one if it can.
    if (this.isPair && max === 1 && anyLarger) {
      let kept = 0;
      for (let k = 0; k < n; k++) {
        const i = this.alive[k];
        if (this.entryLarger[i] === 1) this.alive[kept++] = i;
      }
      n = kept;
    }
    this.aliveCount = n;
    this.maxUnits = max;
  }

  // ---------------------------------------------------------------- results

  /** Number of legal plays found by the last `solve`. */
  get playCount(): number {
    return this.aliveCount;
  }

  /** Steps in play k's canonical step list. */
  playStepCount(k: number): number {
    return this.entryStepCount[this.alive[k]];
  }

  /** Source of step s of play k (own numbering, 25 = bar). */
  playFrom(k: number, s: number): number {
    return this.entryFrom[this.alive[k] * MAX_UNITS + s];
  }

  /** Landing point of step s of play k (0 = off). */
  playTo(k: number, s: number): number {
    return this.entryTo[this.alive[k] * MAX_UNITS + s];
  }

  /** Whether step s of play k hit a blot. */
  playHit(k: number, s: number): boolean {
    return this.entryHit[this.alive[k] * MAX_UNITS + s] === 1;
  }

  /** Did play k bear off the mover's last checker (MAX-6)? */
  playWins(k: number): boolean {
    return this.entryBoard[this.alive[k] * BOARD_LENGTH + MOVER_OFF] === CHECKERS;
  }

  /**
   * The resulting boards of every play, where the solver keeps them (play k
   * at k · 28), when every position it recorded is a legal play — the usual
   * case; else null (use `playBoardInto`). Valid until the next `solve`.
   */
  playBoards(): ShortBoard | null {
    return this.aliveCount === this.count ? this.entryBoard : null;
  }

  /** The play whose resulting board (seen from the mover) is `board`, or -1. */
  playWithBoard(board: ShortBoard): number {
    const eb = this.entryBoard;
    for (let k = 0; k < this.aliveCount; k++) {
      const base = this.alive[k] * BOARD_LENGTH;
      let i = 0;
      while (i < BOARD_LENGTH && eb[base + i] === board[i]) i++;
      if (i === BOARD_LENGTH) return k;
    }
    return -1;
  }

  /** Writes play k's resulting board (seen from the mover) into `out[at …]` (by default the start). */
  playBoardInto(k: number, out: ShortBoard, at = 0): ShortBoard {
    const base = this.alive[k] * BOARD_LENGTH;
    const eb = this.entryBoard;
    for (let i = 0; i < BOARD_LENGTH; i++) out[at + i] = eb[base + i];
    return out;
  }
}
