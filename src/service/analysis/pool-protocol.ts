import { BestMovesRequest, EvaluateRequest, RolloutRequest } from '../../contract/requests';
import { SharedBearoffTables } from '../../eval/bearoff/database';
import { ErrorBody } from '../errors';
import { EvaluatorKind } from './data';

/* What the main thread and the analysis workers exchange (pool.ts, worker.ts). */

/** Given to every worker when it starts. */
export interface WorkerSetup {
  readonly evaluator: EvaluatorKind;
  readonly dataDir: string;
  readonly searchBudgetMs: number;
  /** Nice value of the worker threads (ANALYSIS_WORKER_NICE, 0..19): above 0 they give way to the request thread. */
  readonly nice: number;
  /** The bear-off databases in shared memory (data.ts `loadSharedBearoff`). */
  readonly bearoff: readonly SharedBearoffTables[];
}

/** A request for a worker; `deadline` ends the request's budget, in milliseconds since the epoch (`epochClock`). */
export type PoolRequest =
  | { readonly op: 'evaluate' | 'best' | 'rollout'; readonly input: EvaluateRequest | BestMovesRequest | RolloutRequest; readonly deadline: number }
  | { readonly op: 'batch'; readonly inputs: readonly EvaluateRequest[]; readonly indices: readonly number[]; readonly deadline: number }
  /**
   * Trials `firstTrial` … of a whole-position rollout (its `input` with the seed fixed), for at most
   * `sliceMs` from the moment a worker starts it (and never past `deadline`): answers the trials played
   * (`RolloutTrials`).
   */
  | {
      readonly op: 'rollout-range';
      readonly input: RolloutRequest;
      readonly firstTrial: number;
      readonly trials: number;
      readonly sliceMs: number;
      readonly deadline: number;
    }
  /**
   * Reads, replays and prices a match file (a match-analysis submission) off the request thread:
   * answers `MatchPlanSummary`, or the file's 400 as the reader found it. It does not poll `deadline`.
   */
  | {
      readonly op: 'plan-match';
      readonly file: MatchPlanFile;
      readonly options: MatchPlanOptions;
      readonly deadline: number;
    };

/*
 * A `plan-match` task's file and options: the shapes of matches/types.ts'
 * file and MatchAnalysisOptions, spelled here because that module depends on
 * the analysis service, which depends on this one.
 */
export interface MatchPlanFile {
  readonly format: 'mat' | 'sgf';
  readonly text: string;
}

export interface MatchPlanOptions {
  readonly plies: number;
  readonly jacoby?: boolean;
}

/** What a `plan-match` task answers: the decisions a report will hold and the estimated evaluations of the run. */
export interface MatchPlanSummary {
  readonly decisions: number;
  readonly cost: number;
}

/** A request as a worker gets it, with its cancel flag: one Int32 over a SharedArrayBuffer, set to 1 when the caller gives up. */
export type PoolTask = PoolRequest & { readonly flag: Int32Array };

/** A worker's answer; errors of the request travel as values (an exception would lose its class). */
export type PoolAnswer =
  | { readonly ok: true; readonly startedAt: number; readonly value: unknown }
  | { readonly ok: false; readonly startedAt: number; readonly error: ErrorBody };

export function cancelFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

export function cancel(flag: Int32Array): void {
  Atomics.store(flag, 0, 1);
}

export function isCancelled(flag: Int32Array): boolean {
  return Atomics.load(flag, 0) !== 0;
}
