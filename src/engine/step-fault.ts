import { FaultText, RuleErrorCode, RulesError, faultError } from './errors';
import type { FamilyName } from './family/types';

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
 * Every step fault as one row: its code and, per family, the rule and
 * message it answers with; null where the family never raises it.
 */
const STEP_FAULT_TEXTS: readonly { readonly fault: StepFault; readonly code: RuleErrorCode; readonly texts: Readonly<Record<FamilyName, FamilyText | null>> }[] = [
  { fault: StepFault.None, code: 'NOT_A_LEGAL_PLAY', texts: { long: ['ALG-1', 'not a legal step'], short: ['ALG-1', 'not a legal step'] } },
  {
    fault: StepFault.NoChecker,
    code: 'NO_CHECKER',
    texts: { long: ['LN-MOVE-1', 'there is no checker of the mover on that point'], short: ['ALG-1', 'there is no checker of the mover on that point'] },
  },
  {
    fault: StepFault.MustEnterFromBar,
    code: 'MUST_ENTER_FROM_BAR',
    texts: { long: null, short: ['SH-BAR-1', 'a checker on the bar must enter before any other checker moves'] },
  },
  {
    fault: StepFault.Blocked,
    code: 'BLOCKED_POINT',
    texts: { long: ['LN-MOVE-2', 'the landing point holds opponent checkers'], short: ['SH-MOVE-1', 'the landing point is held by two or more opponent checkers'] },
  },
  { fault: StepFault.Head, code: 'HEAD_RULE', texts: { long: ['LN-HEAD-1', 'no further checker may leave the head in this turn'], short: null } },
  {
    fault: StepFault.BearOffNotAllHome,
    code: 'BEAR_OFF_NOT_ALL_HOME',
    texts: {
      long: ['LN-OFF-1', 'bearing off needs every checker in the home (own points 1..6)'],
      short: ['SH-OFF-1', 'bearing off needs every checker in the home (own points 1..6), none on the bar'],
    },
  },
  {
    fault: StepFault.BearOffHigherChecker,
    code: 'BEAR_OFF_HIGHER_CHECKER',
    texts: {
      long: ['LN-OFF-3', 'a die larger than the point bears off only from the highest occupied point'],
      short: ['LN-OFF-3', 'a die larger than the point bears off only from the highest occupied point (SH-OFF-1)'],
    },
  },
  { fault: StepFault.BearOffExactOnly, code: 'BEAR_OFF_EXACT_ONLY', texts: { long: ['CR-4', 'this variant bears off only with the exact die'], short: null } },
  {
    fault: StepFault.HomeMoveForbidden,
    code: 'HOME_MOVE_FORBIDDEN',
    texts: { long: ['CR-4', 'moves inside the home are forbidden in this variant once every checker is home'], short: null },
  },
  {
    fault: StepFault.FevgaRunner,
    code: 'FEVGA_RUNNER',
    texts: { long: ['FV-2', 'until the first runner has passed the opponent head, no second checker may leave the head'], short: null },
  },
];

/** The table of one family: the faults it raises, each with its code, rule and message. */
export function stepFaultTable<F extends StepFault>(family: FamilyName): StepFaultTable<F> {
  const table = {} as Record<F, FaultText>;
  for (const { fault, code, texts } of STEP_FAULT_TEXTS) {
    const text = texts[family];
    if (text !== null) table[fault as F] = { code, rule: text[0], message: text[1] };
  }
  return table;
}
