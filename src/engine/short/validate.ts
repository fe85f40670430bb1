import { Branch as StepBranch, BranchRules, followSteps, followWholePlay, furtherFailure, withoutUnit } from '../branches';
import { Dice, unitsOfRoll } from '../dice';
import { RulesError, rulesError } from '../errors';
import { Segment, expandSegments } from '../notation';
import { largerDieError, unusedUnitsError } from '../maximum';
import { Result, err, ok } from '../result';
import { BAR, OFF, Step } from '../step';
import { StepFault, stepFaultError, stepFaultTable } from '../step-fault';
import { KeyTable } from '../key-table';
import { BOARD_LENGTH, CHECKERS, MOVER_BAR, MOVER_OFF, ShortBoard } from './board';
import { ShortPosition } from './position';
import { ShortRules } from './rules';
import { ShortStageSolver } from './stage';
import { ShortStepFault, applyShortStep, shortStepFault } from './step-rules';
import { ShortTurn, checkShortQuery, turnFromSolver } from './turn';

/** ALG-8: a play is acceptable step by step while it is a prefix of some legal play. */
export type ShortValidation =
  | { readonly legal: true; readonly complete: true; readonly turn: ShortTurn }
  | { readonly legal: true; readonly complete: false; readonly remainingUnits: readonly number[] }
  | { readonly legal: false; readonly error: RulesError };

const STEP_FAULT = stepFaultTable<ShortStepFault>('short');

function stepError(fault: ShortStepFault, stepIndex: number): RulesError {
  return stepFaultError(STEP_FAULT, fault, stepIndex);
}

type Branch = StepBranch<ShortBoard>;

function sameBoard(a: ShortBoard, b: ShortBoard): boolean {
  for (let i = 0; i < BOARD_LENGTH; i++) if (a[i] !== b[i]) return false;
  return true;
}

function won(board: ShortBoard): boolean {
  return board[MOVER_OFF] === CHECKERS;
}

/** Checks the shape of each step before any rule: integers, a source 1..25 (25 = bar), a landing 0..24 (0 = off). */
function stepShapeError(steps: readonly Step[]): RulesError | null {
  if (!Array.isArray(steps))
    return rulesError('INVALID_STEPS', 'steps must be an array of {from, to}', { field: 'steps' });
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as Partial<Step> | null;
    if (typeof s !== 'object' || s === null) {
      return rulesError('INVALID_STEPS', 'a step is an object {from, to}', { field: `steps[${i}]` });
    }
    if (!Number.isInteger(s.from) || (s.from as number) < 1 || (s.from as number) > BAR) {
      return rulesError('INVALID_STEPS', 'a step starts on a point 1..24 or on the bar (25), own numbering', {
        field: `steps[${i}].from`,
      });
    }
    if (!Number.isInteger(s.to) || (s.to as number) < OFF || (s.to as number) > 24) {
      return rulesError('INVALID_STEPS', 'a step ends on a point 1..24 or off (0), own numbering', {
        field: `steps[${i}].to`,
      });
    }
  }
  return null;
}

/** A check of a proposed play (`P`: steps, or segments of notation) of `dice` against the rules (ALG-8). */
export type ShortPlayCheck<P> = (
  rules: ShortRules,
  position: ShortPosition,
  dice: Dice,
  play: P,
  validator?: ShortValidator,
) => Result<ShortValidation, RulesError>;

/**
 * Validates a proposed play of `dice` — a whole turn or a prefix of one
 * (ALG-8) — and names the first step that breaks a rule, with the rule.
 * Steps use the mover's own numbering, 25 = the bar and 0 = off. A play
 * that bears off the last checker is complete as soon as the game is won,
 * provided its resulting position is a legal play (MAX-6).
 */
export const validateShortPlay: ShortPlayCheck<readonly Step[]> = (rules, position, dice, steps, validator = new ShortValidator()) => {
  const shape = stepShapeError(steps);
  if (shape) return err(shape);
  const query = checkShortQuery(rules, position, dice);
  if (!query.ok) return query;
  validator.load(position, dice);
  return ok(validator.check(steps));
};

/**
 * The scratch of short-nardy validation, owned by its caller: the legal
 * plays of the roll (solved once per roll, indexed by resulting position),
 * and a second solver for the continuations of a partial play. Reusable,
 * not re-entrant.
 */
export class ShortValidator implements BranchRules<ShortBoard> {
  readonly unitsOf = 'roll';
  readonly unitsRule = 'COM-7';
  readonly directionRule = 'SH-MOVE-1';
  private readonly generator = new ShortStageSolver();
  private readonly continuation = new ShortStageSolver();
  /** The legal plays of the roll being validated, by resulting position. */
  private readonly legalPlays = new KeyTable(1024);
  private readonly scratch = new Int8Array(BOARD_LENGTH);
  private position: ShortPosition | null = null;
  private dice: Dice = [1, 1];
  /** M of ALG-5 for the loaded roll. */
  private maxUnits = 0;
  /** The key of the last position `legalIndex` read. */
  private keyLow = 0;
  private keyHigh = 0;
  private keyTag = 0;

