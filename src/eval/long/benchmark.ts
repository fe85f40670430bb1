import { CLASSIC } from '../../engine/long/rules';
import { Dice } from '../../engine/dice';
import { LongState, legalLongTurns } from '../../engine/long/turn';
import { isLongBearoff, isLongRace } from '../race';

/*
 * The long-nardy benchmark (docs/strength.md, "Long-nardy benchmark";
 * README, "For outside engines"): its decisions, their phases, and the
 * scoring of a player's choices against the rolled-out candidates. The
 * files are read by `readBenchmark` and `readSubmission`
 * (src/service/analysis/data.ts); scripts/eval/long-benchmark.ts writes the
 * decisions and scripts/eval/long-benchmark-score.ts (`npm run
 * benchmark:long`) prints the scores.
 */

export type Phase = 'opening' | 'contact' | 'blocking' | 'race' | 'bearoff';
export const PHASES: readonly Phase[] = ['opening', 'contact', 'blocking', 'race', 'bearoff'];

/** One decision of the benchmark file. */
export interface BenchmarkDecision {
  readonly id: number;
  readonly phase: Phase;
  /** The board seen from the side to move (comma-separated counts). */
  readonly board: string;
  /** LN-HEAD-3: whether the side to move and its opponent are still on their first roll. */
  readonly firstTurn: readonly [boolean, boolean];
  readonly dice: Dice;
  /** Legal plays of the roll. */
  readonly plays: number;
  readonly trials: number;
  /** Candidate plays: the board after the play (mover's view), its rollout equity for the mover and its standard error. */
  readonly candidates: readonly { board: string; equity: number; se: number }[];
}

/** The decisions of a benchmark file's text (one JSON decision a line). */
export function parseBenchmark(text: string): BenchmarkDecision[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as BenchmarkDecision);
}

/** The benchmark's state of a decision (classic rules, the mover seated as white). */
export function decisionState(d: Pick<BenchmarkDecision, 'board' | 'firstTurn'>): LongState {
  return {
    position: {
      turn: 'white',
      board: Int8Array.from(d.board.split(',').map(Number)),
      firstTurn: { white: d.firstTurn[0], black: d.firstTurn[1] },
    },
    pending: [],
  };
}

