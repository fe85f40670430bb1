import { Family } from '../../eval/evaluator';

/**
 * The cost model of analysis: what a request will cost, in network
 * evaluations, before it runs. It prices the per-request cap
 * (ANALYSIS_MAX_COST → 422 ANALYSIS_TOO_COSTLY), the per-client budget of
 * the rate limiter (ANALYSIS_RATE_BUDGET → 429), the GraphQL complexity of
 * analysis fields, and the choice between the request thread and the
 * worker pool (ANALYSIS_INLINE_COST).
 *
 * The figures are means measured with the trained networks on positions of
 * seeded self-play games (`npx tsx bench/cost-model.ts`, docs/operations.md
 * "Cost model"); the search's own structure does the rest: a move list
 * costs one evaluation per legal turn plus a deeper evaluation of each turn
 * the root filter keeps.
 */
export type AnalysisOperation = 'evaluate' | 'best' | 'rollout' | 'batch';

interface FamilyCosts {
  /** Evaluations of one position evaluation at 0, 1 and 2 plies. */
  readonly evaluate: readonly [number, number, number];
  /** Evaluations of one rollout trial played to the end at 0 ply. */
  readonly trial: number;
  /** Plays of one trial played to the end. */
  readonly plays: number;
}

const COSTS: Record<Family, FamilyCosts> = {
  short: { evaluate: [1, 470, 5_306], trial: 641, plays: 41 },
  long: { evaluate: [1, 183, 5_053], trial: 717, plays: 67 },
};

/** Luck adjustment evaluates the 21 rolls of every roll of a trial as well. */
const LUCK_FACTOR = 22;

/**
 * A rollout stops at its time budget; past it, its price is the budget at
 * this many evaluations per millisecond (about one worker's pace with the
 * networks, move generation included).
 */
export const ROLLOUT_EVALUATIONS_PER_MS = 25;

/** One position evaluated at `plies`. */
export function evaluateCost(family: Family, plies: number): number {
  return COSTS[family].evaluate[plies] ?? COSTS[family].evaluate[2];
}

/** A ranked move list: every legal turn at 0 ply, then the `keep` best again at `plies`. */
export function moveListCost(family: Family, turns: number, plies: number, keep: number): number {
  const n = Math.max(1, turns);
  return plies === 0 || n === 1 ? n : n + Math.min(n, keep) * evaluateCost(family, plies);
}

export interface RolloutShape {
  readonly trials: number;
  /** Positions rolled out: 1, or every legal turn of the roll. */
  readonly starts: number;
  readonly truncateAfter: number | null;
  readonly luckAdjust: boolean;
  readonly timeBudgetMs: number;
}

/** Trials × evaluations per trial (fewer when truncated), capped by the time budget. */
export function rolloutCost(family: Family, shape: RolloutShape): number {
  const c = COSTS[family];
  const perTrial = (c.trial * Math.min(1, (shape.truncateAfter ?? c.plays) / c.plays) + 1) * (shape.luckAdjust ? LUCK_FACTOR : 1);
  const byTrials = shape.trials * Math.max(1, shape.starts) * perTrial;
  return Math.ceil(Math.min(byTrials, shape.timeBudgetMs * ROLLOUT_EVALUATIONS_PER_MS));
}