  /** A copy of the board of the loaded roll (the caller may change its own). */
  private readonly loadedBoard = new Int8Array(BOARD_LENGTH);
  private loaded = false;
  /** Are the loaded roll's plays in `legalPlays`? */
  private indexed = false;
  private playCount = 0;

  /**
   * Solves the roll; its legal plays are indexed by resulting position
   * (ALG-7) when a validation first needs the index, and turns are built
   * only for the play a validation reaches. The same board and dice as the
   * loaded roll are not solved again (the game flow asks for the plays of a
   * roll when it is rolled and when one is played).
   */
  load(position: ShortPosition, dice: Dice): void {
    if (this.loaded && dice[0] === this.dice[0] && dice[1] === this.dice[1] && sameBoard(position.board, this.loadedBoard)) {
      this.position = position;
      return;
    }
    this.loaded = false;
    this.indexed = false;
    const count = this.generator.solve(position.board, dice[0], dice[1]);
    this.position = position;
    this.dice = [dice[0], dice[1]];
    this.maxUnits = this.generator.maxUnits;
    this.playCount = count;
    this.loadedBoard.set(position.board);
    this.loaded = true;
  }

  /**
   * The play of the loaded roll when nothing can be played (MAX-5): its one
   * legal play has no step. Null when there is a play to choose.
   */
  emptyPlay(): ShortTurn | null {
    const position = this.position;
    if (!position) throw new Error('ShortValidator.emptyPlay before load');
    if (this.playCount !== 1 || this.generator.playStepCount(0) !== 0) return null;
    return turnFromSolver(this.generator, 0, position.turn);
  }

  /**
   * An exact key of a position reached during one turn: the mover's checkers
   * (base-16 digits, points 1..12 and 13..24), his bar, and which points
   * still hold opponent checkers — within a turn the opponent only loses hit
   * blots, so that set fixes his checkers (ALG-7). Returns the index stored
   * for it in `legalPlays`, or -1.
   */
  private legalIndex(board: ShortBoard): number {
    if (!this.indexed) {
      this.legalPlays.clear();
      for (let k = 0; k < this.playCount; k++) {
        this.keyOf(this.generator.playBoardInto(k, this.scratch));
        this.legalPlays.putIfAbsent(this.keyLow, this.keyHigh, this.keyTag, k);
      }
      this.indexed = true;
    }
    this.keyOf(board);
    return this.legalPlays.get(this.keyLow, this.keyHigh, this.keyTag);
  }

  /** Sets `keyLow`, `keyHigh` and `keyTag` to the key of `board` (see `legalIndex`). */
  private keyOf(board: ShortBoard): void {
    let low = 0;
    let high = 0;
    let opponent = 0;
    let weight = 1;
    for (let p = 1; p <= 24; p++) {
      if (p === 13) weight = 1;
      const n = board[p];
      if (n > 0) {
        if (p <= 12) low += n * weight;
        else high += n * weight;
      } else if (n < 0) opponent |= 1 << (p - 1);
      weight *= 16;
    }
    this.keyLow = low;
    this.keyHigh = high;
    this.keyTag = board[MOVER_BAR] + opponent * 16;
  }

  /**
   * The plays that may follow a branch: solves its remaining units and calls
   * `visit` with each resulting board; returns the most units a continuation uses.
   */
  private continuations(br: Branch, visit: (board: ShortBoard) => boolean): number {
    const r = br.remaining;
    const continuation = this.continuation;
    const n =
      r.length === 2 && r[0] !== r[1]
        ? continuation.solve(br.board, r[0], r[1])
        : continuation.solveUnits(br.board, r.length > 0 ? r[0] : 1, r.length);
    for (let k = 0; k < n; k++) if (visit(continuation.playBoardInto(k, this.scratch))) break;
    return continuation.maxUnits;
  }

  /** ALG-8 on checked steps against the loaded roll. */
  check(steps: readonly Step[]): ShortValidation {
    const position = this.position;
    if (!position) throw new Error('ShortValidator.check before load');
    const start = { board: position.board.slice(), remaining: unitsOfRoll(this.dice), used: 0 };
    // A whole legal play (what a client or self-play mostly sends) is found without solving continuations
    // (and without the index: distinct plays of a roll have distinct boards, ALG-7).
    let k = -1;
    if (followWholePlay(start, steps, this, (br) => br.used === this.maxUnits && (k = this.generator.playWithBoard(br.board)) >= 0)) {
      return { legal: true, complete: true, turn: turnFromSolver(this.generator, k, position.turn) };
    }
    const walked = followSteps(start, steps, this);
    if ('error' in walked) return { legal: false, error: walked.error };
    for (const br of walked.branches) {
      if (br.used === this.maxUnits || won(br.board)) {
        const k = this.legalIndex(br.board);
        if (k >= 0) return { legal: true, complete: true, turn: turnFromSolver(this.generator, k, position.turn) };
      }
    }
    return { legal: true, complete: false, remainingUnits: walked.branches[0].remaining };
  }

