import { Dice } from '../dice';
import { RuleErrorCode, RulesError, rulesError } from '../errors';
import { Segment, expandSegments, orderings } from '../notation';
import { Result, err, ok } from '../result';
import { OFF, Step } from '../step';
import { BOARD_LENGTH, CHECKERS, HEAD, LongBoard, MOVER_OFF } from './board';
import { LongRules } from './rules';
import { BoardFault, LongStageSolver, StepFault, movementOf } from './stage';
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

const STEP_FAULT: Record<StepFault, { code: RuleErrorCode; rule: string; message: string }> = {
  [StepFault.None]: { code: 'NOT_A_LEGAL_PLAY', rule: 'ALG-1', message: 'not a legal step' },
  [StepFault.NoChecker]: { code: 'NO_CHECKER', rule: 'LN-MOVE-1', message: 'there is no checker of the mover on that point' },
  [StepFault.Blocked]: { code: 'BLOCKED_POINT', rule: 'LN-MOVE-2', message: 'the landing point holds opponent checkers' },
  [StepFault.Head]: { code: 'HEAD_RULE', rule: 'LN-HEAD-1', message: 'no further checker may leave the head in this turn' },
  [StepFault.BearOffNotAllHome]: {
    code: 'BEAR_OFF_NOT_ALL_HOME',
    rule: 'LN-OFF-1',
    message: 'bearing off needs every checker in the home (own points 1..6)',
  },
  [StepFault.BearOffHigherChecker]: {
    code: 'BEAR_OFF_HIGHER_CHECKER',
    rule: 'LN-OFF-3',
    message: 'a die larger than the point bears off only from the highest occupied point',
  },
  [StepFault.BearOffExactOnly]: {
    code: 'BEAR_OFF_EXACT_ONLY',
    rule: 'CR-4',
    message: 'this variant bears off only with the exact die',
  },
  [StepFault.HomeMoveForbidden]: {
    code: 'HOME_MOVE_FORBIDDEN',
    rule: 'CR-4',
    message: 'moves inside the home are forbidden in this variant once every checker is home',
  },
  [StepFault.FevgaRunner]: {
    code: 'FEVGA_RUNNER',
    rule: 'FV-2',
    message: 'until the first runner has passed the opponent head, no second checker may leave the head',
  },
};

const BOARD_FAULT: Record<BoardFault, { code: RuleErrorCode; rule: string; message: string }> = {
  [BoardFault.None]: { code: 'NOT_A_LEGAL_PLAY', rule: 'ALG-4', message: 'not a legal play' },
  [BoardFault.SixBlock]: {
    code: 'SIX_BLOCK',
    rule: 'LN-BLOCK-3',
    message: 'the play builds six points in a row with no opponent checker ahead of them',
  },
  [BoardFault.FevgaStartingQuarter]: {
    code: 'FEVGA_STARTING_QUARTER',
    rule: 'FV-3',
    message: 'all six points of the starting quarter may not be held at once',
  },
  [BoardFault.FevgaPrimeTrap]: {
    code: 'FEVGA_PRIME_TRAP',
    rule: 'FV-5',
    message: 'a prime may not trap every opponent checker directly behind it',
  },
};

function stepError(fault: StepFault, stepIndex: number): RulesError {
  const f = STEP_FAULT[fault];
  return rulesError(f.code, f.message, { stepIndex, rule: f.rule });
}

function boardError(fault: BoardFault, stepIndex: number): RulesError {
  const f = BOARD_FAULT[fault];
  return rulesError(f.code, f.message, { stepIndex, rule: f.rule });
}

function boardKey(board: LongBoard): string {
  let s = '';
  for (let p = 0; p <= 24; p++) s += String.fromCharCode(65 + Math.max(0, board[p]));
  return s;
}

interface Branch {
  board: LongBoard;
  remaining: number[];
  used: number;
}

const checker = new LongStageSolver();

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
): Result<LongValidation, RulesError> {
  const shape = stepShapeError(steps);
  if (shape) return err(shape);
  const generated = legalLongTurns(rules, state, dice, options);
  if (!generated.ok) return generated;
  return ok(validateAgainst(rules, state, generated.value, steps));
}

