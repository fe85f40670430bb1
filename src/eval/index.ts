/**
 * Position evaluation for the nardy family (pure: no I/O). docs/evaluation.md
 * describes the models; docs/strength.md their measured strength.
 *
 * - probabilities, outcome values and cubeless equity;
 * - the `Evaluator` interface, the long and short evaluators, a fake one for tests;
 * - pip counts, one-sided bear-off databases and exact / effective-pip races;
 * - n-ply search with move filtering and best-turn ranking for both families;
 * - cube decisions for money (Janowski) and match play (gnubg's default MET, Kazaross-XG2);
 * - analyzers bundling all of it for the service layer.
 */
export * from './probabilities';
export * from './equity';
export * from './evaluator';
export * from './pips';
export * from './search-options';
export { BEAROFF_RULE_SETS, MAX_ROLLS, buildBearoffTables } from './bearoff/build';
export type { BearoffRuleSet, BearoffTables } from './bearoff/build';
export { BearoffDatabase, encodeBearoffTables, loadBearoffDatabase } from './bearoff/database';
export { BEAROFF_POSITIONS, rankHome, unrankHome } from './bearoff/ranking';
export type { RaceEvaluator, RaceEvaluatorOptions, RaceModel, TripleMeasure } from './race';
export { DEFAULT_RACE_MODEL, createRaceEvaluator, effectivePips, isLongRace, isShortRace } from './race';
export type { ShortEvaluator, ShortEvaluatorOptions } from './short/evaluator';
export { createShortEvaluator } from './short/evaluator';
export type { LongEvaluator, LongEvaluatorOptions } from './long/evaluator';
export { createLongEvaluator, longBearoffRuleSet } from './long/evaluator';
export type { RankedShortTurn } from './short/search';
export { ShortSearch } from './short/search';
export type { RankedLongTurn } from './long/search';
export { LongSearch } from './long/search';
export { TranspositionCache, TranspositionTable } from './transpositions';
export type { FakeEvaluator, FakeEvaluatorOptions } from './fake';
export { createFakeEvaluator } from './fake';
export type { CubeAction, CubeDecision, CubeOptions, CubeOwner, CubeResponse, CubeSituation, MatchCube, MoneyCube } from './cube/decision';
export { BEAROFF_CUBE_EFFICIENCY, DEFAULT_CUBE_EFFICIENCY, cubeDecision, cubeEfficiency, moneyCubefulEquity, raceCubeEfficiency } from './cube/decision';
export type { CubeClass } from './cube/decision';
export type { GameKind, MatchEquityTable, MetModel } from './cube/met';
export {
  DEFAULT_MET_MODEL,
  computeMatchEquityTable,
  computedMatchEquityTable,
  defaultMatchEquityTable,
  kazarossXg2MatchEquityTable,
  tabulatedMatchEquityTable,
} from './cube/met';
export type { AnalyzerOptions, BearoffSource, LongAnalyzer, PositionEvaluation, RankedPlays, ShortAnalyzer } from './analysis';
export { createLongAnalyzer, createShortAnalyzer, cubeDecisionOf, cubeEfficiencyOf } from './analysis';
