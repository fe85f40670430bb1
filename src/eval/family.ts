import { Dice } from '../engine/dice';
import { AnyBound, Bound, FamilyName } from '../engine/family';
import { LongRules } from '../engine/long/rules';
import { LongState } from '../engine/long/turn';
import { ShortPosition } from '../engine/short/position';
import { ShortRules } from '../engine/short/rules';
import { Step } from '../engine/step';
import { Analyzer, AnalyzerOptions, createLongAnalyzer, createShortAnalyzer } from './analysis';
import { Evaluator } from './evaluator';
import { RolloutStart } from './neural/rollout';
import { Probabilities } from './probabilities';
import { ANALYSIS_LIMITS } from '../limits';

/** A ranked play as every family's search reports it. */
export interface RankedTurn {
  readonly steps: readonly Step[];
  /** For the side that plays it, after it. */
  readonly probabilities: Probabilities;
  readonly equity: number;
  readonly equityDiff: number;
  readonly plies: number;
}

/** The analyzer of one family's states `S`, its plays ranked for the dice of a roll (or the units of a pending stage). */
export type FamilyAnalyzer<S> = Analyzer<S, Dice | undefined, RankedTurn>;

/**
 * The evaluators of each family, as an evaluator set (the service's
 * `EvaluatorSet`) provides them: `preset` is the variant's name (a long-family
 * preset may have its own network).
 */
export interface FamilyEvaluators {
  short(rules: Readonly<ShortRules>): Evaluator;
  long(rules: Readonly<LongRules>, preset: string): Evaluator;
}

/**
 * The evaluation side of a game family, over its rules `R` and states `S`
 * (the engine's `GameFamily` is the rules side): its evaluator in a set,
 * its analyzer and where its rollouts start. Reached from a binding with
 * `withEvalFamily`, the one place the evaluation picks a family.
 */
export interface EvalFamily<R, S> {
  readonly name: FamilyName;
  /** The family's evaluator of these rules in `set`. */
  evaluatorOf(set: FamilyEvaluators, rules: R, preset: string): Evaluator;
  /** The family's analyzer (the default evaluator unless `options` inject one). */
  createAnalyzer(rules: R, options: AnalyzerOptions): FamilyAnalyzer<S>;
  /** A rollout of `state` before (or during) the turn of its side to act. */
  rolloutStart(rules: R, state: S): RolloutStart;
  /** The plies of a best-turn request that names none (`POST /v1/moves/best`). */
  bestTurnPlies(rules: R): number;
}

export const longEvalFamily: EvalFamily<LongRules, LongState> = {
  name: 'long',
  evaluatorOf: (set, rules, preset) => set.long(rules, preset),
  createAnalyzer: (rules, options) => createLongAnalyzer(rules, options),
  rolloutStart: (rules, state) => ({ family: 'long', rules, state }),
  // Cascading doubles (CR-1, CG-1, FG-1, §3.10) make a 1-ply search expand
  // every stage of every double reply: hundreds of milliseconds a turn and
  // seconds at the tail, so those presets keep the static evaluator.
  bestTurnPlies: (rules) => (rules.doubles === 'cascade' ? 0 : ANALYSIS_LIMITS.defaultBestPlies),
};

export const shortEvalFamily: EvalFamily<ShortRules, ShortPosition> = {
  name: 'short',
  evaluatorOf: (set, rules) => set.short(rules),
  createAnalyzer: (rules, options) => createShortAnalyzer(rules, options),
  rolloutStart: (_rules, position) => ({ family: 'short', board: position.board }),
  bestTurnPlies: () => ANALYSIS_LIMITS.backgammonBestPlies,
};

/** Calls `f` with the binding and its family's evaluation side, at the family's own types (exhaustive over families). */
export function withEvalFamily<T>(bound: AnyBound, f: <R, S>(bound: Bound<R, S>, family: EvalFamily<R, S>) => T): T {
  switch (bound.kind) {
    case 'long':
      return f(bound, longEvalFamily);
    case 'short':
      return f(bound, shortEvalFamily);
  }
}
