import { KeyTable, grownArray } from '../key-table';
import { PlayPool } from '../play-pool';
import { StepFault } from '../step-fault';
import { BOARD_LENGTH, CHECKERS, HEAD, KEY_WEIGHT as KEY_WEIGHT_TABLE, LongBoard, MOVER_OFF, OPPONENT_OFF, keyHigh, keyLow, otherPoint } from './board';
import { BearOffRule, HomeMoves, LongRules, SixBlockRule, SixBlockTiming } from './rules';

/**
 * How many checkers may leave the head (own point 24) in one stage:
 * a number (LN-HEAD-1/2, TM-4), `unlimited` (KH-2) or Fevga's first-runner
 * rule (FV-2), which depends on the board rather than on a count.
 */
export type HeadAllowance = number | 'unlimited' | 'fevgaRunner';

/** The step faults of long nardy (every one but SH-BAR-1's). */
export type LongStepFault = Exclude<StepFault, StepFault.MustEnterFromBar>;

/** Why a position may not end a stage (ALG-4) or exist after a step (ALG-2); 0 = fine. */
export const enum BoardFault {
  None = 0,
  SixBlock = 1,
  FevgaStartingQuarter = 2,
  FevgaPrimeTrap = 3,
}

/** The movement options a stage needs, extracted from `LongRules`. */
export interface MovementRules {
  readonly sixBlock: SixBlockRule;
  readonly sixBlockTiming: SixBlockTiming;
  readonly bearOff: BearOffRule;
  readonly homeMoves: HomeMoves;
}

export function movementOf(rules: LongRules): MovementRules {
  return {
    sixBlock: rules.sixBlock,
    sixBlockTiming: rules.sixBlockTiming,
    bearOff: rules.bearOff,
    homeMoves: rules.homeMoves,
  };
}

const MAX_UNITS = 4;
/** Module-local alias (a global lookup per call is slow in sandboxed VMs such as jest). */
const clz32 = Math.clz32;
/** Module-local alias: hot loops read it without going through the import binding. */
const KEY_WEIGHT: Float64Array = KEY_WEIGHT_TABLE;

/** For the mover's point p, the bit of the same point in the opponent's numbering. */
const OPPONENT_BIT: Int32Array = (() => {
  const bits = new Int32Array(25);
  for (let p = 1; p <= 24; p++) bits[p] = 1 << (otherPoint(p) - 1);
  return bits;
})();
const HEAD_UNLIMITED = 1 << 20;
const HEAD_FEVGA = -1;

/**
 * Solves one stage (COM-9) of the long family: every legal play for a
 * board seen from the mover, a multiset of die-units and a head allowance,
 * following ALG-1…ALG-7 and MAX-1…MAX-7.
 *
 * Works in place on one scratch board with apply/undo, memoises on
 * (board, units left) for equal units (ALG-9), and deduplicates resulting
 * positions by an exact key (ALG-7). The first step list found in search
 * order (larger die first, sources from the highest point down) is the
 * canonical one. A solver is reusable and not re-entrant: results stay
 * readable until the next `solve`.
 */
export class LongStageSolver extends PlayPool {
  // --- configuration of the current run
  private units = new Int8Array(MAX_UNITS);
  private unitCount = 0;
  private isPair = false;
  private large = 0;
  private small = 0;
  private headLimit = 1;
  private headStart = 0;
  private exactOnly = false;
  private homeMoves: HomeMoves = 'allowed';
  private blockRule: SixBlockRule = 'needOpponentAhead';
  private everyStep = false;
  /** Lowest opponent point holding an opponent checker (0 when he has borne off). */
  private opponentLowest = 25;
  private opponentHomeOrOff = false;
  /** FV-5: the opponent point x where all his checkers stand, or 0. */
  private trapPoint = 0;
  private trapAtStart = false;
  private stageStart: LongBoard | null = null;
  /** Raw mode: record every node (no end-of-stage filter, no maximum). Used by validation. */
  private raw = false;
  private applyEndFilter = true;

