import { StageView, TurnView } from '../views';

/**
 * Public views of the analysis endpoints (REST JSON = GraphQL fields).
 * Probabilities and equities are for the side named in the answer, rounded
 * to 6 decimals (docs/evaluation.md, "API").
 */
export interface ProbabilitiesView {
  win: number;
  winMars: number;
  winKoks: number;
  loseMars: number;
  loseKoks: number;
}

export interface EvaluatorView {
  name: string;
  version: string;
  /** The plies the answer was searched at: fewer than `requestedPlies` when the search budget ran out. */
  plies: number;
  requestedPlies: number;
}

export interface CubeDecisionView {
  /** noDouble | doubleTake | doublePass | tooGood | notAvailable (the side to move may not double). */
  action: string;
  /** take | pass | beaver: the opponent's right answer to a double. */
  response: string;
  /** Cubeful equity with the right action: money per unit of the current cube; match: EMG. */
  equity: number;
  noDouble: number;
  doubleTake: number;
  doublePass: number;
  cubeless: number;
  /** Janowski cube efficiency used. */
  efficiency: number;
  matchWinningChances?: { cubeless: number; noDouble: number; doubleTake: number; doublePass: number };
}

export interface EvaluationView {
  variant: string;
  positionId: string;
  sideToMove: string;
  probabilities: ProbabilitiesView;
  equity: { cubeless: number; cubeful?: number };
  cubeDecision?: CubeDecisionView;
  pips: { white: number; black: number };
  race: boolean;
  evaluator: EvaluatorView;
}

export interface BatchItemView {
  index: number;
  evaluation?: EvaluationView;
  error?: { code: string; message: string; field?: string; rule?: string };
}

export interface EvaluationBatchView {
  count: number;
  results: BatchItemView[];
}

export type RankedTurnView = TurnView & {
  rank: number;
  /** For the side that plays the turn, after it (the opponent to act next). */
  probabilities: ProbabilitiesView;
  equity: number;
  /** Equity minus the best turn's (0 for the best). */
  equityDiff: number;
  /** Depth this turn was searched at (turns the root filter left out keep 0). */
  plies: number;
};

export interface BestMovesView {
  variant: string;
  dice: number[] | null;
  stage: StageView;
  /** Number of legal turns (the `turns` list may be cut by `limit`). */
  count: number;
  evaluator: EvaluatorView;
  turns: RankedTurnView[];
}

export interface RolloutEstimateView {
  probabilities: ProbabilitiesView;
  standardErrors: ProbabilitiesView;
  equity: number;
  equityStandardError: number;
  trials: number;
  truncatedTrials: number;
  stoppedBy: string;
}

export interface RolloutSettingsView {
  trials: number;
  timeBudgetMs: number;
  seed: number;
  truncateAfter: number | null;
  settleRaces: boolean;
  luckAdjust: boolean;
}

export type RolledOutTurnView = TurnView & { rank: number; equityDiff: number } & RolloutEstimateView;

/**
 * A rollout: without dice, of the position before the side to move rolls
 * (`estimate`); with dice (or a pending stage), of every legal turn (`turns`,
 * best first, each for the side that plays it).
 */
export interface RolloutView {
  variant: string;
  positionId: string;
  sideToMove: string;
  evaluator: EvaluatorView;
  settings: RolloutSettingsView;
  estimate?: RolloutEstimateView;
  dice?: number[] | null;
  stage?: StageView;
  count?: number;
  turns?: RolledOutTurnView[];
}
