import { Branch as StepBranch, BranchRules, followSteps, followWholePlay, furtherFailure, withoutUnit } from '../branches';
import { Dice } from '../dice';
import { FaultText, RulesError, faultError, faultText, rulesError } from '../errors';
import { Segment, expandSegments, orderings } from '../notation';
import { largerDieError, unusedUnitsError } from '../maximum';
import { Result, err, ok } from '../result';
import { Step } from '../step';
import { StepFault, stepFaultError, stepFaultTable } from '../step-fault';
import { BOARD_LENGTH, CHECKERS, HEAD, LongBoard, MOVER_OFF } from './board';
import { LongRules } from './rules';
import { BoardFault, LongStageSolver, LongStepFault, MovementRules, movementOf } from './stage';
import { ActiveStage, LongQueryOptions, LongState, LongTurn, LongTurns, legalLongTurns } from './turn';

/** ALG-8: a play is acceptable step by step while it is a prefix of some legal play. */
export type LongValidation =
  | { readonly legal: true; readonly complete: true; readonly turn: LongTurn; readonly stage: ActiveStage }
  | {
      readonly legal: true;
      readonly complete: false;
      readonly remainingUnits: readonly number[];
      readonly stage: ActiveStage;
    }
  | { readonly legal: false; readonly error: RulesError; readonly stage: ActiveStage };

const STEP_FAULT = stepFaultTable<LongStepFault>('long');

const BOARD_FAULT: Record<BoardFault, FaultText> = {
  [BoardFault.None]: faultText('NOT_A_LEGAL_PLAY', 'ALG-4', 'not a legal play'),
  [BoardFault.SixBlock]: faultText('SIX_BLOCK', 'LN-BLOCK-3', 'the play builds six points in a row with no opponent checker ahead of them'),
  [BoardFault.FevgaStartingQuarter]: faultText('FEVGA_STARTING_QUARTER', 'FV-3', 'all six points of the starting quarter may not be held at once'),
  [BoardFault.FevgaPrimeTrap]: faultText('FEVGA_PRIME_TRAP', 'FV-5', 'a prime may not trap every opponent checker directly behind it'),
};

function stepError(fault: LongStepFault, stepIndex: number): RulesError {
  return stepFaultError(STEP_FAULT, fault, stepIndex);
}

function boardError(fault: BoardFault, stepIndex: number): RulesError {
  return faultError(BOARD_FAULT[fault], stepIndex);
}

/** Scratch of `boardKey`: the key's character codes (one string made at the end, not 25 concatenations). */
const KEY_CODES: number[] = new Array<number>(25).fill(0);

/** The mover's checkers and borne-off count as a string key (the opponent does not move within a stage). */
function boardKey(board: LongBoard): string {
  for (let p = 0; p <= 24; p++) KEY_CODES[p] = 65 + Math.max(0, board[p]);
  return String.fromCharCode.apply(null, KEY_CODES);
}

type Branch = StepBranch<LongBoard>;

/** Checks the shape of each step before any rule: numbers in range, forward. */
function stepShapeError(steps: readonly Step[]): RulesError | null {
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    if (!Number.isInteger(s.from) || s.from < 1 || s.from > 24) {
      return rulesError('INVALID_STEPS', 'a step starts on a point 1..24 (own numbering)', { field: `steps[${i}].from` });
    }
    if (!Number.isInteger(s.to) || s.to < 0 || s.to > 24) {
      return rulesError('INVALID_STEPS', 'a step ends on a point 0..24 (0 = off)', { field: `steps[${i}].to` });
    }
  }
  return null;
}

/** How validation gets the legal plays of the stage: `legalLongTurns`, or a caller's copy of its answer. */
export type LongTurnsQuery = typeof legalLongTurns;

/**
 * Validates a proposed play (a whole stage, or a prefix of one, ALG-8) and
 * names the first step that breaks a rule. `steps` use the mover's own
 * numbering with 0 = off.
 */
export function validateLongPlay(
  rules: LongRules,
  state: LongState,
  dice: Dice | undefined,
  steps: readonly Step[],
  options: LongQueryOptions = {},
  solver: LongStageSolver = new LongStageSolver(),
  generate: LongTurnsQuery = legalLongTurns,
): Result<LongValidation, RulesError> {
  const shape = stepShapeError(steps);
  if (shape) return err(shape);
  const generated = generate(rules, state, dice, options, solver);
  if (!generated.ok) return generated;
  return ok(new StageCheck(rules, state, generated.value, solver).run(steps));
}

/**
 * ALG-8 against the already generated legal plays of the stage: the steps
 * are followed branch by branch (a step may use either of two dice), each
 * branch kept only while some legal play extends it.
 */
class StageCheck implements BranchRules<LongBoard> {
  readonly unitsOf = 'stage';
  readonly unitsRule = 'COM-9';
  readonly directionRule = 'LN-MOVE-1';
  /** The legal plays by board key, made on first use (a step list refused early never needs it). */
  private legalByKey: Map<string, LongTurn> | null = null;
  private readonly turns: readonly LongTurn[];
  private readonly before: LongBoard;
  private readonly stage: ActiveStage;
  private readonly maxUnits: number;
  private readonly movement: MovementRules;
  private readonly headStart: number;
  private readonly isPair: boolean;
  private readonly board = new Int8Array(BOARD_LENGTH);