  // --- search state
  private board: LongBoard = new Int8Array(BOARD_LENGTH);
  private outside = 0;
  private low = 0;
  private high = 0;
  /** The mover's occupied points as bits in the opponent's numbering (bit x-1 = O-point x). */
  private mask = 0;
  /** Most units used by any candidate so far: lower nodes cannot be maximal. */
  private best = 0;
  private path = new Int8Array(MAX_UNITS * 2);
  private pathUnits = new Int8Array(MAX_UNITS);
  private depth = 0;
  private largerUsed = 0;
  private unitsBefore = 0;
  private readonly visited = new KeyTable(4096);
  private readonly found = new KeyTable(1024);

  // --- results (pools indexed by entry)
  private entryUnits = new Int8Array(0);
  private entryLarger = new Uint8Array(0);
  private entrySteps = new Int8Array(0);
  private entryStepCount = new Int8Array(0);
  private entryBoard = new Int8Array(0);
  private entryFault = new Uint8Array(0);
  private entryAlive = new Uint8Array(0);
  private alive: number[] = [];


  protected growPools(c: number): void {
    this.entryUnits = grownArray(this.entryUnits, c);
    this.entryLarger = grownArray(this.entryLarger, c);
    this.entrySteps = grownArray(this.entrySteps, c * MAX_UNITS * 2);
    this.entryStepCount = grownArray(this.entryStepCount, c);
    this.entryBoard = grownArray(this.entryBoard, c * BOARD_LENGTH);
    this.entryFault = grownArray(this.entryFault, c);
    this.entryAlive = grownArray(this.entryAlive, c);
  }

  /**
   * Finds the legal plays of a stage.
   * @param board the position seen from the mover (not modified)
   * @param units the stage's die-units: two different values or 1..4 equal ones
   * @param head the head allowance of this stage
   * @param headStart checkers on the head when the stage began (differs from
   *   `board[24]` only when `board` is part-way through the stage)
   * @returns the number of legal plays (≥ 1: an empty play when nothing can move)
   */
  solve(
    board: LongBoard,
    units: readonly number[],
    head: HeadAllowance,
    rules: MovementRules,
    headStart = board[HEAD] > 0 ? board[HEAD] : 0,
  ): number {
    this.configure(board, units, head, rules, headStart, false, true, 0);
    this.search();
    this.selectMaximal();
    return this.alive.length;
  }

  /**
   * Loads a board for step-by-step checks (`stepFault`, `boardFault`,
   * `applyStep`) without searching.
   */
  load(board: LongBoard, units: readonly number[], head: HeadAllowance, rules: MovementRules, headStart: number): void {
    this.configure(board, units.length > 0 ? units : [1], head, rules, headStart, true, true, 0);
  }

  /** Plays one step on the loaded board (the caller has checked `stepFault`). */
  applyStep(from: number, die: number): void {
    this.apply(from, die);
  }

  /** A copy of the loaded board. */
  boardCopy(): LongBoard {
    return this.board.slice();
  }

  /**
   * Every node reachable from `board` with `units` (validation of a partial
   * play): no maximum is taken; `applyEndFilter` decides whether positions
   * breaking an end-of-stage rule are kept.
   */
  explore(
    board: LongBoard,
    units: readonly number[],
    head: HeadAllowance,
    rules: MovementRules,
    headStart: number,
    applyEndFilter: boolean,
    unitsBefore: number,
  ): number {
    this.configure(board, units, head, rules, headStart, true, applyEndFilter, unitsBefore);
    this.search();
    this.alive.length = 0;
    for (let i = 0; i < this.count; i++) this.alive.push(i);
    return this.count;
  }

