import { FaultText, RuleErrorCode, RulesError, faultError } from './errors';

/**
 * Why a single step is illegal, in either family; 0 means legal. Numeric for
 * the hot path. Checked in the order of ALG-1: own checker, bar first,
 * landing point, head, bear-off.
 */
export const enum StepFault {
  None = 0,
  /** The source holds no checker of the mover. */
  NoChecker = 1,
  /** SH-BAR-1: a checker on the bar must enter before any other moves. */
  MustEnterFromBar = 2,
  /** LN-MOVE-2 / SH-MOVE-1: the landing point is held by the opponent. */
  Blocked = 3,
  /** LN-HEAD-1: no further checker may leave the head this turn. */
  Head = 4,
  /** LN-OFF-1 / SH-OFF-1: not every checker is home (the bar counts as outside). */
  BearOffNotAllHome = 5,
  /** LN-OFF-3: an oversized die bears off only from the highest occupied point. */
  BearOffHigherChecker = 6,
  /** CR-4: this variant bears off only with the exact die. */
  BearOffExactOnly = 7,
  /** CR-4: no moves inside the home once every checker is home. */
  HomeMoveForbidden = 8,
  /** FV-2: the first runner must pass the opponent head before a second leaves the head. */
  FevgaRunner = 9,
}

/** What a family answers for each step fault it can raise. */
export type StepFaultTable<F extends StepFault> = Readonly<Record<F, FaultText>>;

/** The error of `fault` at step `stepIndex`, from the family's table. */
export function stepFaultError<F extends StepFault>(table: StepFaultTable<F>, fault: F, stepIndex: number): RulesError {
  return faultError(table[fault], stepIndex);
}

/** A family's rule ID and message for one fault. */
type FamilyText = readonly [rule: string, message: string];

/**
 * Every step fault as one row: [fault, code, in long nardy, in short nardy];
 * null where the family never raises it.
 */
const STEP_FAULT_TEXTS: readonly (readonly [StepFault, RuleErrorCode, FamilyText | null, FamilyText | null])[] = [
  [StepFault.None, 'NOT_A_LEGAL_PLAY', ['ALG-1', 'not a legal step'], ['ALG-1', 'not a legal step']],
  [StepFault.NoChecker, 'NO_CHECKER', ['LN-MOVE-1', 'there is no checker of the mover on that point'], ['ALG-1', 'there is no checker of the mover on that point']],
  [StepFault.MustEnterFromBar, 'MUST_ENTER_FROM_BAR', null, ['SH-BAR-1', 'a checker on the bar must enter before any other checker moves']],
  [StepFault.Blocked, 'BLOCKED_POINT', ['LN-MOVE-2', 'the landing point holds opponent checkers'], ['SH-MOVE-1', 'the landing point is held by two or more opponent checkers']],
  [StepFault.Head, 'HEAD_RULE', ['LN-HEAD-1', 'no further checker may leave the head in this turn'], null],
  [
    StepFault.BearOffNotAllHome,
    'BEAR_OFF_NOT_ALL_HOME',
    ['LN-OFF-1', 'bearing off needs every checker in the home (own points 1..6)'],
    ['SH-OFF-1', 'bearing off needs every checker in the home (own points 1..6), none on the bar'],
  ],
  [
    StepFault.BearOffHigherChecker,
    'BEAR_OFF_HIGHER_CHECKER',
    ['LN-OFF-3', 'a die larger than the point bears off only from the highest occupied point'],
    ['LN-OFF-3', 'a die larger than the point bears off only from the highest occupied point (SH-OFF-1)'],
  ],
  [StepFault.BearOffExactOnly, 'BEAR_OFF_EXACT_ONLY', ['CR-4', 'this variant bears off only with the exact die'], null],
  [StepFault.HomeMoveForbidden, 'HOME_MOVE_FORBIDDEN', ['CR-4', 'moves inside the home are forbidden in this variant once every checker is home'], null],
  [StepFault.FevgaRunner, 'FEVGA_RUNNER', ['FV-2', 'until the first runner has passed the opponent head, no second checker may leave the head'], null],
];

/** The table of one family: the faults it raises, each with its code, rule and message. */
export function stepFaultTable<F extends StepFault>(family: 'long' | 'short'): StepFaultTable<F> {
  const table = {} as Record<F, FaultText>;
  for (const [fault, code, long, short] of STEP_FAULT_TEXTS) {
    const text = family === 'long' ? long : short;
    if (text !== null) table[fault as F] = { code, rule: text[0], message: text[1] };
  }
  return table;
}
