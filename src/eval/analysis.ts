import { Dice } from '../engine/dice';
import { RulesError, rulesError } from '../engine/errors';
import { LongRules } from '../engine/long/rules';
import { LongState, checkPlayable } from '../engine/long/turn';
import { Result, err, ok } from '../engine/result';
import { ShortPosition } from '../engine/short/position';
import { ShortRules, SHORT_STANDARD } from '../engine/short/rules';
import { checkShortPlayable } from '../engine/short/turn';
import { BearoffRuleSet } from './bearoff/build';
import { BearoffDatabase } from './bearoff/database';
import { CubeDecision, CubeOptions, CubeSituation, DEFAULT_CUBE_EFFICIENCY, cubeDecision, raceCubeEfficiency } from './cube/decision';
import { OutcomeValues, cubelessEquity, longOutcomeValues, shortOutcomeValues } from './equity';
import { Evaluator } from './evaluator';
import { createLongEvaluator, longBearoffRuleSet } from './long/evaluator';
import { LongSearch, RankedLongTurn } from './long/search';
import { PipCounts, longPipCounts, shortPipCounts } from './pips';
import { Probabilities } from './probabilities';
import { isLongRace, isShortRace } from './race';
import { BudgetGuard, SearchBudget, SearchBudgetExceeded, SearchSettings, searchSettings } from './search-options';
import { createShortEvaluator } from './short/evaluator';
import { RankedShortTurn, ShortSearch } from './short/search';
import { TranspositionTable } from './transpositions';

/** Where an analyzer gets a bear-off database from (called lazily, at most once per rule set). */
export type BearoffSource = (ruleSet: BearoffRuleSet) => BearoffDatabase;

/** The evaluation of a position before the side to move rolls. */
export interface PositionEvaluation {
  /** For the side to move. */
  readonly probabilities: Probabilities;
  /** Cubeless equity for the side to move (points per unit stake, the rules' outcome values). */
  readonly equity: number;
  readonly pips: PipCounts;
  /** Whether the position is a race (no contact left). */
  readonly race: boolean;
  readonly plies: number;
  /** `name version` of the evaluator, for cache keys. */
  readonly evaluator: string;
}

/** Ranked plays and the plies they were searched at (fewer than asked when the budget ran out). */
export interface RankedPlays<T> {
  readonly turns: T[];
  readonly plies: number;
}

/**
 * Runs `work` at `plies` under `budget`; when the budget runs out, again at
 * one ply less, down to 0 ply, which always runs to the end (its cost is
 * bounded by the legal plays). Returns the result and the plies used.
 */
function withinBudget<T>(guard: BudgetGuard, plies: number, budget: SearchBudget | undefined, work: (plies: number) => T): { value: T; plies: number } {
  for (let p = plies; p > 0; p--) {
    guard.set(budget ?? null);
    try {
      return { value: work(p), plies: p };
    } catch (e) {
      if (!(e instanceof SearchBudgetExceeded)) throw e;
    } finally {
      guard.set(null);
    }
  }
  return { value: work(0), plies: 0 };
}

/** Options shared by the analyzers. */
export interface AnalyzerOptions {
  /** Bear-off databases (needed by the default evaluators; not by an injected one). */
  readonly bearoff?: BearoffSource;
  /** An evaluator to use instead of the default (e.g. `createFakeEvaluator` in tests). */
  readonly evaluator?: Evaluator;
  /**
   * Storage for the searches' transposition caches, shared by the analyzers
   * of one thread (searches run one at a time); each search has its own if
   * none is given.
   */
  readonly transpositions?: TranspositionTable;
}

function plyError(plies: number): RulesError | null {
  if (Number.isInteger(plies) && plies >= 0 && plies <= 2) return null;
  return rulesError('INVALID_REQUEST', 'plies must be 0, 1 or 2', { field: 'plies' });
}

function needSource(options: AnalyzerOptions): BearoffSource {
  if (!options.bearoff) throw new Error('a bear-off database source is required for the default evaluators');
  return options.bearoff;
}

function efficiencyOf(race: boolean, pips: PipCounts, options?: CubeOptions): number {
  if (options?.efficiency !== undefined) return options.efficiency;
  return race ? raceCubeEfficiency(pips.mover, pips.opponent) : DEFAULT_CUBE_EFFICIENCY;
}