  isWon(board: ShortBoard): boolean {
    return won(board);
  }

  stepWith(br: Branch, from: number, die: number, i: number): Branch | RulesError {
    const fault = shortStepFault(br.board, from, die);
    if (fault !== StepFault.None) return stepError(fault, i);
    const board = br.board.slice();
    applyShortStep(board, from, die);
    return { board, remaining: withoutUnit(br.remaining, die), used: br.used + 1 };
  }

  /** Does some legal play extend this branch (or is it one, ending the game)? */
  isPrefix(br: Branch): boolean {
    if (br.used === this.maxUnits || won(br.board)) return this.legalIndex(br.board) >= 0;
    let found = false;
    const more = this.continuations(br, (board) => (found = this.legalIndex(board) >= 0));
    return found && br.used + more === this.maxUnits;
  }

  diagnose(br: Branch, stepIndex: number): RulesError {
    const maxUnits = this.maxUnits;
    const isPair = this.dice[0] !== this.dice[1];
    const reach = br.used + (won(br.board) ? 0 : this.continuations(br, () => true));
    if (reach < maxUnits) {
      return unusedUnitsError(isPair, maxUnits, stepIndex, 'roll');
    }
    if (isPair && maxUnits === 1) return largerDieError(stepIndex);
    return rulesError('NOT_A_LEGAL_PLAY', 'no legal play continues these steps', { stepIndex, rule: 'ALG-8' });
  }
}

/**
 * How far a reading of notation contradicts the hit marks of the text: a
 * step inside a segment (a point the text does not write) that hits, or a
 * segment marked `*` whose landing point no step of the reading hit.
 * gnubg writes every intermediate point where a hit happens (`bar/23*\/22`),
 * so `bar/22` with 2-1 means bar/24/22, not bar/23*\/22.
 */
function hitMismatches(board: ShortBoard, segments: readonly Segment[], steps: readonly Step[]): number {
  const b = board.slice();
  const hitPoints = new Set<number>();
  let mismatches = 0;
  let segment = 0;
  for (const s of steps) {
    const hit = s.to !== OFF && b[s.to] === -1;
    applyShortStep(b, s.from, s.to === OFF ? s.from : s.from - s.to);
    if (hit) hitPoints.add(s.to);
    const seg = segments[segment];
    if (seg && s.to === seg.to) segment++;
    else if (hit) mismatches++; // a hit on a point the text leaves out
  }
  for (const seg of segments) if (seg.hit && !hitPoints.has(seg.to)) mismatches++;
  return mismatches;
}

/**
 * Validates a play written in notation (`24/18 13/11`, `24/13`, `bar/22*`,
 * `6/off`): every way to fit its segments to the dice is tried, in the
 * order written and from the highest source down. A complete
 * legal reading wins — the one that best agrees with the text's hit marks
 * when several reach different positions — then the first legal prefix,
 * else the error of the reading that got furthest.
 */
export const validateShortNotation: ShortPlayCheck<readonly Segment[]> = (rules, position, dice, segments, validator = new ShortValidator()) => {
  const readings = expandSegments(segments, unitsOfRoll(dice));
  let complete: { validation: ShortValidation; mismatches: number } | null = null;
  let prefix: ShortValidation | null = null;
  let failure: { legal: false; error: RulesError } | null = null;
  // Notation lists each checker's move, not the order of the steps: besides the order as
  // written, try the steps from the highest source down (the bar first, SH-BAR-1), which is
  // legal whenever any order of them is (see stage.ts on doubles; a pair has only two orders).
  const orders: Step[][] = [];
  for (const steps of readings) {
    orders.push(steps);
    const sorted = steps.slice().sort((a, b) => b.from - a.from);
    if (sorted.some((s, i) => s !== steps[i])) orders.push(sorted);
  }
  const query = checkShortQuery(rules, position, dice);
  if (!query.ok) return query;
  validator.load(position, dice);
  for (const steps of orders) {
    const shape = stepShapeError(steps);
    if (shape) return err(shape);
    const v = validator.check(steps);
    if (v.legal && v.complete) {
      const mismatches = hitMismatches(position.board, segments, steps);
      if (!complete || mismatches < complete.mismatches) complete = { validation: v, mismatches };
      if (mismatches === 0) break;
    } else if (v.legal) prefix ??= v;
    else failure = furtherFailure(failure, v);
  }
  return ok((complete?.validation ?? prefix ?? failure) as ShortValidation);
};
