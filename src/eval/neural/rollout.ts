import { Dice } from '../../engine/dice';
import { RulesError } from '../../engine/errors';
import { needsDice, winnerOf } from '../../engine/long/game';
import { LongRules } from '../../engine/long/rules';
import { LongState, LongTurn, legalLongTurns } from '../../engine/long/turn';
import { SeededRandom } from '../../engine/random';
import { Result, ok } from '../../engine/result';
import { Side } from '../../engine/side';
import { flipBoardInto } from '../../engine/short/board';
import { LongStageSolver } from '../../engine/long/stage';
import { ShortStageSolver } from '../../engine/short/stage';
import { Step } from '../../engine/step';
import { OutcomeValues, STANDARD_VALUES, equityAt, longOutcomeValues } from '../equity';
import { Evaluator } from '../evaluator';
import { LongChooser } from '../long/chooser';
import { Probabilities, flipInPlace, probabilitiesAt } from '../probabilities';
import { isLongRace, isShortRace } from '../race';

/*
 * Monte Carlo rollouts (pure: the clock is injected). A trial plays the
 * game on from the start position with both sides choosing, for each roll,
 * the play whose result the evaluator likes best (0 ply), until the game
 * ends or the trial is truncated; the trial's outcome is the result (or the
 * evaluator's probabilities at the truncation point), seen from the side to
 * move at the start. The rollout is the mean over trials.
 *
 * Variance reduction:
 * - **stratified first two rolls** (quasi-random dice): trial i's first roll
 *   is stratum i mod 36 and its second (5·(i mod 36) + ⌊i/36⌋) mod 36, both
 *   through seeded permutations of the 36 ordered rolls — every block of 36
 *   trials has each first roll once and each second roll once, and 1296
 *   trials hold every pair of first rolls once; later rolls come from a
 *   per-trial seeded generator, so trial i is the same whatever the budget;
 * - **common random numbers**: candidate turns (`rolloutTurns`) are rolled
 *   out with the same dice per trial, so their differences are sharper than
 *   their values;
 * - optional **luck adjustment** (`luckAdjust`): at each roll the luck of the
 *   side on roll — the 0-ply value of its best play for the roll it got minus
 *   the average over the 21 rolls — is subtracted from the outcome. Its
 *   expectation is 0, so the mean is unchanged and much of the dice noise
 *   goes; it costs an evaluation of every roll at every ply (about 21×).
 *
 * Standard errors are the sample standard deviation of the trial outcomes
 * over √trials (conservative under stratification).
 *
 * Splitting: trial i's dice depend only on the seed and i, so a rollout can
 * be played in ranges of trials (`firstTrial`, `rolloutTrials`), anywhere,
 * and merged (`mergeRolloutTrials`): the ranges keep every trial's outcome,
 * and the merge sums them in trial order, as one serial run does — the
 * merged answer is the serial answer, to the last bit. A merge keeps the
 * trials from the first range on while they follow each other without a
 * gap: trials past a range that stopped early (its budget ran out) are
 * dropped, so a partial answer is always the serial rollout of its first n
 * trials.
 */

/** Options of a rollout. */
export interface RolloutOptions {
  /** Most trials to play (≥ 1). */
  readonly trials: number;
  /** Index of the first trial (default 0): trials firstTrial … firstTrial + trials − 1 are played, each with its own dice. */
  readonly firstTrial?: number;
  /** Seed of the dice: the same seed gives the same trials. */
  readonly seed: number;
  /** Plays per trial before it is truncated and scored by the evaluator (default: play to the end). */
  readonly truncateAfter?: number;
  /** Stop starting new trials once this many milliseconds of `clock` have passed (trial 0, when in range, is always played). */
  readonly timeBudgetMs?: number;
  /** Milliseconds (e.g. `performance.now`), needed with `timeBudgetMs`: injected so the core stays pure. */
  readonly clock?: () => number;
  /** Stratified first two rolls (default true). */
  readonly stratify?: boolean;
  /** Luck adjustment (default false). */
  readonly luckAdjust?: boolean;
  /** Score a trial with the evaluator as soon as it reaches a race (the race evaluator is exact or nearly so there). Default false. */
  readonly settleRaces?: boolean;
  /** Outcome values for equity and for choosing plays (default: the family's / rules'). */
  readonly values?: OutcomeValues;
  /** Polled before every play: true stops the rollout (`stoppedBy: 'cancelled'`, its estimate is not meaningful). */
  readonly aborted?: () => boolean;
}