/** ALG-8 against the already generated legal plays of the stage. */
function validateAgainst(rules: LongRules, state: LongState, generated: LongTurns, steps: readonly Step[]): LongValidation {
  const { stage, turns, unitsUsed: maxUnits } = generated;
  const before = state.position.board;
  const legal = new Map<string, LongTurn>();
  for (const t of turns) legal.set(boardKey(t.board), t);
  const movement = movementOf(rules);
  const headStart = before[HEAD] > 0 ? before[HEAD] : 0;
  const isPair = stage.units.length === 2 && stage.units[0] !== stage.units[1];

  /** Does some legal play extend this branch? */
  const isPrefix = (br: Branch): boolean => {
    const n = checker
      .startOfStage(before)
      .explore(br.board, br.remaining, stage.headAllowance, movement, headStart, true, br.used);
    for (let k = 0; k < n; k++) {
      if (checker.playFault(k) !== BoardFault.None) continue;
      if (checker.playUnits(k) !== maxUnits) continue;
      const board = checker.playBoardInto(k, scratch);
      if (legal.has(boardKey(board))) return true;
    }
    return false;
  };

  /** Why no legal play extends this branch (the steps so far are each legal). */
  const diagnose = (br: Branch, stepIndex: number): RulesError => {
    const n = checker
      .startOfStage(before)
      .explore(br.board, br.remaining, stage.headAllowance, movement, headStart, true, br.used);
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
      if (isPair && maxUnits === 2) {
        return rulesError('MUST_USE_BOTH_DICE', 'both dice can be played, so both must be (MAX-1, MAX-4)', {
          stepIndex,
          rule: 'MAX-1',
        });
      }
      return rulesError('MUST_PLAY_MAXIMUM', `${maxUnits} units of this stage can be played, so they must be`, {
        stepIndex,
        rule: 'MAX-1',
      });
    }
    if (isPair && maxUnits === 1) {
      return rulesError('MUST_USE_LARGER_DIE', 'only one die can be played and the larger one can, so it must be', {
        stepIndex,
        rule: 'MAX-2',
      });
    }
    if (rules.sixBlock === 'fevgaRules') return boardError(BoardFault.FevgaPrimeTrap, stepIndex);
    return rulesError('NOT_A_LEGAL_PLAY', 'no legal play continues these steps', { stepIndex, rule: 'ALG-8' });
  };

  let branches: Branch[] = [{ board: before.slice(), remaining: stage.units.slice(), used: 0 }];
  for (let i = 0; i < steps.length; i++) {
    const { from, to } = steps[i];
    const next: Branch[] = [];
    let firstError: RulesError | null = null;
    for (const br of branches) {
      if (br.board[MOVER_OFF] === CHECKERS || br.remaining.length === 0) {
        firstError ??= rulesError('TOO_MANY_STEPS', 'the stage has no units left for this step', {
          stepIndex: i,
          rule: br.board[MOVER_OFF] === CHECKERS ? 'MAX-6' : 'COM-9',
        });
        continue;
      }
      if (to >= from) {
        firstError ??= rulesError('INVALID_STEP', 'checkers move from higher own points to lower ones', {
          stepIndex: i,
          rule: 'LN-MOVE-1',
        });
        continue;
      }
      const distance = from - to;
      const candidates = [...new Set(br.remaining)].filter((d) => d === distance || (to === OFF && d > distance));
      if (candidates.length === 0) {
        firstError ??= rulesError(
          'DIE_NOT_AVAILABLE',
          `no remaining die-unit (${br.remaining.join(', ')}) moves ${from} to ${to === OFF ? 'off' : to}`,
          { stepIndex: i, rule: 'COM-8' },
        );
        continue;
      }
      candidates.sort((a, b) => a - b); // the exact die first
      for (const die of candidates) {
        checker.startOfStage(before).load(br.board, br.remaining, stage.headAllowance, movement, headStart);
        const fault = checker.stepFault(from, die);
        if (fault !== StepFault.None) {
          firstError ??= stepError(fault, i);
          continue;
        }
        checker.applyStep(from, die);
        if (rules.sixBlockTiming === 'everyStep') {
          const bf = checker.boardFault();
          if (bf !== BoardFault.None) {
            firstError ??= boardError(bf, i);
            continue;
          }
        }
        const remaining = br.remaining.slice();
        remaining.splice(remaining.indexOf(die), 1);
        next.push({ board: checker.boardCopy(), remaining, used: br.used + 1 });
      }
    }
    if (next.length === 0) {
      return { legal: false, error: firstError ?? rulesError('NOT_A_LEGAL_PLAY', 'not a legal step', { stepIndex: i }), stage };
    }
    const prefixes = next.filter(isPrefix);
    if (prefixes.length === 0) return { legal: false, error: diagnose(next[0], i), stage };
    branches = prefixes;
  }
  for (const br of branches) {
    const gameOver = br.board[MOVER_OFF] === CHECKERS;
    if (br.used === maxUnits || gameOver) {
      const turn = legal.get(boardKey(br.board));
      if (turn) return { legal: true, complete: true, turn, stage };
    }
  }
  return { legal: true, complete: false, remainingUnits: branches[0].remaining, stage };
}

const scratch = new Int8Array(BOARD_LENGTH);

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
): Result<LongValidation, RulesError> {
  const generated = legalLongTurns(rules, state, dice, options);
  if (!generated.ok) return generated;
  // Notation lists moves, not their order (chains are written highest point
  // first): every order of every reading is tried, the written one first.
  let prefix: LongValidation | null = null;
  let failure: LongValidation | null = null;
  for (const steps of expandSegments(segments, units).flatMap(orderings)) {
    const shape = stepShapeError(steps);
    if (shape) return err(shape);
    const v = validateAgainst(rules, state, generated.value, steps);
    if (v.legal && v.complete) return ok(v);
    if (v.legal) prefix ??= v;
    else if (!failure || (v.error.stepIndex ?? -1) > ((failure as { error: RulesError }).error.stepIndex ?? -1)) failure = v;
  }
  return ok((prefix ?? failure) as LongValidation);
}
