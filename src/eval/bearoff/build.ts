import { BEAROFF_POSITIONS, HOME_POINTS, MAX_CHECKERS, rankHome, unrankHome } from './ranking';

/**
 * The bear-off rule sets a one-sided database is built for:
 * - `standard`: LN-OFF-1…4 / SH-OFF-1 — a die bears off from its own point,
 *   or from the highest point when it is larger than every occupied point;
 *   moves inside home are free. Used by backgammon and by every long preset
 *   with standard bear-off.
 * - `exactOnly`: CR-4 / CG-5 (the crazy variants) — a die bears off only from
 *   the point equal to it, and once every checker is home no move inside
 *   home is allowed, so an unmatched die is lost (MAX-5).
 */
export type BearoffRuleSet = 'standard' | 'exactOnly';

export const BEAROFF_RULE_SETS: readonly BearoffRuleSet[] = ['standard', 'exactOnly'];

/**
 * Rolls counted per distribution; the last slot holds the tail (this many
 * rolls or more). Exact-only bear-off has geometric tails; with 15 checkers
 * the mass beyond 63 rolls is below 1e-9.
 */
export const MAX_ROLLS = 128;

/** The 21 distinct rolls with their probabilities (out of 36). */
export const ROLLS: readonly { readonly high: number; readonly low: number; readonly weight: number }[] = (() => {
  const r: { high: number; low: number; weight: number }[] = [];
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= a; b++) r.push({ high: a, low: b, weight: a === b ? 1 / 36 : 2 / 36 });
  return r;
})();

/** One-sided tables: for each ranked home position, two distributions over rolls. */
export interface BearoffTables {
  readonly ruleSet: BearoffRuleSet;
  /** P(all checkers off after exactly n rolls), `MAX_ROLLS` per position (tail folded into the last slot). */
  readonly off: Float64Array;
  /**
   * P(the first checker is off after exactly n rolls), `MAX_ROLLS` per
   * position, for positions with all 15 checkers on the board; a position
   * with some checkers already off has all mass at 0. Played to save the
   * mars / gammon (LN-SCORE-2, SH-SCORE-2): each roll takes a play that
   * bears a checker off if there is one, else the play with the fewest
   * expected rolls to the first checker off.
   */
  readonly firstOff: Float64Array;
  /** Exact expected rolls to bear all off (not truncated). */
  readonly meanOff: Float64Array;
  /** Exact expected rolls to the first checker off. */
  readonly meanFirstOff: Float64Array;
}

/**
 * Enumerates the distinct results of one roll in a home-only, one-sided
 * position under standard bear-off (the opponent cannot be in the way in a
 * race; LN-OFF-5 matters only when he is). Every unit can always be played
 * there (a die either moves a checker down inside home, bears off from its
 * point, or bears off from the highest point), so every play uses all units
 * unless it bears off the last checker (MAX-6): no maximum filter is needed.
 */
class HomePlays {
  private readonly board = new Int8Array(HOME_POINTS + 1);
  private readonly seen = new Set<number>();
  readonly results: number[] = [];

  run(start: Int8Array, high: number, low: number): readonly number[] {
    this.board.set(start);
    this.seen.clear();
    this.results.length = 0;
    if (high === low) this.visitEqual(high, 4, HOME_POINTS);
    else {
      this.visitPair(high, low);
      this.visitPair(low, high);
    }
    return this.results;
  }

  private remaining(): number {
    let n = 0;
    for (let p = 1; p <= HOME_POINTS; p++) n += this.board[p];
    return n;
  }

  private record(): void {
    const r = rankHome(this.board);
    if (!this.seen.has(r)) {
      this.seen.add(r);
      this.results.push(r);
    }
  }

  private highest(): number {
    for (let p = HOME_POINTS; p >= 1; p--) if (this.board[p] > 0) return p;
    return 0;
  }

  /** Legal sources for a die: LN-MOVE-1 inside home, LN-OFF-2, LN-OFF-3. */
  private canStep(from: number, die: number): boolean {
    if (this.board[from] <= 0) return false;
    if (from > die) return true;
    if (from === die) return true;
    return this.highest() === from;
  }

  private step(from: number, die: number): void {
    this.board[from]--;
    if (from > die) this.board[from - die]++;
  }

  private unstep(from: number, die: number): void {
    this.board[from]++;
    if (from > die) this.board[from - die]--;
  }

  private visitPair(first: number, second: number): void {
    for (let from = HOME_POINTS; from >= 1; from--) {
      if (!this.canStep(from, first)) continue;
      this.step(from, first);
      if (this.remaining() === 0) this.record();
      else {
        for (let f2 = HOME_POINTS; f2 >= 1; f2--) {
          if (!this.canStep(f2, second)) continue;
          this.step(f2, second);
          this.record();
          this.unstep(f2, second);
        }
      }
      this.unstep(from, first);
    }
  }

