import { Dice } from '../engine/dice';
import { RulesError, rulesError } from '../engine/errors';
import { LongRules } from '../engine/long/rules';
import { LongState, checkPlayable } from '../engine/long/turn';
import { Result, err, ok } from '../engine/result';
import { ShortPosition } from '../engine/short/position';
import { ShortRules, SHORT_STANDARD } from '../engine/short/rules';
import { checkShortPlayable } from '../engine/short/turn';
import { Step } from '../engine/step';
import { BearoffRuleSet } from './bearoff/build';
import { BearoffDatabase } from './bearoff/database';
import { CubeClass, CubeDecision, CubeOptions, CubeSituation, cubeDecision, cubeEfficiency } from './cube/decision';
import { OutcomeValues, cubelessEquity, longOutcomeValues, shortOutcomeValues } from './equity';
import { Evaluator } from './evaluator';
import { createLongEvaluator, longBearoffRuleSet } from './long/evaluator';
import { LongSearch, RankedLongTurn } from './long/search';
import { PipCounts, longPipCounts, shortPipCounts } from './pips';
import { Probabilities } from './probabilities';
import { isLongRace, isShortBearoff, isShortRace } from './race';
import { BudgetGuard, SearchBudget, SearchBudgetExceeded, SearchSettings, bestTurnSettings } from './search-options';
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
  /** Janowski's cube efficiency of the position, by its class (`cubeEfficiency`). */
  readonly efficiency: number;
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

/** The class of a backgammon board (seen from the side to move) for the cube efficiency, as gnubg classes it. */
export function shortCubeClass(board: Int8Array): CubeClass {
  return isShortBearoff(board) ? 'bearoff' : isShortRace(board) ? 'race' : 'contact';
}

/** The cube efficiency of a backgammon board seen from the side to move (its class, and its pips in a race). */
export function shortCubeEfficiency(board: Int8Array): number {
  return cubeEfficiency(shortCubeClass(board), shortPipCounts(board).mover);
}

/** The cube efficiency used for an evaluated position (options.efficiency, or the position's by its class). */
export function cubeEfficiencyOf(evaluation: PositionEvaluation, options?: CubeOptions): number {
  return options?.efficiency ?? evaluation.efficiency;
}

/**
 * The cube decision for a position already evaluated (so the service does
 * not search twice): Janowski's model with the efficiency of `cubeEfficiencyOf`.
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

/** Picks a play by its steps: the one a ranking must search at the full depth (a play made, in an analysis). */
export type KeepPlay = (steps: readonly Step[]) => boolean;

/** Analysis of the positions `P` of one family: evaluation, best plays (`T`) of a roll `D`, cube. */
export interface Analyzer<P, D, T> {
  readonly evaluator: Evaluator;
  readonly values: OutcomeValues;
  /** Before the side to move rolls. */
  evaluate(position: P, plies: number): Result<PositionEvaluation, RulesError>;
  /** As `evaluate`, within a wall-clock budget: at fewer plies (reported) when it runs out. */
  evaluateWithin(position: P, plies: number, budget?: SearchBudget): Result<PositionEvaluation, RulesError>;
  rankTurns(position: P, dice: D, settings: SearchSettings | number): Result<T[], RulesError>;
  /**
   * As `rankTurns` at `plies` with the default filters, within a wall-clock budget; the play `keep`
   * accepts (by its steps) is searched at the full depth whatever the filters say.
   */
  rankTurnsWithin(position: P, dice: D, plies: number, budget?: SearchBudget, keep?: KeepPlay): Result<RankedPlays<T>, RulesError>;
  cube(position: P, situation: CubeSituation, plies: number, options?: CubeOptions): Result<CubeDecision, RulesError>;
  /** Can this position be analysed (a game that is over, or a state the rules cannot play, cannot)? */
  playable(position: P): Result<true, RulesError>;
  /** Why the cube cannot be turned in this position (CUBE-2), if it cannot. */
  cubeError(position: P): RulesError | null;
}

/** What the analyzer needs of a family: its search and a few facts about its positions. */
interface AnalyzerFamily<P, D, T> {
  readonly evaluator: Evaluator;
  readonly values: OutcomeValues;
  readonly guard: BudgetGuard;
  playable(position: P): Result<true, RulesError>;
  search(position: P, plies: number): Probabilities;
  rank(position: P, dice: D, settings: SearchSettings, keep?: KeepPlay): Result<T[], RulesError>;
  pips(position: P): PipCounts;
  race(position: P): boolean;
  /** The class of the position for the cube efficiency. */
  cubeClass(position: P): CubeClass;
  /** Why the cube cannot be turned in this position, if it cannot. */
  cubeError(position: P): RulesError | null;
}