  private configure(
    board: LongBoard,
    units: readonly number[],
    head: HeadAllowance,
    rules: MovementRules,
    headStart: number,
    raw: boolean,
    applyEndFilter: boolean,
    unitsBefore: number,
  ): void {
    const n = units.length;
    if (n > MAX_UNITS) throw new RangeError('a stage has at most four units');
    this.unitCount = n;
    for (let i = 0; i < n; i++) this.units[i] = units[i];
    this.isPair = n === 2 && units[0] !== units[1];
    if (this.isPair) {
      this.large = Math.max(units[0], units[1]);
      this.small = Math.min(units[0], units[1]);
    } else {
      for (let i = 1; i < n; i++) {
        if (units[i] !== units[0]) throw new RangeError('stage units must be two different values or equal values');
      }
      this.large = n > 0 ? units[0] : 0;
      this.small = this.large;
    }
    this.headLimit = head === 'unlimited' ? HEAD_UNLIMITED : head === 'fevgaRunner' ? HEAD_FEVGA : head;
    this.headStart = headStart;
    this.exactOnly = rules.bearOff === 'exactOnly';
    this.homeMoves = rules.homeMoves;
    this.blockRule = rules.sixBlock;
    this.everyStep = rules.sixBlockTiming === 'everyStep';
    this.raw = raw;
    this.applyEndFilter = applyEndFilter;
    this.unitsBefore = unitsBefore;

    const b = this.board;
    b.set(board);
    let outside = 0;
    for (let p = 7; p <= 24; p++) if (b[p] > 0) outside += b[p];
    this.outside = outside;
    this.low = keyLow(b);
    this.high = keyHigh(b);
    let m = 0;
    for (let p = 1; p <= 24; p++) if (b[p] > 0) m |= OPPONENT_BIT[p];
    this.mask = m;
    this.best = 0;

    // The opponent does not move during the stage: precompute what the
    // block rules need of him (LN-BLOCK-2, LN-BLOCK-5, FV-5).
    let lowest = 25;
    let homeOrOff = b[OPPONENT_OFF] > 0;
    let firstX = 0;
    let distinct = 0;
    for (let p = 1; p <= 24; p++) {
      if (b[p] < 0) {
        const x = otherPoint(p);
        if (x < lowest) lowest = x;
        if (x <= 6) homeOrOff = true;
        if (x !== firstX) {
          distinct++;
          firstX = x;
        }
      }
    }
    this.opponentLowest = b[OPPONENT_OFF] > 0 ? 0 : lowest;
    this.opponentHomeOrOff = homeOrOff;
    this.trapPoint = distinct === 1 && firstX >= 7 ? firstX : 0;
    this.trapAtStart =
      this.blockRule === 'fevgaRules' && this.trapPoint > 0 && this.holdsTrapOn(this.stageStart ?? b);
    this.stageStart = null;

    this.count = 0;
    this.depth = 0;
    this.largerUsed = 0;
    this.visited.clear();
    this.found.clear();
  }

  // ---------------------------------------------------------------- rules

  /**
   * Step legality on the scratch board, in the order of ALG-1:
   * own checker, head allowance, landing point, bear-off conditions.
   */
  stepFault(from: number, die: number): LongStepFault {
    const b = this.board;
    if (from < 1 || from > 24 || b[from] <= 0) return StepFault.NoChecker;
    if (from === HEAD) {
      const limit = this.headLimit;
      if (limit === HEAD_FEVGA) {
        // FV-2: until a checker stands on own point ≤ 11, only one checker may
        // have left the head.
        if (CHECKERS - b[MOVER_OFF] - b[HEAD] >= 1 && !this.runnerPassed()) return StepFault.FevgaRunner;
      } else if (this.headStart - b[HEAD] >= limit) {
        return StepFault.Head; // LN-HEAD-1
      }
    }
    const to = from - die;
    if (to >= 1) {
      if (b[to] < 0) return StepFault.Blocked; // LN-MOVE-2
      // CR-4 / CG-5: no moves inside home once every checker is home.
      if (this.homeMoves === 'forbiddenWhenAllHome' && this.outside === 0) return StepFault.HomeMoveForbidden;
      if (this.homeMoves === 'forbiddenAlways' && from <= 6) return StepFault.HomeMoveForbidden;
      return StepFault.None;
    }
    if (this.outside > 0) return StepFault.BearOffNotAllHome; // LN-OFF-1
    if (from === die) return StepFault.None; // LN-OFF-2
    if (this.exactOnly) return StepFault.BearOffExactOnly; // CR-4
    for (let p = from + 1; p <= 6; p++) if (b[p] > 0) return StepFault.BearOffHigherChecker; // LN-OFF-3
    return StepFault.None;
  }