  /** Equal units with sources in non-increasing order (each multiset of steps once). */
  private visitEqual(die: number, left: number, maxFrom: number): void {
    if (left === 0 || this.remaining() === 0) {
      this.record();
      return;
    }
    for (let from = maxFrom; from >= 1; from--) {
      if (!this.canStep(from, die)) continue;
      this.step(from, die);
      this.visitEqual(die, left - 1, from);
      this.unstep(from, die);
    }
  }
}

/** Exact-only bear-off (CR-4): the one result of a roll; no decision exists. */
function exactOnlyResult(board: Int8Array, scratch: Int8Array, high: number, low: number): number {
  scratch.set(board);
  if (high === low) {
    scratch[high] -= Math.min(4, scratch[high]);
  } else {
    if (scratch[high] > 0) scratch[high]--;
    if (scratch[low] > 0) scratch[low]--;
  }
  return rankHome(scratch);
}

function pips(board: Int8Array): number {
  let n = 0;
  for (let p = 1; p <= HOME_POINTS; p++) n += p * board[p];
  return n;
}

function checkers(board: Int8Array): number {
  let n = 0;
  for (let p = 1; p <= HOME_POINTS; p++) n += board[p];
  return n;
}

/** Adds `weight ×` the distribution at `src` shifted by one roll into `dst` (tail folded). */
function addShifted(table: Float64Array, src: number, dst: Float64Array, weight: number): void {
  const base = src * MAX_ROLLS;
  for (let n = 0; n < MAX_ROLLS - 1; n++) dst[n + 1] += weight * table[base + n];
  dst[MAX_ROLLS - 1] += weight * table[base + MAX_ROLLS - 1];
}

/** The tables while they are built: the rows of the positions already done are final. */
type TablesInProgress = Omit<BearoffTables, 'ruleSet'>;

type Roll = (typeof ROLLS)[number];

/**
 * What the 21 rolls of one position add up to: the successors' distributions
 * shifted by one roll (`dist`, `distFirst`), their weighted means, and, in
 * exact-only bear-off, the weight of the rolls that change nothing (`stay`).
 * One per build, reset for each position.
 */
class RollSums {
  readonly dist = new Float64Array(MAX_ROLLS);
  readonly distFirst = new Float64Array(MAX_ROLLS);
  mean = 0;
  meanFirst = 0;
  stay = 0;
  stayFirst = 0;

  reset(): void {
    this.dist.fill(0);
    this.distFirst.fill(0);
    this.mean = 0;
    this.meanFirst = 0;
    this.stay = 0;
    this.stayFirst = 0;
  }
}

/** Every home board by rank, and the ranks in order of increasing pips (then rank), the order of the build. */
function positionsByPips(n: number): { boards: Int8Array[]; order: number[] } {
  const boards: Int8Array[] = new Array<Int8Array>(n);
  const order: number[] = [];
  for (let r = 0; r < n; r++) {
    const b = new Int8Array(HOME_POINTS + 1);
    unrankHome(r, b);
    boards[r] = b;
    order.push(r);
  }
  const pipOf = order.map((r) => pips(boards[r]));
  order.sort((a, b) => pipOf[a] - pipOf[b] || a - b);
  return { boards, order };
}

/**
 * One roll of position `r` in exact-only bear-off (CR-4 / CG-5): the roll has
 * a single result, which may be the position itself (every die lost, MAX-5).
 */
function addExactOnlyRoll(
  t: TablesInProgress,
  sums: RollSums,
  board: Int8Array,
  scratch: Int8Array,
  r: number,
  onBoard: number,
  roll: Roll,
): void {
  const q = exactOnlyResult(board, scratch, roll.high, roll.low);
  if (q === r) {
    sums.stay += roll.weight;
    sums.stayFirst += roll.weight;
    return;
  }
  addShifted(t.off, q, sums.dist, roll.weight);
  sums.mean += roll.weight * t.meanOff[q];
  if (onBoard === MAX_CHECKERS) {
    // Any change in exact-only bear-off is a checker borne off.
    sums.distFirst[1] += roll.weight;
  }
}

/**
 * One roll with standard bear-off: of the roll's `results`, the play with the
 * fewest expected rolls to bear off, and, with all 15 checkers on the board,
 * the play with the fewest expected rolls to the first checker off (a play
 * that bears one off now ends that count at one roll).
 */