/** The analyzer over a family's search: ply checks, budgets and the cube written once. */
function analyzerOf<P, D, T>(family: AnalyzerFamily<P, D, T>): Analyzer<P, D, T> {
  const { evaluator, values, guard } = family;
  const describe = `${evaluator.name} ${evaluator.version}`;
  const checked = (position: P, plies: number): Result<true, RulesError> => {
    const bad = plyError(plies);
    return bad ? err(bad) : family.playable(position);
  };
  const evaluateWithin = (position: P, plies: number, budget?: SearchBudget): Result<PositionEvaluation, RulesError> => {
    const check = checked(position, plies);
    if (!check.ok) return check;
    const run = withinBudget(guard, plies, budget, (p) => family.search(position, p));
    const pips = family.pips(position);
    return ok({
      probabilities: run.value,
      equity: cubelessEquity(run.value, values),
      pips,
      race: family.race(position),
      efficiency: cubeEfficiency(family.cubeClass(position), pips.mover),
      plies: run.plies,
      evaluator: describe,
    });
  };
  const evaluate = (position: P, plies: number) => evaluateWithin(position, plies);
  return {
    evaluator,
    values,
    evaluate,
    evaluateWithin,
    playable: (position) => family.playable(position),
    cubeError: (position) => family.cubeError(position),
    rankTurnsWithin(position, dice, plies, budget, keep) {
      const check = checked(position, plies);
      if (!check.ok) return check;
      let failed: RulesError | null = null;
      const run = withinBudget(guard, plies, budget, (p) => {
        const r = family.rank(position, dice, bestTurnSettings(evaluator.family, p), keep);
        if (r.ok) return r.value;
        failed = r.error;
        return [];
      });
      if (failed) return err(failed);
      return ok({ turns: run.value, plies: run.plies });
    },
    rankTurns(position, dice, settings) {
      const check = checked(position, typeof settings === 'number' ? settings : settings.plies);
      if (!check.ok) return check;
      return family.rank(position, dice, typeof settings === 'number' ? bestTurnSettings(evaluator.family, settings) : settings);
    },
    cube(position, situation, plies, cubeOptions) {
      const refused = family.cubeError(position);
      if (refused) return err(refused);
      const e = evaluate(position, plies);
      if (!e.ok) return e;
      return ok(cubeDecisionOf(e.value, situation, values, cubeOptions));
    },
  };
}

/** Analysis of backgammon (short nardy) positions: evaluation, best turns (of the dice, which every turn needs), cube. */
export type ShortAnalyzer = Analyzer<ShortPosition, Dice | undefined, RankedShortTurn>;

const missingDice = (): RulesError => rulesError('INVALID_DICE', 'dice are required (or a matchId that carries them)', { field: 'dice' });

/**
 * Creates the backgammon analyzer: the default evaluator (race + linear
 * contact heuristic, standard bear-off database) unless one is injected.
 */
export function createShortAnalyzer(rules: Readonly<ShortRules> = SHORT_STANDARD, options: AnalyzerOptions = {}): ShortAnalyzer {
  const evaluator = options.evaluator ?? createShortEvaluator({ database: () => needSource(options)('standard'), scoring: rules.scoring });
  const values = shortOutcomeValues(rules);
  const search = new ShortSearch(evaluator, values, options.transpositions);
  return analyzerOf<ShortPosition, Dice | undefined, RankedShortTurn>({
    evaluator,
    values,
    guard: search.guard,
    playable: checkShortPlayable,
    search: (position, plies) => search.evaluate(position.board, plies),
    rank: (position, dice, settings, keep) => (dice ? ok(search.rankTurns(position.board, dice, settings, keep)) : err(missingDice())),
    pips: (position) => shortPipCounts(position.board),
    race: (position) => isShortRace(position.board),
    cubeClass: (position) => shortCubeClass(position.board),
    cubeError: () => null,
  });
}

/** Analysis of long-family positions (any preset): evaluation, best plays, cube (LN-SCORE-5). */
export interface LongAnalyzer extends Analyzer<LongState, Dice | undefined, RankedLongTurn> {
  readonly rules: Readonly<LongRules>;
}

/**
 * Creates the analyzer of a long-family rules object. Pending cascade /
 * debt stages are resolved as the search does; `rankTurns` ranks the plays
 * of the current stage (with `dice` when it is a roll).
 */
export function createLongAnalyzer(rules: Readonly<LongRules>, options: AnalyzerOptions = {}): LongAnalyzer {
  const evaluator =
    options.evaluator ?? createLongEvaluator({ rules, database: () => needSource(options)(longBearoffRuleSet(rules)) });
  const values = longOutcomeValues(rules);
  const search = new LongSearch(rules, evaluator, values, options.transpositions);
  const analyzer = analyzerOf<LongState, Dice | undefined, RankedLongTurn>({
    evaluator,
    values,
    guard: search.guard,
    playable: (state) => checkPlayable(state),
    search: (state, plies) => search.evaluateState(state, plies),
    rank: (state, dice, settings, keep) => search.rankTurns(state, dice, settings, keep),
    pips: (state) => longPipCounts(state.position.board),
    race: (state) => isLongRace(state.position.board),
    // The backgammon classes without the bear-off one (no long-nardy cube data to tell it apart).
    cubeClass: (state) => (isLongRace(state.position.board) ? 'race' : 'contact'),
    cubeError: (state) =>
      state.pending.length > 0
        ? rulesError('STAGE_MISMATCH', 'the cube is turned only before a roll, with no stage pending (CUBE-2)', { field: 'position.pending' })
        : null,
  });
  return { rules, ...analyzer };
}