  constructor(
    private readonly rules: LongRules,
    state: LongState,
    generated: LongTurns,
    private readonly checker: LongStageSolver,
  ) {
    this.stage = generated.stage;
    this.maxUnits = generated.unitsUsed;
    this.before = state.position.board;
    this.turns = generated.turns;
    this.movement = movementOf(rules);
    this.headStart = this.before[HEAD] > 0 ? this.before[HEAD] : 0;
    this.isPair = this.stage.units.length === 2 && this.stage.units[0] !== this.stage.units[1];
  }

  private get legal(): Map<string, LongTurn> {
    if (this.legalByKey === null) {
      this.legalByKey = new Map();
      for (const t of this.turns) this.legalByKey.set(boardKey(t.board), t);
    }
    return this.legalByKey;
  }

  run(steps: readonly Step[]): LongValidation {
    const stage = this.stage;
    // A whole legal play (what a client or self-play mostly sends) is found without exploring continuations.
    let whole: LongTurn | undefined;
    const start = { board: this.before.slice(), remaining: stage.units.slice(), used: 0 };
    if (followWholePlay(start, steps, this, (br) => br.used === this.maxUnits && (whole = this.legal.get(boardKey(br.board))) !== undefined) && whole) {
      return { legal: true, complete: true, turn: whole, stage };
    }
    const walked = followSteps({ board: this.before.slice(), remaining: stage.units.slice(), used: 0 }, steps, this);
    if ('error' in walked) return { legal: false, error: walked.error, stage };
    for (const br of walked.branches) {
      if (br.used === this.maxUnits || this.isWon(br.board)) {
        const turn = this.legal.get(boardKey(br.board));
        if (turn) return { legal: true, complete: true, turn, stage };
      }
    }
    return { legal: true, complete: false, remainingUnits: walked.branches[0].remaining, stage };
  }

  isWon(board: LongBoard): boolean {
    return board[MOVER_OFF] === CHECKERS;
  }

  stepWith(br: Branch, from: number, die: number, i: number): Branch | RulesError {
    const checker = this.checker;
    checker.startOfStage(this.before).load(br.board, br.remaining, this.stage.headAllowance, this.movement, this.headStart);
    const fault = checker.stepFault(from, die);
    if (fault !== StepFault.None) return stepError(fault, i);
    checker.applyStep(from, die);
    if (this.rules.sixBlockTiming === 'everyStep') {
      const bf = checker.boardFault();
      if (bf !== BoardFault.None) return boardError(bf, i);
    }
    return { board: checker.boardCopy(), remaining: withoutUnit(br.remaining, die), used: br.used + 1 };
  }

  /** The plays of the stage that continue this branch (a fresh exploration by the checker). */
  private explore(br: Branch): number {
    return this.checker
      .startOfStage(this.before)
      .explore(br.board, br.remaining, this.stage.headAllowance, this.movement, this.headStart, true, br.used);
  }

  isPrefix(br: Branch): boolean {
    const n = this.explore(br);
    const checker = this.checker;
    for (let k = 0; k < n; k++) {
      if (checker.playFault(k) !== BoardFault.None) continue;
      if (checker.playUnits(k) !== this.maxUnits) continue;
      if (this.legal.has(boardKey(checker.playBoardInto(k, this.board)))) return true;
    }
    return false;
  }

  diagnose(br: Branch, stepIndex: number): RulesError {
    const n = this.explore(br);
    const checker = this.checker;
    const maxUnits = this.maxUnits;
    let bestLegal = -1;
    let faultAtMax: BoardFault = BoardFault.None;
    for (let k = 0; k < n; k++) {
      const units = checker.playUnits(k);
      const fault = checker.playFault(k);
      if (fault === BoardFault.None) bestLegal = Math.max(bestLegal, units);
      else if (units >= maxUnits && faultAtMax === BoardFault.None) faultAtMax = fault;
    }
    if (bestLegal < maxUnits) {
      if (faultAtMax !== BoardFault.None) return boardError(faultAtMax, stepIndex);
      return unusedUnitsError(this.isPair, maxUnits, stepIndex, 'stage');
    }
    if (this.isPair && maxUnits === 1) return largerDieError(stepIndex);
    if (this.rules.sixBlock === 'fevgaRules') return boardError(BoardFault.FevgaPrimeTrap, stepIndex);
    return rulesError('NOT_A_LEGAL_PLAY', 'no legal play continues these steps', { stepIndex, rule: 'ALG-8' });
  }
}

/**
 * Validates a play given in notation: every way to fit its segments to the
 * units is tried; the first complete legal reading wins, then the first
 * legal prefix, else the error of the reading that got furthest.
 */
export function validateLongNotation(
  rules: LongRules,
  state: LongState,
  dice: Dice | undefined,
  segments: readonly Segment[],
  units: readonly number[],
  options: LongQueryOptions = {},
  solver: LongStageSolver = new LongStageSolver(),
  generate: LongTurnsQuery = legalLongTurns,
): Result<LongValidation, RulesError> {
  const generated = generate(rules, state, dice, options, solver);
  if (!generated.ok) return generated;
  const check = new StageCheck(rules, state, generated.value, solver);
  // Notation lists moves, not their order (chains are written highest point
  // first): every order of every reading is tried, the written one first.
  let prefix: LongValidation | null = null;
  let failure: Extract<LongValidation, { legal: false }> | null = null;
  for (const steps of expandSegments(segments, units).flatMap(orderings)) {
    const shape = stepShapeError(steps);
    if (shape) return err(shape);
    const v = check.run(steps);
    if (v.legal && v.complete) return ok(v);
    if (v.legal) prefix ??= v;
    else failure = furtherFailure(failure, v);
  }
  return ok((prefix ?? failure) as LongValidation);
}