function addBestPlayRoll(
  t: TablesInProgress,
  sums: RollSums,
  boards: readonly Int8Array[],
  results: readonly number[],
  onBoard: number,
  weight: number,
): void {
  let best = -1;
  let bestMean = Infinity;
  let bestFirst = -1;
  let bestFirstMean = Infinity;
  let bearsOff = false;
  for (const q of results) {
    if (t.meanOff[q] < bestMean) {
      bestMean = t.meanOff[q];
      best = q;
    }
    if (onBoard === MAX_CHECKERS) {
      if (checkers(boards[q]) < MAX_CHECKERS) bearsOff = true;
      else if (t.meanFirstOff[q] < bestFirstMean) {
        bestFirstMean = t.meanFirstOff[q];
        bestFirst = q;
      }
    }
  }
  addShifted(t.off, best, sums.dist, weight);
  sums.mean += weight * bestMean;
  if (onBoard === MAX_CHECKERS) {
    if (bearsOff) sums.distFirst[1] += weight;
    else {
      addShifted(t.firstOff, bestFirst, sums.distFirst, weight);
      sums.meanFirst += weight * bestFirstMean;
    }
  }
}

/** Writes position `r`'s row of `off` and its mean from the summed rolls. */
function storeOff(t: TablesInProgress, r: number, sums: RollSums): void {
  const base = r * MAX_ROLLS;
  const stay = sums.stay;
  if (stay > 0) {
    // A lost roll repeats the position: D[k] = stay·D[k−1] + (moving part)[k].
    let prev = 0;
    for (let k = 0; k < MAX_ROLLS - 1; k++) {
      const v = stay * prev + sums.dist[k];
      t.off[base + k] = v;
      prev = v;
    }
    // Tail: everything not yet accounted for.
    let sum = 0;
    for (let k = 0; k < MAX_ROLLS - 1; k++) sum += t.off[base + k];
    t.off[base + MAX_ROLLS - 1] = Math.max(0, 1 - sum);
    t.meanOff[r] = (1 + sums.mean) / (1 - stay);
  } else {
    t.off.set(sums.dist, base);
    t.meanOff[r] = 1 + sums.mean;
  }
}

/** Writes position `r`'s row of `firstOff` and its mean (all mass at 0 once a checker is off). */
function storeFirstOff(t: TablesInProgress, r: number, onBoard: number, sums: RollSums): void {
  const base = r * MAX_ROLLS;
  const stayFirst = sums.stayFirst;
  if (onBoard < MAX_CHECKERS) {
    t.firstOff[base] = 1;
    t.meanFirstOff[r] = 0;
  } else if (stayFirst > 0) {
    // Exact-only: the first checker comes off with the first roll that changes anything.
    const p = 1 - stayFirst;
    let sum = 0;
    for (let k = 1; k < MAX_ROLLS - 1; k++) {
      const v = p * Math.pow(stayFirst, k - 1);
      t.firstOff[base + k] = v;
      sum += v;
    }
    t.firstOff[base + MAX_ROLLS - 1] = Math.max(0, 1 - sum);
    t.meanFirstOff[r] = 1 / p;
  } else {
    t.firstOff.set(sums.distFirst, base);
    t.meanFirstOff[r] = 1 + sums.meanFirst;
  }
}

/**
 * Builds both one-sided tables of a rule set by dynamic programming over
 * positions in order of increasing pips (every play lowers the pips, so
 * successors are always done first). For each roll the player takes the play
 * with the fewest expected rolls (for `off`) or the fewest expected rolls to
 * the first checker off (for `firstOff`), the usual one-sided strategy.
 *
 * Pure and deterministic; about 10 s for `standard` on one core.
 */
export function buildBearoffTables(ruleSet: BearoffRuleSet, onProgress?: (done: number, total: number) => void): BearoffTables {
  const n = BEAROFF_POSITIONS;
  const t: TablesInProgress = {
    off: new Float64Array(n * MAX_ROLLS),
    firstOff: new Float64Array(n * MAX_ROLLS),
    meanOff: new Float64Array(n),
    meanFirstOff: new Float64Array(n),
  };
  const { boards, order } = positionsByPips(n);
  const plays = new HomePlays();
  const scratch = new Int8Array(HOME_POINTS + 1);
  const sums = new RollSums();
  let done = 0;
  for (const r of order) {
    const board = boards[r];
    const onBoard = checkers(board);
    if (onBoard === 0) {
      t.off[r * MAX_ROLLS] = 1;
      t.firstOff[r * MAX_ROLLS] = 1;
      continue;
    }
    sums.reset();
    for (const roll of ROLLS) {
      if (ruleSet === 'exactOnly') addExactOnlyRoll(t, sums, board, scratch, r, onBoard, roll);
      else addBestPlayRoll(t, sums, boards, plays.run(board, roll.high, roll.low), onBoard, roll.weight);
    }
    storeOff(t, r, sums);
    storeFirstOff(t, r, onBoard, sums);
    done++;
    if (onProgress && done % 5000 === 0) onProgress(done, n);
  }
  return { ruleSet, off: t.off, firstOff: t.firstOff, meanOff: t.meanOff, meanFirstOff: t.meanFirstOff };
}