/** A rollout's estimate, for the side to move at the start. */
export interface RolloutResult {
  readonly probabilities: Probabilities;
  readonly equity: number;
  /** Standard error of each probability. */
  readonly standardErrors: Probabilities;
  readonly equityStandardError: number;
  readonly trials: number;
  /** Trials stopped before the game ended (truncation or a settled race). */
  readonly truncatedTrials: number;
  /** Why the rollout stopped. */
  readonly stoppedBy: 'trials' | 'time' | 'cancelled';
}

/**
 * The trials of a range as played (`rolloutTrials`), before they are
 * summed: plain arrays, so a range can travel between threads.
 */
export interface RolloutTrials {
  /** Index of the first trial held. */
  readonly firstTrial: number;
  /** Six numbers per trial played, in trial order: the five probabilities and the equity, for the side to move at the start. */
  readonly outcomes: Float64Array;
  /** 1 for a trial stopped before the game ended (truncation or a settled race), per trial. */
  readonly truncated: Uint8Array;
  readonly stoppedBy: RolloutResult['stoppedBy'];
}

/** Where a rollout starts: a position before the roll of the side to move. */
export type RolloutStart =
  | { readonly family: 'short'; readonly board: Int8Array }
  | { readonly family: 'long'; readonly rules: Readonly<LongRules>; readonly state: LongState };

/** One candidate turn of a roll and its rollout (for the player who plays it). */
export interface RolledOutTurn {
  readonly steps: readonly Step[];
  /** The board after the turn, seen from the player who played it. */
  readonly board: Int8Array;
  readonly result: RolloutResult;
}

/** The 36 ordered rolls. */
const ORDERED: readonly Dice[] = Array.from(
  { length: 36 },
  (_, i) => [1 + Math.floor(i / 6), 1 + (i % 6)] as Dice,
);
/** The 21 distinct rolls with their probabilities. */
const DISTINCT: readonly { dice: Dice; weight: number }[] = (() => {
  const rolls: { dice: Dice; weight: number }[] = [];
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= a; b++) rolls.push({ dice: [a, b], weight: a === b ? 1 / 36 : 2 / 36 });
  return rolls;
})();

/** A game in progress for a rollout: one family's rules behind a few operations. */
interface Walker {
  /** Back to the start position. */
  reset(): void;
  /** 0 or 1: who is to move now (the start's side to move is 0). */
  mover(): number;
  finished(): boolean;
  race(): boolean;
  /** Does the next stage need dice (false: a stage with known units, long family). */
  needsDice(): boolean;
  /** The evaluator's probabilities for the side to move now (the final result when finished). */
  evaluate(out: Float64Array): void;
  /** Plays the best play for `dice`; leaves in `out` its value for the player who moved. */
  play(dice: Dice | undefined, out: Float64Array): void;
  /** The value, for the side to move, of its best play for `dice`, without playing it. */
  bestValue(dice: Dice, out: Float64Array): void;
}

class ShortWalker implements Walker {
  private readonly board = new Int8Array(28);
  private side = 0;
  private readonly solver = new ShortStageSolver();
  private readonly result = new Int8Array(28);
  private readonly flipped = new Int8Array(28);
  private readonly bestBoard = new Int8Array(28);
  private readonly probs = new Float64Array(5);

  constructor(
    private readonly start: Int8Array,
    private readonly evaluator: Evaluator,
    private readonly values: OutcomeValues,
  ) {
    this.reset();
  }

