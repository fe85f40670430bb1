import { AnalysisService } from '../analysis/service';

/*
 * Whole-match analysis as the job layer sees it (service/jobs): a match
 * file is read and checked when the job is submitted (an illegal or
 * unreadable move is a 400 naming the game and the move), planned (how many
 * decisions, what it will cost), then run decision by decision through the
 * analysis service — so its searches use the worker pool, its cost model
 * and its cancellation like any other analysis.
 */

/** The match file formats read and written. */
export type MatchFileFormat = 'mat' | 'sgf';

/** One analysed decision (the contract of `GET /v1/analyses/{id}` → `result.games[].decisions[]`). */
export interface DecisionReport {
  readonly kind: 'move' | 'cube';
  /** The player's name as in the file. */
  readonly player: string;
  readonly moveNumber: number;
  readonly dice: readonly [number, number] | null;
  /** gnubg Position ID (backgammon) or our position ID (long family) before the decision. */
  readonly positionId: string;
  /** gnubg Match ID (backgammon); null for the long family, whose cube and score are under `situation`. */
  readonly matchId: string | null;
  /** gnubg notation for a move; the action name (double, no-double, take, drop, …) for a cube decision. */
  readonly played: string;
  readonly best: string;
  /** ≥ 0, in the units the README states. */
  readonly equityLoss: number;
  readonly [extra: string]: unknown;
}

/** Per player (the contract of `result.players[<name as in the file>]`). */
export interface PlayerReport {
  readonly decisions: number;
  readonly errorRate: number;
  readonly doubtful: number;
  readonly errors: number;
  readonly blunders: number;
  readonly luck: number;
  readonly rating: number | string;
  readonly [extra: string]: unknown;
}

export interface MatchReport {
  readonly players: Readonly<Record<string, PlayerReport>>;
  readonly games: readonly { readonly number: number; readonly decisions: readonly DecisionReport[] }[];
  readonly [extra: string]: unknown;
}

export interface AnalysisHooks {
  /** After each decision. */
  progress(done: number, total: number): void;
  /** Polled between decisions (and passed to each search): true stops the run with ANALYSIS_CANCELLED. */
  aborted(): boolean;
}

/** A checked match, ready to analyse. */
export interface MatchAnalysisPlan {
  /** Decisions the report will hold (the progress total). */
  readonly decisions: number;
  /** Estimated network evaluations of the whole run (cost.ts), charged when the job is submitted. */
  readonly cost: number;
  run(hooks: AnalysisHooks): Promise<MatchReport>;
}

export interface MatchAnalysisOptions {
  /** 0..2 */
  readonly plies: number;
  /**
   * CUBE-5, a money session's Jacoby rule, instead of the file's (SGF
   * `RU[Jacoby]`; `.mat`: its `Jacoby` tag, else gnubg's default, on).
   * Ignored for matches.
   */
  readonly jacoby?: boolean;
}

/** Reads a match file and plans its analysis; throws ServiceError (400, naming game and move) for a bad file. */
export type PlanMatchAnalysis = (
  file: { readonly format: MatchFileFormat; readonly text: string },
  options: MatchAnalysisOptions,
  analysis: AnalysisService,
) => MatchAnalysisPlan;