/** Longest run of consecutive points held by the side whose checkers have `sign`. */
function longestRun(board: Int8Array, sign: 1 | -1): number {
  let best = 0;
  let run = 0;
  for (let p = 1; p <= 24; p++) {
    run = board[p] * sign > 0 ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

/**
 * The phase of a position: `bearoff` (both sides home), `race` (no contact
 * left), `opening` (the mover still has 11 or more checkers on the head,
 * LN-HEAD-1), `blocking` (a side holds 4 or more points in a row, on the
 * way to a six-block, LN-BLOCK-1), otherwise `contact`.
 */
export function phaseOf(board: Int8Array): Phase {
  if (isLongBearoff(board)) return 'bearoff';
  if (isLongRace(board)) return 'race';
  if (board[24] >= 11) return 'opening';
  if (Math.max(longestRun(board, 1), longestRun(board, -1)) >= 4) return 'blocking';
  return 'contact';
}

/** One player's score over one phase (or all decisions). */
export interface PhaseScore {
  /** Decisions scored (the choice is a rolled-out candidate). */
  readonly decisions: number;
  /** Mean equity lost against the rollout-best candidate, millipoints. */
  readonly loss: number;
  /** Standard error of `loss` over the decisions scored (sample standard deviation / √n), millipoints. */
  readonly lossSe: number;
  /** Share of decisions where the rollout-best candidate was chosen. */
  readonly bestShare: number;
  /** Legal choices that are not among the decision's candidates. */
  readonly unscored: number;
  /** Choices that are no legal play of the decision (submissions only). */
  readonly illegal: number;
  /** Decisions without a choice (submissions only). */
  readonly missing: number;
}

export type Column = Phase | 'all';
export const COLUMNS: readonly Column[] = ['all', ...PHASES];

/** A player's choice of a decision: the board after its play (mover's view, comma-separated), or null for none. */
export type Choice = (decision: BenchmarkDecision, legalBoards: readonly string[]) => string | null;

/**
 * Scores `choose` on `decisions`: a choice that is no legal play of the
 * decision's roll (LN-MOVE rules, via `legalLongTurns`) is illegal, one not
 * among the candidates unscored; the others lose the best candidate's
 * rollout equity minus their own.
 */
export function scoreChoices(decisions: readonly BenchmarkDecision[], choose: Choice): Record<Column, PhaseScore> {
  const losses = new Map<Column, number[]>(COLUMNS.map((c) => [c, []]));
  const counts = new Map<Column, { best: number; unscored: number; illegal: number; missing: number }>(
    COLUMNS.map((c) => [c, { best: 0, unscored: 0, illegal: 0, missing: 0 }]),
  );
  for (const d of decisions) {
    const outcome = outcomeOf(d, choose);
    for (const key of [d.phase, 'all'] as const) {
      const n = counts.get(key) as { best: number; unscored: number; illegal: number; missing: number };
      if (outcome.kind !== 'scored') n[outcome.kind]++;
      else {
        (losses.get(key) as number[]).push(outcome.loss);
        if (outcome.best) n.best++;
      }
    }
  }
  const score = (c: Column): PhaseScore => {
    const list = losses.get(c) as number[];
    const n = list.length;
    const mean = n > 0 ? list.reduce((s, x) => s + x, 0) / n : NaN;
    const variance = n > 1 ? list.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : NaN;
    const k = counts.get(c) as { best: number; unscored: number; illegal: number; missing: number };
    return { decisions: n, loss: mean, lossSe: Math.sqrt(variance / n), bestShare: n > 0 ? k.best / n : NaN, unscored: k.unscored, illegal: k.illegal, missing: k.missing };
  };
  return Object.fromEntries(COLUMNS.map((c) => [c, score(c)])) as Record<Column, PhaseScore>;
}

type Outcome = { readonly kind: 'missing' | 'illegal' | 'unscored' } | { readonly kind: 'scored'; readonly loss: number; readonly best: boolean };

/** What a choice of one decision scores: its loss in millipoints against the rollout-best candidate, or why it has none. */
function outcomeOf(d: BenchmarkDecision, choose: Choice): Outcome {
  const answer = legalLongTurns(CLASSIC, decisionState(d), d.dice);
  if (!answer.ok) throw new Error(`decision ${d.id}: ${answer.error.message}`);
  const legal = answer.value.turns.map((t) => Array.from(t.board).join(','));
  const board = choose(d, legal);
  if (board === null) return { kind: 'missing' };
  if (!legal.includes(board)) return { kind: 'illegal' };
  const chosen = d.candidates.find((c) => c.board === board);
  if (!chosen) return { kind: 'unscored' };
  const bestEquity = Math.max(...d.candidates.map((c) => c.equity));
  return { kind: 'scored', loss: 1000 * (bestEquity - chosen.equity), best: chosen.equity === bestEquity };
}

/** A player's loss on each decision it is scored on (millipoints), by decision id. */
export function lossesByDecision(decisions: readonly BenchmarkDecision[], choose: Choice): Map<number, number> {
  const losses = new Map<number, number>();
  for (const d of decisions) {
    const outcome = outcomeOf(d, choose);
    if (outcome.kind === 'scored') losses.set(d.id, outcome.loss);
  }
  return losses;
}

/** Player a's mean loss minus player b's over the decisions both are scored on, in millipoints. */
export interface PairedDifference {
  readonly decisions: number;
  readonly mean: number;
  /** Standard error of `mean`: the sample standard deviation of the per-decision differences / √n. */
  readonly se: number;
}

/**
 * The paired difference of two players' losses: both are scored on the
 * same decisions and the same rollouts, so the noise they share cancels,
 * and the difference is far sharper than the two error rates' own
 * standard errors suggest.
 */
export function pairedDifference(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): PairedDifference {
  const diffs: number[] = [];
  for (const [id, loss] of a) {
    const other = b.get(id);
    if (other !== undefined) diffs.push(loss - other);
  }
  const n = diffs.length;
  const mean = n > 0 ? diffs.reduce((s, x) => s + x, 0) / n : NaN;
  const variance = n > 1 ? diffs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : NaN;
  return { decisions: n, mean, se: Math.sqrt(variance / n) };
}

/**
 * The choices of a submission's text (`{"id", "board"}` a line), by decision
 * id; a line that is not one throws with `source` and its line number.
 */
export function parseSubmission(text: string, source: string): Map<number, string> {
  const choices = new Map<number, string>();
  text
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const value = JSON.parse(line) as { id?: unknown; board?: unknown };
      if (!Number.isInteger(value.id) || typeof value.board !== 'string')
        throw new Error(`${source}:${i + 1}: expected {"id": <integer>, "board": "<26 comma-separated counts>"}`);
      if (choices.has(value.id as number)) throw new Error(`${source}:${i + 1}: decision ${String(value.id)} submitted twice`);
      choices.set(value.id as number, value.board.replace(/\s+/g, ''));
    });
  return choices;
}

/** A table cell: mean loss ± its standard error (best-play share, and what was not scored). */
export function scoreCell(s: PhaseScore): string {
  const notes = [
    s.unscored > 0 ? `${s.unscored} unscored` : '',
    s.illegal > 0 ? `${s.illegal} illegal` : '',
    s.missing > 0 ? `${s.missing} missing` : '',
  ].filter(Boolean);
  if (s.decisions === 0) return notes.length > 0 ? `– (${notes.join(', ')})` : '–';
  const se = Number.isFinite(s.lossSe) ? ` ± ${s.lossSe.toFixed(1)}` : '';
  return `${s.loss.toFixed(1)}${se} (${(100 * s.bestShare).toFixed(0)} %${notes.map((n) => `, ${n}`).join('')})`;
}