  private runnerPassed(): boolean {
    const b = this.board;
    if (b[MOVER_OFF] > 0) return true;
    for (let p = 1; p <= 11; p++) if (b[p] > 0) return true;
    return false;
  }

  private moverMaskInOpponentFrame(): number {
    return this.mask;
  }

  private holdsTrapOn(board: LongBoard): boolean {
    const x = this.trapPoint;
    for (let o = x - 6; o <= x - 1; o++) if (board[otherPoint(o)] <= 0) return false;
    return true;
  }

  /**
   * The board the stage started from, when `load`/`explore` begin part-way
   * through a stage: FV-5 asks whether the trap existed at the start.
   */
  startOfStage(board: LongBoard): this {
    this.stageStart = board;
    return this;
  }

  private holdsTrap(): boolean {
    // FV-5: the mover holds O-points x-1 … x-6 (bits x-2 … x-7).
    const x = this.trapPoint;
    const need = 0x3f << (x - 7);
    return (this.moverMaskInOpponentFrame() & need) === need;
  }

  /** LN-BLOCK-1…5 or FV-3/FV-5 on the scratch board. */
  boardFault(): BoardFault {
    const rule = this.blockRule;
    if (rule === 'allowed') return BoardFault.None;
    if (rule === 'fevgaRules') {
      const b = this.board;
      if (b[19] > 0 && b[20] > 0 && b[21] > 0 && b[22] > 0 && b[23] > 0 && b[24] > 0) {
        return BoardFault.FevgaStartingQuarter; // FV-3
      }
      if (this.trapPoint > 0 && !this.trapAtStart && this.holdsTrap()) return BoardFault.FevgaPrimeTrap; // FV-5(a)
      return BoardFault.None;
    }
    const m = this.moverMaskInOpponentFrame();
    // Bit i of `starts` is set when O-points i+1 … i+6 are all held: runs on
    // the opponent's path, which does not wrap (LN-BLOCK-1).
    const starts = m & (m >>> 1) & (m >>> 2) & (m >>> 3) & (m >>> 4) & (m >>> 5);
    if (starts === 0) return BoardFault.None;
    if (rule === 'forbidden') return BoardFault.SixBlock;
    if (rule === 'needOpponentInHome') return this.opponentHomeOrOff ? BoardFault.None : BoardFault.SixBlock;
    // needOpponentAhead: the lowest block starts at the lowest set bit; an
    // opponent checker on a lower O-point (or borne off) is ahead of every block.
    const blockStart = 31 - clz32(starts & -starts) + 1;
    return this.opponentLowest < blockStart ? BoardFault.None : BoardFault.SixBlock;
  }

  // ---------------------------------------------------------------- search

  private apply(from: number, die: number): number {
    const b = this.board;
    const to = from - die > 0 ? from - die : 0;
    if (--b[from] === 0) this.mask &= ~OPPONENT_BIT[from];
    if (from <= 12) this.low -= KEY_WEIGHT[from];
    else this.high -= KEY_WEIGHT[from];
    if (to === 0) {
      b[MOVER_OFF]++;
    } else {
      if (b[to]++ === 0) this.mask |= OPPONENT_BIT[to];
      if (to <= 12) this.low += KEY_WEIGHT[to];
      else this.high += KEY_WEIGHT[to];
    }
    if (from > 6 && to <= 6) this.outside--;
    return to;
  }