  reset(): void {
    this.board.set(this.start);
    this.side = 0;
  }
  mover(): number {
    return this.side;
  }
  finished(): boolean {
    return this.board[0] === 15 || this.board[27] === 15;
  }
  race(): boolean {
    return isShortRace(this.board);
  }
  needsDice(): boolean {
    return true;
  }
  evaluate(out: Float64Array): void {
    this.evaluator.evaluateInto(this.board, out, 0);
  }
  bestValue(dice: Dice, out: Float64Array): void {
    const n = this.solver.solve(this.board, dice[0], dice[1]);
    let bestEquity = -Infinity;
    for (let k = 0; k < n; k++) {
      this.solver.playBoardInto(k, this.result);
      flipBoardInto(this.result, this.flipped);
      this.evaluator.evaluateInto(this.flipped, this.probs, 0);
      flipInPlace(this.probs, 0);
      const e = equityAt(this.probs, 0, this.values);
      if (e > bestEquity) {
        bestEquity = e;
        this.bestBoard.set(this.result);
        out.set(this.probs);
      }
    }
  }
  play(dice: Dice | undefined, out: Float64Array): void {
    if (!dice) throw new Error('backgammon always rolls');
    this.bestValue(dice, out);
    flipBoardInto(this.bestBoard, this.board);
    this.side ^= 1;
  }
}

class LongWalker implements Walker {
  private state: LongState;
  private readonly startSide: Side;
  /** The move generator of this walker's games (every query is done with it before the next). */
  private readonly solver = new LongStageSolver();
  private readonly chooser: LongChooser;

  constructor(
    private readonly rules: Readonly<LongRules>,
    private readonly start: LongState,
    private readonly evaluator: Evaluator,
    values: OutcomeValues,
  ) {
    this.state = start;
    this.startSide = start.position.turn;
    this.chooser = new LongChooser(rules, evaluator, values);
  }

  reset(): void {
    this.state = this.start;
  }
  mover(): number {
    return this.state.position.turn === this.startSide ? 0 : 1;
  }
  finished(): boolean {
    return winnerOf(this.state) !== null;
  }
  race(): boolean {
    return this.state.pending.length === 0 && isLongRace(this.state.position.board);
  }
  needsDice(): boolean {
    return needsDice(this.state);
  }
  evaluate(out: Float64Array): void {
    this.evaluator.evaluateInto(this.state.position.board, out, 0);
  }
  private best(dice: Dice | undefined): { turns: readonly LongTurn[]; best: number } {
    const answer = legalLongTurns(this.rules as LongRules, this.state, dice, {}, this.solver);
    if (!answer.ok) throw new Error(`rollout: ${answer.error.code} ${answer.error.message}`);
    const turns = answer.value.turns;
    return { turns, best: this.chooser.best(this.state, turns) };
  }
  bestValue(dice: Dice, out: Float64Array): void {
    const { best } = this.best(dice);
    out.set(this.chooser.valueOf(best));
  }
  play(dice: Dice | undefined, out: Float64Array): void {
    const { turns, best } = this.best(dice);
    out.set(this.chooser.valueOf(best));
    this.state = turns[best].state;
  }
}

