import { readFileSync } from 'fs';
import { CLASSIC } from '../../src/engine/long/rules';
import { legalLongTurns } from '../../src/engine/long/turn';
import { BENCHMARK_FILE, BenchmarkDecision, PHASES, Phase, benchmarkPlayers, decisionState, readBenchmark } from './long-benchmark';

/**
 * Error rates on the long-nardy benchmark (data/benchmarks/long-classic.jsonl,
 * written by scripts/eval/long-benchmark.ts): for each player, the mean
 * equity it loses per decision against the rollout-best candidate, in
 * millipoints (1/1000 of a point at classic oin 1 / mars 2 scoring), by
 * phase, with its standard error over the decisions, and how often it
 * chose the rollout-best play.
 *
 *   npm run benchmark:long [-- --file data/benchmarks/long-classic.jsonl] [--json]
 *   npm run benchmark:long -- --submission choices.jsonl [--name engine] [--json]
 *
 * `--submission` scores another engine's choices instead of ours (README,
 * "For outside engines"): one JSON object a line, `{"id": <decision id>,
 * "board": "<the board after its play, as the decision's board>"}`.
 *
 * A choice that is not among a decision's rolled-out candidates (a network
 * newer than the file, an outside engine's unusual play) is counted as
 * unscored: add our players' choices with
 * `npx tsx scripts/eval/long-benchmark.ts --extend`.
 */

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
    const answer = legalLongTurns(CLASSIC, decisionState(d), d.dice);
    if (!answer.ok) throw new Error(`decision ${d.id}: ${answer.error.message}`);
    const legal = answer.value.turns.map((t) => Array.from(t.board).join(','));
    const board = choose(d, legal);
    const bestEquity = Math.max(...d.candidates.map((c) => c.equity));
    const chosen = board === null ? undefined : d.candidates.find((c) => c.board === board);
    for (const key of [d.phase, 'all'] as const) {
      const n = counts.get(key) as { best: number; unscored: number; illegal: number; missing: number };
      if (board === null) n.missing++;
      else if (!legal.includes(board)) n.illegal++;
      else if (!chosen) n.unscored++;
      else {
        (losses.get(key) as number[]).push(1000 * (bestEquity - chosen.equity));
        if (chosen.equity === bestEquity) n.best++;
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

/** The choices of a submission file (`{"id", "board"}` a line), by decision id; a line that is not one throws with its number. */
export function readSubmission(path: string): Map<number, string> {
  const choices = new Map<number, string>();
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const value = JSON.parse(line) as { id?: unknown; board?: unknown };
      if (!Number.isInteger(value.id) || typeof value.board !== 'string')
        throw new Error(`${path}:${i + 1}: expected {"id": <integer>, "board": "<26 comma-separated counts>"}`);
      if (choices.has(value.id as number)) throw new Error(`${path}:${i + 1}: decision ${String(value.id)} submitted twice`);
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

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function main(): void {
  const file = option('file') ?? BENCHMARK_FILE;
  const decisions = readBenchmark(file);
  if (decisions.length === 0) throw new Error(`${file}: no decisions`);
  const started = Date.now();
  const scores = new Map<string, Record<Column, PhaseScore>>();
  const submission = option('submission');
  if (submission) {
    const choices = readSubmission(submission);
    const known = new Set(decisions.map((d) => d.id));
    const stray = [...choices.keys()].filter((id) => !known.has(id));
    if (stray.length > 0) throw new Error(`${submission}: no decision ${stray.slice(0, 5).join(', ')} in ${file}`);
    scores.set(option('name') ?? submission, scoreChoices(decisions, (d) => choices.get(d.id) ?? null));
  } else {
    const players = benchmarkPlayers(CLASSIC);
    const names = Object.keys(players(0));
    for (const name of names)
      scores.set(
        name,
        scoreChoices(decisions, (d) => {
          const state = decisionState(d);
          const answer = legalLongTurns(CLASSIC, state, d.dice);
          if (!answer.ok) throw new Error(`decision ${d.id}: ${answer.error.message}`);
          const turns = answer.value.turns;
          return Array.from(turns[players(d.id)[name].choose(state, d.dice, turns)].board).join(',');
        }),
      );
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ file, decisions: decisions.length, players: Object.fromEntries(scores) }, null, 2));
    return;
  }
  const counts = COLUMNS.map((c) => decisions.filter((d) => c === 'all' || d.phase === c).length);
  console.log(`${file}: ${decisions.length} decisions, trials per candidate ${[...new Set(decisions.map((d) => d.trials))].join(' / ')} (0: exact bear-off)`);
  console.log(`\nmean equity loss per decision against the rollout-best play, millipoints ± standard error over the decisions (best play chosen)\n`);
  console.log(`| player | ${COLUMNS.map((c, k) => `${c} (${counts[k]})`).join(' | ')} |`);
  console.log(`|---|${COLUMNS.map(() => '---').join('|')}|`);
  for (const [name, byPhase] of scores) console.log(`| ${name} | ${COLUMNS.map((c) => scoreCell(byPhase[c])).join(' | ')} |`);
  const se = COLUMNS.map((c) => {
    const list = decisions.filter((d) => c === 'all' || d.phase === c).flatMap((d) => d.candidates.map((x) => x.se));
    return list.length > 0 ? ((1000 * list.reduce((s, x) => s + x, 0)) / list.length).toFixed(0) : '–';
  });
  console.log(`| mean s.e. of a candidate's rollout equity | ${se.join(' | ')} |`);
  console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (require.main === module) main();