  private undo(from: number, to: number): void {
    const b = this.board;
    if (b[from]++ === 0) this.mask |= OPPONENT_BIT[from];
    if (from <= 12) this.low += KEY_WEIGHT[from];
    else this.high += KEY_WEIGHT[from];
    if (to === 0) {
      b[MOVER_OFF]--;
    } else {
      if (--b[to] === 0) this.mask &= ~OPPONENT_BIT[to];
      if (to <= 12) this.low -= KEY_WEIGHT[to];
      else this.high -= KEY_WEIGHT[to];
    }
    if (from > 6 && to <= 6) this.outside++;
  }

  private search(): void {
    if (this.isPair) this.visitPair(0);
    else this.visitEqual();
  }

  /** Equal units: memoised on (board, depth) (ALG-9). */
  private visitEqual(): void {
    this.record();
    const depth = this.depth;
    if (depth === this.unitCount || this.board[MOVER_OFF] === CHECKERS) return;
    const die = this.large;
    for (let from = 24; from >= 1; from--) {
      if (this.board[from] <= 0) continue;
      if (this.stepFault(from, die) !== StepFault.None) continue;
      const to = this.apply(from, die);
      if (
        (!this.everyStep || this.boardFault() === BoardFault.None) &&
        this.visited.putIfAbsent(this.low, this.high, depth + 1, 0) < 0
      ) {
        this.push(from, to, die);
        this.visitEqual();
        this.depth--;
      }
      this.undo(from, to);
    }
  }

  /** Two different dice: both orders (MAX-4). */
  private visitPair(usedMask: number): void {
    this.record();
    if (usedMask === 3 || this.board[MOVER_OFF] === CHECKERS) return;
    for (let u = 0; u < 2; u++) {
      const bit = 1 << u;
      if (usedMask & bit) continue;
      const die = u === 0 ? this.large : this.small;
      for (let from = 24; from >= 1; from--) {
        if (this.board[from] <= 0) continue;
        if (this.stepFault(from, die) !== StepFault.None) continue;
        const to = this.apply(from, die);
        if (!this.everyStep || this.boardFault() === BoardFault.None) {
          const before = this.largerUsed;
          if (u === 0) this.largerUsed = 1;
          this.push(from, to, die);
          this.visitPair(usedMask | bit);
          this.depth--;
          this.largerUsed = before;
        }
        this.undo(from, to);
      }
    }
  }

  private push(from: number, to: number, die: number): void {
    const d = this.depth;
    this.path[d * 2] = from;
    this.path[d * 2 + 1] = to;
    this.pathUnits[d] = die;
    this.depth = d + 1;
  }

  /** ALG-3: every node is a candidate; keep the best per resulting position. */
  private record(): void {
    const b = this.board;
    const gameOver = b[MOVER_OFF] === CHECKERS;
    // MAX-6: a play that bears off the last checker counts as using all units.
    const units = gameOver ? this.unitCount + this.unitsBefore : this.depth + this.unitsBefore;
    if (units < this.best && !this.raw) return;
    const larger = gameOver || this.largerUsed === 1 ? 1 : 0;
    const existing = this.found.get(this.low, this.high, 0);
    if (existing >= 0) {
      if (this.entryFault[existing] !== BoardFault.None && !this.raw) return;
      if (units > this.entryUnits[existing]) {
        this.entryUnits[existing] = units;
        this.entryLarger[existing] = larger;
        this.copyPath(existing);
      } else if (units === this.entryUnits[existing] && larger > this.entryLarger[existing]) {
        this.entryLarger[existing] = larger;
        this.copyPath(existing);
      }
      return;
    }
    // ALG-4: a position breaking an end-of-stage rule is kept with its fault
    // (so it is not checked again) and never selected.
    const fault = gameOver || !this.applyEndFilter ? BoardFault.None : this.boardFault();
    if (fault === BoardFault.None && units > this.best) this.best = units;
    this.insert(units, larger, fault);
  }

