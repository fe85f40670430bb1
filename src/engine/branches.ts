import { RulesError, rulesError } from './errors';
import { BAR, OFF, Step } from './step';

/** One way to read the steps so far: the board after them and the units left. */
export interface Branch<B> {
  readonly board: B;
  readonly remaining: readonly number[];
  readonly used: number;
}

/**
 * What a family tells ALG-8 about its steps: the rules it cites, when a
 * board is won, how one step moves a branch, and whether some legal play
 * extends a branch (else why not).
 */
export interface BranchRules<B> {
  /** What the units belong to, for messages: a long stage (COM-9) or a short roll (COM-7). */
  readonly unitsOf: 'stage' | 'roll';
  readonly unitsRule: string;
  /** The rule that checkers move from higher own points to lower ones (LN-MOVE-1, SH-MOVE-1). */
  readonly directionRule: string;
  isWon(board: B): boolean;
  /** The branch after moving `from` with `die`, or the rule the step breaks. */
  stepWith(br: Branch<B>, from: number, die: number, stepIndex: number): Branch<B> | RulesError;
  /** Does some legal play extend this branch? */
  isPrefix(br: Branch<B>): boolean;
  /** Why no legal play extends this branch (each of its steps is legal on its own). */
  diagnose(br: Branch<B>, stepIndex: number): RulesError;
}

/**
 * ALG-8: follows `steps` from `start` branch by branch (a step may use any
 * remaining die that makes it), each branch kept only while some legal play
 * extends it. Returns the branches after the last step, or the first error.
 */
export function followSteps<B>(
  start: Branch<B>,
  steps: readonly Step[],
  rules: BranchRules<B>,
): { readonly branches: Branch<B>[] } | { readonly error: RulesError } {
  let branches: Branch<B>[] = [start];
  for (let i = 0; i < steps.length; i++) {
    const { next, error } = advance(branches, steps[i], i, rules);
    if (next.length === 0) {
      return { error: error ?? rulesError('NOT_A_LEGAL_PLAY', 'not a legal step', { stepIndex: i }) };
    }
    const prefixes = next.filter((br) => rules.isPrefix(br));
    if (prefixes.length === 0) return { error: rules.diagnose(next[0], i) };
    branches = prefixes;
  }
  return { branches };
}

/**
 * ALG-8 for a whole play, without asking at every step whether some legal
 * play extends the steps so far: steps each legal on their own that end on
 * the result of a legal play (`isLegalPlay`) are legal at every step, since
 * the steps after each prefix extend it to that play. Returns the first
 * branch after the last step that `isLegalPlay` accepts, or null when none
 * does (`followSteps` then says what the steps are: a prefix, or where they
 * break a rule).
 */
export function followWholePlay<B>(
  start: Branch<B>,
  steps: readonly Step[],
  rules: BranchRules<B>,
  isLegalPlay: (br: Branch<B>) => boolean,
): Branch<B> | null {
  let branches: Branch<B>[] = [start];
  for (let i = 0; i < steps.length; i++) {
    branches = advance(branches, steps[i], i, rules).next;
    if (branches.length === 0) return null;
  }
  return branches.find(isLegalPlay) ?? null;
}

/** Every branch after step `i` with each die that can make it, and the first error met. */
function advance<B>(
  branches: readonly Branch<B>[],
  step: Step,
  i: number,
  rules: BranchRules<B>,
): { next: Branch<B>[]; error: RulesError | null } {
  const { from, to } = step;
  const next: Branch<B>[] = [];
  let error: RulesError | null = null;
  for (const br of branches) {
    const won = rules.isWon(br.board);
    if (won || br.remaining.length === 0) {
      error ??= rulesError('TOO_MANY_STEPS', `the ${rules.unitsOf} has no units left for this step`, {
        stepIndex: i,
        rule: won ? 'MAX-6' : rules.unitsRule,
      });
      continue;
    }
    if (to >= from) {
      error ??= rulesError('INVALID_STEP', 'checkers move from higher own points to lower ones', {
        stepIndex: i,
        rule: rules.directionRule,
      });
      continue;
    }
    const distance = from - to;
    const candidates: number[] = [];
    for (const d of br.remaining) if ((d === distance || (to === OFF && d > distance)) && !candidates.includes(d)) candidates.push(d);
    if (candidates.length === 0) {
      error ??= rulesError(
        'DIE_NOT_AVAILABLE',
        `no remaining die-unit (${br.remaining.join(', ')}) moves ${from === BAR ? 'bar' : from} to ${to === OFF ? 'off' : to}`,
        { stepIndex: i, rule: 'COM-8' },
      );
      continue;
    }
    if (candidates.length > 1) candidates.sort((a, b) => a - b); // the exact die first
    for (const die of candidates) {
      const moved = rules.stepWith(br, from, die, i);
      if ('code' in moved) error ??= moved;
      else next.push(moved);
    }
  }
  return { next, error };
}

/** `remaining` without one unit of `die`. */
export function withoutUnit(remaining: readonly number[], die: number): number[] {
  const rest = remaining.slice();
  rest.splice(rest.indexOf(die), 1);
  return rest;
}

/** Of two failed readings, the one that got further (the later step at fault); `a` on a tie. */
export function furtherFailure<V extends { readonly error: RulesError }>(a: V | null, b: V): V {
  return !a || (b.error.stepIndex ?? -1) > (a.error.stepIndex ?? -1) ? b : a;
}