/** A seeded permutation of 0..35. */
function permutation(random: SeededRandom): Int8Array {
  const p = Int8Array.from({ length: 36 }, (_, i) => i);
  for (let i = 35; i > 0; i--) {
    const j = random.below(i + 1);
    const t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

/** Adds `sign`·(a − b) into `into` (5 numbers), after seeing a and b from the start's side when `flip`. */
function addDifference(
  into: Float64Array,
  a: Float64Array,
  b: Float64Array,
  flip: boolean,
  sign: number,
): void {
  // A flip maps (w, wm, wk, lm, lk) to (1 − w, lm, lk, wm, wk): differences map to (−Δw, Δlm, Δlk, Δwm, Δwk).
  if (!flip) {
    for (let i = 0; i < 5; i++) into[i] += sign * (a[i] - b[i]);
  } else {
    into[0] -= sign * (a[0] - b[0]);
    into[1] += sign * (a[3] - b[3]);
    into[2] += sign * (a[4] - b[4]);
    into[3] += sign * (a[1] - b[1]);
    into[4] += sign * (a[2] - b[2]);
  }
}

function runTrials(walker: Walker, options: RolloutOptions, values: OutcomeValues): RolloutTrials {
  const first = Math.max(0, Math.floor(options.firstTrial ?? 0));
  const end = first + Math.max(1, Math.floor(options.trials));
  const stratify = options.stratify ?? true;
  const truncate = options.truncateAfter ?? Infinity;
  const budget = options.timeBudgetMs;
  if (budget !== undefined && !options.clock) throw new RangeError('a time budget needs a clock');
  const clock = options.clock;
  const started = clock ? clock() : 0;
  const seedRandom = new SeededRandom(options.seed >>> 0);
  const firstPermutation = permutation(seedRandom);
  const secondPermutation = permutation(seedRandom);
  const outcomes = new Float64Array(6 * (end - first));
  const truncatedFlags = new Uint8Array(end - first);
  const outcome = new Float64Array(6);
  const luck = new Float64Array(5);
  const value = new Float64Array(5);
  const average = new Float64Array(5);
  const one = new Float64Array(5);
  let trials = 0;
  let stoppedBy: RolloutResult['stoppedBy'] = 'trials';
  const aborted = options.aborted;
  trialsLoop: for (let i = first; i < end; i++) {
    if (i > 0 && budget !== undefined && clock && clock() - started >= budget) {
      stoppedBy = 'time';
      break;
    }
    walker.reset();
    luck.fill(0);
    const random = new SeededRandom((options.seed * 0x9e3779b1 + i * 0x85ebca6b + 1) >>> 0);
    let rolls = 0;
    let plays = 0;
    let truncated = 0;
    for (;;) {
      if (walker.finished()) break;
      // A caller that gave up stops the rollout within one play; the partial trial is not counted.
      if (aborted && aborted()) {
        stoppedBy = 'cancelled';
        break trialsLoop;
      }
      if (plays >= truncate || (options.settleRaces && walker.race())) {
        truncated = 1;
        break;
      }
      let dice: Dice | undefined;
      if (walker.needsDice()) {
        if (stratify && rolls === 0) dice = ORDERED[firstPermutation[i % 36]];
        else if (stratify && rolls === 1)
          dice = ORDERED[secondPermutation[(5 * (i % 36) + Math.floor(i / 36)) % 36]];
        else dice = random.dice();
        rolls++;
        if (options.luckAdjust) {
          average.fill(0);
          for (const r of DISTINCT) {
            walker.bestValue(r.dice, one);
            for (let k = 0; k < 5; k++) average[k] += r.weight * one[k];
          }
        }
      }
      const flip = walker.mover() === 1;
      walker.play(dice, value);
      if (options.luckAdjust && dice) addDifference(luck, value, average, flip, 1);
      plays++;
    }
    walker.evaluate(outcome);
    if (walker.mover() === 1) flipInPlace(outcome, 0);
    for (let k = 0; k < 5; k++) outcome[k] -= luck[k];
    outcome[5] = equityAt(outcome, 0, values);
    outcomes.set(outcome, 6 * trials);
    truncatedFlags[trials] = truncated;
    trials++;
  }
  return {
    firstTrial: first,
    outcomes: outcomes.slice(0, 6 * trials),
    truncated: truncatedFlags.slice(0, trials),
    stoppedBy,
  };
}

/**
 * The estimate of trials as played: the mean outcome and its standard
 * errors, the sums taken in trial order (the same arithmetic however the
 * trials were split).
 */
export function summarizeRollout(played: RolloutTrials): RolloutResult {
  const trials = played.truncated.length;
  const sum = new Float64Array(6);
  const sumSquares = new Float64Array(6);
  const o = played.outcomes;
  let truncated = 0;
  for (let t = 0; t < trials; t++) {
    for (let k = 0; k < 6; k++) {
      const x = o[6 * t + k];
      sum[k] += x;
      sumSquares[k] += x * x;
    }
    truncated += played.truncated[t];
  }
  const mean = new Float64Array(6);
  const error = new Float64Array(6);
  for (let k = 0; k < 6; k++) {
    mean[k] = sum[k] / trials;
    const variance =
      trials > 1 ? Math.max(0, (sumSquares[k] - trials * mean[k] * mean[k]) / (trials - 1)) : 0;
    error[k] = Math.sqrt(variance / trials);
  }
  return {
    probabilities: probabilitiesAt(mean, 0),
    equity: mean[5],
    standardErrors: probabilitiesAt(error, 0),
    equityStandardError: error[5],
    trials,
    truncatedTrials: truncated,
    stoppedBy: played.stoppedBy,
  };
}

/**
 * Merges ranges of one rollout (same start, seed and settings) that were
 * played apart, in any order, into the trials a serial run of `requested`
 * trials would hold: from the lowest first trial on, ranges are joined while
 * each begins where the one before ended; the rest (past a range cut short
 * by its budget or its caller) is dropped. Stopped by `trials` when all
 * `requested` trials are there, else `cancelled` when a range was, else
 * `time`.
 */
export function mergeRolloutTrials(parts: readonly RolloutTrials[], requested: number): RolloutTrials {
  const sorted = [...parts].sort((a, b) => a.firstTrial - b.firstTrial);
  const first = sorted.length > 0 ? sorted[0].firstTrial : 0;
  const kept: RolloutTrials[] = [];
  let next = first;
  for (const part of sorted) {
    if (part.firstTrial !== next) break;
    kept.push(part);
    next += part.truncated.length;
  }
  const count = Math.min(next - first, Math.max(0, requested));
  const outcomes = new Float64Array(6 * count);
  const truncated = new Uint8Array(count);
  let at = 0;
  for (const part of kept) {
    const n = Math.min(part.truncated.length, count - at);
    outcomes.set(part.outcomes.subarray(0, 6 * n), 6 * at);
    truncated.set(part.truncated.subarray(0, n), at);
    at += n;
  }
  const stoppedBy: RolloutResult['stoppedBy'] =
    count >= requested ? 'trials' : parts.some((p) => p.stoppedBy === 'cancelled') ? 'cancelled' : 'time';
  return { firstTrial: first, outcomes, truncated, stoppedBy };
}

/**
 * Cuts trials 0 … `trials` − 1 into at most `parts` ranges of whole blocks
 * of 36 (each block holds every stratified first roll once), in trial order;
 * the last range takes the remainder.
 */
export function trialRanges(trials: number, parts: number): { firstTrial: number; trials: number }[] {
  const total = Math.max(1, Math.floor(trials));
  const blocks = Math.ceil(total / 36);
  const n = Math.max(1, Math.min(Math.floor(parts), blocks));
  const ranges: { firstTrial: number; trials: number }[] = [];
  let block = 0;
  for (let r = 0; r < n; r++) {
    const size = Math.floor((blocks - block) / (n - r));
    const firstTrial = 36 * block;
    block += size;
    ranges.push({ firstTrial, trials: Math.min(total, 36 * block) - firstTrial });
  }
  return ranges;
}

function runRollout(walker: Walker, options: RolloutOptions, values: OutcomeValues): RolloutResult {
  return summarizeRollout(runTrials(walker, options, values));
}

/** A turn of the roll being rolled out: its steps, the board after it, where the rollout after it starts, and whether the mover then changes. */
interface TurnStart<St> {
  readonly steps: readonly Step[];
  readonly board: Int8Array;
  readonly start: St;
  /** The side to move after the turn is not the player who played it (the result is flipped back to him). */
  readonly flipped: boolean;
}

/** What a rollout needs of a family, over its start `St`: a walker, its outcome values, and the turns of a roll. */
interface RolloutFamily<St> {
  walker(start: St, evaluator: Evaluator, values: OutcomeValues): Walker;
  values(start: St): OutcomeValues;
  turns(start: St, dice: Dice | undefined): Result<TurnStart<St>[], RulesError>;
}

type StartOf<F extends RolloutStart['family']> = Extract<RolloutStart, { readonly family: F }>;

const SHORT_ROLLOUT: RolloutFamily<StartOf<'short'>> = {
  walker: (start, evaluator, values) => new ShortWalker(start.board, evaluator, values),
  values: () => STANDARD_VALUES,
  turns(start, dice) {
    if (!dice) throw new RangeError('backgammon turns need dice');
    const solver = new ShortStageSolver();
    const n = solver.solve(start.board, dice[0], dice[1]);
    const turns: TurnStart<StartOf<'short'>>[] = [];
    for (let k = 0; k < n; k++) {
      const board = solver.playBoardInto(k, new Int8Array(28));
      const steps: Step[] = [];
      for (let s = 0; s < solver.playStepCount(k); s++) steps.push({ from: solver.playFrom(k, s), to: solver.playTo(k, s) });
      turns.push({ steps, board, start: { family: 'short', board: flipBoardInto(board, new Int8Array(28)) }, flipped: true });
    }
    return ok(turns);
  },
};

const LONG_ROLLOUT: RolloutFamily<StartOf<'long'>> = {
  walker: (start, evaluator, values) => new LongWalker(start.rules, start.state, evaluator, values),
  values: (start) => longOutcomeValues(start.rules),
  turns(start, dice) {
    const answer = legalLongTurns(start.rules as LongRules, start.state, dice);
    if (!answer.ok) return answer;
    const mover = start.state.position.turn;
    return ok(
      answer.value.turns.map((t) => ({
        steps: t.steps,
        board: t.board,
        start: { family: 'long', rules: start.rules, state: t.state },
        flipped: t.state.position.turn !== mover,
      })),
    );
  },
};

/** Each family's rollout side, by the start's family. */
const ROLLOUT_FAMILIES: { readonly [F in RolloutStart['family']]: RolloutFamily<StartOf<F>> } = {
  short: SHORT_ROLLOUT,
  long: LONG_ROLLOUT,
};

/** The rollout side of the start's family (the one place a rollout picks it). */
function familyOf<F extends RolloutStart['family']>(start: StartOf<F> & { readonly family: F }): RolloutFamily<StartOf<F>> {
  return ROLLOUT_FAMILIES[start.family];
}

function walkerOf<St extends RolloutStart>(family: RolloutFamily<St>, start: St, evaluator: Evaluator, values: OutcomeValues): Walker {
  if (evaluator.family !== start.family)
    throw new RangeError(`a ${start.family} rollout needs a ${start.family}-family evaluator`);
  return family.walker(start, evaluator, values);
}

/**
 * Rolls out a position before the side to move rolls (see the top of this
 * file): the mean outcome for that side with standard errors, the trials
 * played and why it stopped. The board / state is not modified.
 */
export function rollout(start: RolloutStart, evaluator: Evaluator, options: RolloutOptions): RolloutResult {
  const family = familyOf(start);
  const values = options.values ?? family.values(start);
  return runRollout(walkerOf(family, start, evaluator, values), options, values);
}

/**
 * Plays trials `firstTrial` … of a rollout and keeps their outcomes apart
 * (for `mergeRolloutTrials` and `summarizeRollout`): one range of a rollout
 * split between threads.
 */
export function rolloutTrials(
  start: RolloutStart,
  evaluator: Evaluator,
  options: RolloutOptions,
): RolloutTrials {
  const family = familyOf(start);
  const values = options.values ?? family.values(start);
  return runTrials(walkerOf(family, start, evaluator, values), options, values);
}

/**
 * Rolls out every legal turn of `dice` from `start` (backgammon: all legal
 * plays; long family: the plays of the current stage), each from the
 * position after it with the same seed (common random numbers), and ranks
 * them by equity for the player who plays them. The trial and time budgets
 * apply **per turn**.
 */
export function rolloutTurns(
  start: RolloutStart,
  dice: Dice | undefined,
  evaluator: Evaluator,
  options: RolloutOptions,
): Result<RolledOutTurn[], RulesError> {
  const family = familyOf(start);
  const values = options.values ?? family.values(start);
  const starts = family.turns(start, dice);
  if (!starts.ok) return starts;
  const turns: RolledOutTurn[] = starts.value.map((t) => {
    const r = runRollout(family.walker(t.start, evaluator, values), options, values);
    return { steps: t.steps, board: t.board, result: t.flipped ? flipResult(r) : r };
  });
  turns.sort((a, b) => b.result.equity - a.result.equity);
  return ok(turns);
}

/** A rollout result seen from the other side (cubeless equity is antisymmetric: it changes sign). */
function flipResult(r: RolloutResult): RolloutResult {
  const p = r.probabilities;
  const flipped = {
    win: 1 - p.win,
    winMars: p.loseMars,
    winKoks: p.loseKoks,
    loseMars: p.winMars,
    loseKoks: p.winKoks,
  };
  const e = r.standardErrors;
  return {
    ...r,
    probabilities: flipped,
    equity: -r.equity,
    standardErrors: {
      win: e.win,
      winMars: e.loseMars,
      winKoks: e.loseKoks,
      loseMars: e.winMars,
      loseKoks: e.winKoks,
    },
  };
}