  private insert(units: number, larger: number, fault: BoardFault): void {
    const i = this.count;
    this.ensureCapacity(i + 1);
    this.found.putIfAbsent(this.low, this.high, 0, i);
    this.entryUnits[i] = units;
    this.entryLarger[i] = larger;
    this.entryFault[i] = fault;
    this.entryBoard.set(this.board, i * BOARD_LENGTH);
    this.copyPath(i);
    this.count = i + 1;
  }

  private copyPath(i: number): void {
    const n = this.depth;
    this.entryStepCount[i] = n;
    const base = i * MAX_UNITS * 2;
    for (let k = 0; k < n * 2; k++) this.entrySteps[base + k] = this.path[k];
  }

  /** ALG-4…ALG-6 and FV-5(b). */
  private selectMaximal(): void {
    const alive = this.alive;
    alive.length = 0;
    let max = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.entryFault[i] === BoardFault.None && this.entryUnits[i] > max) max = this.entryUnits[i];
    }
    let anyLarger = false;
    for (let i = 0; i < this.count; i++) {
      if (this.entryFault[i] === BoardFault.None && this.entryUnits[i] === max) {
        alive.push(i);
        if (this.entryLarger[i]) anyLarger = true;
      }
    }
    if (alive.length === 0) {
      // Every candidate, even standing still, breaks an end-of-stage rule
      // (a block that existed before the stage, possible only in positions
      // given by a client): nothing can be played, the stage is forfeited
      // and the board stays as it is (MAX-5). Entry 0 is the start node.
      alive.push(0);
      this.maxUnits = 0;
      return;
    }
    // ALG-6 / MAX-2: with one die of a non-double playable, the larger if possible.
    if (this.isPair && max === 1 && anyLarger) this.keepWhere((i) => this.entryLarger[i] === 1);
    // FV-5(b): a prime trapping every opponent checker must be opened if any maximal play does.
    if (this.trapAtStart) this.keepWhere((i) => !this.entryHoldsTrap(i));
    this.maxUnits = max;
  }

  private keepWhere(pred: (i: number) => boolean): void {
    const kept = this.alive.filter(pred);
    if (kept.length > 0) {
      this.alive.length = 0;
      for (const i of kept) this.alive.push(i);
    }
  }

  private entryHoldsTrap(i: number): boolean {
    return this.holdsTrapOn(this.entryBoard.subarray(i * BOARD_LENGTH, (i + 1) * BOARD_LENGTH));
  }

  // ---------------------------------------------------------------- results

  /** Number of plays selected by the last `solve`/`explore`. */
  get playCount(): number {
    return this.alive.length;
  }

  playUnits(k: number): number {
    return this.entryUnits[this.alive[k]];
  }

  playUsesLarger(k: number): boolean {
    return this.entryLarger[this.alive[k]] === 1;
  }

  playFault(k: number): BoardFault {
    return this.entryFault[this.alive[k]];
  }

  playStepCount(k: number): number {
    return this.entryStepCount[this.alive[k]];
  }

  /** Writes the canonical steps of play k as (from, to) pairs into `out`; returns the count. */
  playSteps(k: number, out: Int8Array): number {
    const i = this.alive[k];
    const n = this.entryStepCount[i];
    const base = i * MAX_UNITS * 2;
    for (let s = 0; s < n * 2; s++) out[s] = this.entrySteps[base + s];
    return n;
  }

  /** The die-units used by play k's canonical steps, in order. */
  playBoardInto(k: number, out: LongBoard, at = 0): LongBoard {
    const length = BOARD_LENGTH;
    const base = this.alive[k] * length;
    const eb = this.entryBoard;
    for (let i = 0; i < length; i++) out[at + i] = eb[base + i];
    return out;
  }

  /** Exact key of play k's position (for set membership). */
  playKey(k: number): string {
    const i = this.alive[k];
    const base = i * BOARD_LENGTH;
    let s = '';
    for (let p = 0; p <= 24; p++) s += String.fromCharCode(65 + Math.max(0, this.entryBoard[base + p]));
    return s;
  }
}