/** The cube efficiency used for an evaluated position (options.efficiency, or by race length / contact). */
export function cubeEfficiencyOf(evaluation: PositionEvaluation, options?: CubeOptions): number {
  return efficiencyOf(evaluation.race, evaluation.pips, options);
}

/**
 * The cube decision for a position already evaluated (so the service does
 * not search twice): Janowski's model with the efficiency of `efficiencyOf`.
 */
export function cubeDecisionOf(
  evaluation: PositionEvaluation,
  situation: CubeSituation,
  values: OutcomeValues,
  options?: CubeOptions,
): CubeDecision {
  const efficiency = cubeEfficiencyOf(evaluation, options);
  return cubeDecision(evaluation.probabilities, situation, { ...options, efficiency, values: options?.values ?? values });
}

/** Analysis of backgammon (short nardy) positions: evaluation, best turns, cube. */
export interface ShortAnalyzer {
  readonly evaluator: Evaluator;
  readonly values: OutcomeValues;
  evaluate(position: ShortPosition, plies: number): Result<PositionEvaluation, RulesError>;
  /** As `evaluate`, within a wall-clock budget: at fewer plies (reported) when it runs out. */
  evaluateWithin(position: ShortPosition, plies: number, budget?: SearchBudget): Result<PositionEvaluation, RulesError>;
  rankTurns(position: ShortPosition, dice: Dice, settings: SearchSettings | number): Result<RankedShortTurn[], RulesError>;
  /** As `rankTurns` at `plies` with the default filters, within a wall-clock budget. */
  rankTurnsWithin(position: ShortPosition, dice: Dice, plies: number, budget?: SearchBudget): Result<RankedPlays<RankedShortTurn>, RulesError>;
  cube(position: ShortPosition, situation: CubeSituation, plies: number, options?: CubeOptions): Result<CubeDecision, RulesError>;
}

/**
 * Creates the backgammon analyzer: the default evaluator (race + linear
 * contact heuristic, standard bear-off database) unless one is injected.
 */
export function createShortAnalyzer(rules: Readonly<ShortRules> = SHORT_STANDARD, options: AnalyzerOptions = {}): ShortAnalyzer {
  const evaluator = options.evaluator ?? createShortEvaluator({ database: () => needSource(options)('standard'), scoring: rules.scoring });
  const values = shortOutcomeValues(rules);
  const search = new ShortSearch(evaluator, values, options.transpositions);
  const describe = `${evaluator.name} ${evaluator.version}`;
  const evaluateWithin = (position: ShortPosition, plies: number, budget?: SearchBudget): Result<PositionEvaluation, RulesError> => {
    const bad = plyError(plies);
    if (bad) return err(bad);
    const playable = checkShortPlayable(position);
    if (!playable.ok) return playable;
    const run = withinBudget(search.guard, plies, budget, (p) => search.evaluate(position.board, p));
    return ok({
      probabilities: run.value,
      equity: cubelessEquity(run.value, values),
      pips: shortPipCounts(position.board),
      race: isShortRace(position.board),
      plies: run.plies,
      evaluator: describe,
    });
  };
  const evaluate = (position: ShortPosition, plies: number) => evaluateWithin(position, plies);
  return {
    evaluator,
    values,
    evaluate,
    evaluateWithin,
    rankTurnsWithin(position, dice, plies, budget) {
      const bad = plyError(plies);
      if (bad) return err(bad);
      const playable = checkShortPlayable(position);
      if (!playable.ok) return playable;
      const run = withinBudget(search.guard, plies, budget, (p) => search.rankTurns(position.board, dice, searchSettings(p)));
      return ok({ turns: run.value, plies: run.plies });
    },
    rankTurns(position, dice, settings) {
      const s = typeof settings === 'number' ? settings : settings.plies;
      const bad = plyError(s);
      if (bad) return err(bad);
      const playable = checkShortPlayable(position);
      if (!playable.ok) return playable;
      return ok(search.rankTurns(position.board, dice, typeof settings === 'number' ? searchSettings(settings) : settings));
    },
    cube(position, situation, plies, cubeOptions) {
      const e = evaluate(position, plies);
      if (!e.ok) return e;
      const efficiency = efficiencyOf(e.value.race, e.value.pips, cubeOptions);
      return ok(cubeDecision(e.value.probabilities, situation, { ...cubeOptions, efficiency, values: cubeOptions?.values ?? values }));
    },
  };
}

/** Analysis of long-family positions (any preset): evaluation, best plays, cube (LN-SCORE-5). */
export interface LongAnalyzer {
  readonly rules: Readonly<LongRules>;
  readonly evaluator: Evaluator;
  readonly values: OutcomeValues;
  /** Before the side to move rolls; pending cascade / debt stages are resolved as the search does. */
  evaluate(state: LongState, plies: number): Result<PositionEvaluation, RulesError>;
  /** As `evaluate`, within a wall-clock budget: at fewer plies (reported) when it runs out. */
  evaluateWithin(state: LongState, plies: number, budget?: SearchBudget): Result<PositionEvaluation, RulesError>;
  /** The plays of the current stage (with `dice` when it is a roll), ranked. */
  rankTurns(state: LongState, dice: Dice | undefined, settings: SearchSettings | number): Result<RankedLongTurn[], RulesError>;
  /** As `rankTurns` at `plies` with the default filters, within a wall-clock budget. */
  rankTurnsWithin(state: LongState, dice: Dice | undefined, plies: number, budget?: SearchBudget): Result<RankedPlays<RankedLongTurn>, RulesError>;
  cube(state: LongState, situation: CubeSituation, plies: number, options?: CubeOptions): Result<CubeDecision, RulesError>;
}

/** Creates the analyzer of a long-family rules object. */
export function createLongAnalyzer(rules: Readonly<LongRules>, options: AnalyzerOptions = {}): LongAnalyzer {
  const evaluator =
    options.evaluator ?? createLongEvaluator({ rules, database: () => needSource(options)(longBearoffRuleSet(rules)) });
  const values = longOutcomeValues(rules);
  const search = new LongSearch(rules, evaluator, values, options.transpositions);
  const describe = `${evaluator.name} ${evaluator.version}`;
  const evaluateWithin = (state: LongState, plies: number, budget?: SearchBudget): Result<PositionEvaluation, RulesError> => {
    const bad = plyError(plies);
    if (bad) return err(bad);
    const playable = checkPlayable(state);
    if (!playable.ok) return playable;
    const run = withinBudget(search.guard, plies, budget, (p) => search.evaluateState(state, p));
    return ok({
      probabilities: run.value,
      equity: cubelessEquity(run.value, values),
      pips: longPipCounts(state.position.board),
      race: isLongRace(state.position.board),
      plies: run.plies,
      evaluator: describe,
    });
  };
  const evaluate = (state: LongState, plies: number) => evaluateWithin(state, plies);
  return {
    rules,
    evaluator,
    values,
    evaluate,
    evaluateWithin,
    rankTurnsWithin(state, dice, plies, budget) {
      const bad = plyError(plies);
      if (bad) return err(bad);
      let failed: RulesError | null = null;
      const run = withinBudget(search.guard, plies, budget, (p) => {
        const r = search.rankTurns(state, dice, searchSettings(p));
        if (!r.ok) {
          failed = r.error;
          return [];
        }
        return r.value;
      });
      if (failed) return err(failed);
      return ok({ turns: run.value, plies: run.plies });
    },
    rankTurns(state, dice, settings) {
      const s = typeof settings === 'number' ? settings : settings.plies;
      const bad = plyError(s);
      if (bad) return err(bad);
      return search.rankTurns(state, dice, typeof settings === 'number' ? searchSettings(settings) : settings);
    },
    cube(state, situation, plies, cubeOptions) {
      if (state.pending.length > 0) {
        return err(rulesError('STAGE_MISMATCH', 'the cube is turned only before a roll, with no stage pending (CUBE-2)', { field: 'position.pending' }));
      }
      const e = evaluate(state, plies);
      if (!e.ok) return e;
      const efficiency = efficiencyOf(e.value.race, e.value.pips, cubeOptions);
      return ok(cubeDecision(e.value.probabilities, situation, { ...cubeOptions, efficiency, values: cubeOptions?.values ?? values }));
    },
  };
}
