import { CLASSIC } from '../../src/engine/long/rules';
import { legalLongTurns } from '../../src/engine/long/turn';
import {
  COLUMNS,
  Column,
  PairedDifference,
  PhaseScore,
  decisionState,
  lossesByDecision,
  pairedDifference,
  scoreCell,
  scoreChoices,
} from '../../src/eval/long/benchmark';
import { readBenchmark, readSubmission } from '../../src/service/analysis/data';
import { BENCHMARK_FILE, benchmarkPlayers } from './long-benchmark';

/**
 * Error rates on the long-nardy benchmark (data/benchmarks/long-classic.jsonl,
 * written by scripts/eval/long-benchmark.ts): for each player, the mean
 * equity it loses per decision against the rollout-best candidate, in
 * millipoints (1/1000 of a point at classic oin 1 / mars 2 scoring), by
 * phase, with its standard error over the decisions, and how often it
 * chose the rollout-best play; then, for every two of our networks' players
 * (`net@P`, `start/long-v1@P`), the paired difference of their losses over
 * the decisions both are scored on, with its standard error.
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
 * `npx tsx scripts/eval/long-benchmark.ts --extend`. The scoring is
 * src/eval/long/benchmark.ts (`scoreChoices`), the files are read by
 * src/service/analysis/data.ts.
 */

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
  const differences: { a: string; b: string; difference: PairedDifference }[] = [];
  const submission = option('submission');
  if (submission) {
    const choices = readSubmission(submission);
    const known = new Set(decisions.map((d) => d.id));
    const stray = [...choices.keys()].filter((id) => !known.has(id));
    if (stray.length > 0) throw new Error(`${submission}: no decision ${stray.slice(0, 5).join(', ')} in ${file}`);
    scores.set(option('name') ?? submission, scoreChoices(decisions, (d) => choices.get(d.id) ?? null));
  } else {
    const players = benchmarkPlayers(CLASSIC);
    const losses = new Map<string, Map<number, number>>();
    for (const name of Object.keys(players(0))) {
      // Each player chooses once per decision; the scores and the paired differences read the same choices.
      const choices = new Map(
        decisions.map((d) => {
          const state = decisionState(d);
          const answer = legalLongTurns(CLASSIC, state, d.dice);
          if (!answer.ok) throw new Error(`decision ${d.id}: ${answer.error.message}`);
          const turns = answer.value.turns;
          return [d.id, Array.from(turns[players(d.id)[name].choose(state, d.dice, turns)].board).join(',')];
        }),
      );
      scores.set(name, scoreChoices(decisions, (d) => choices.get(d.id) ?? null));
      if (/^(net|start)/.test(name)) losses.set(name, lossesByDecision(decisions, (d) => choices.get(d.id) ?? null));
    }
    const nets = [...losses.keys()];
    for (let i = 0; i < nets.length; i++)
      for (let j = i + 1; j < nets.length; j++)
        differences.push({ a: nets[i], b: nets[j], difference: pairedDifference(losses.get(nets[i]) as Map<number, number>, losses.get(nets[j]) as Map<number, number>) });
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ file, decisions: decisions.length, players: Object.fromEntries(scores), differences }, null, 2));
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
  if (differences.length > 0) {
    console.log(`\npaired differences of our networks' losses (a − b, millipoints; negative: a loses less), over the decisions both are scored on\n`);
    console.log('| a | b | decisions | a − b | standard errors from 0 |');
    console.log('|---|---|---|---|---|');
    for (const { a, b, difference: d } of differences)
      console.log(`| ${a} | ${b} | ${d.decisions} | ${d.mean >= 0 ? '+' : ''}${d.mean.toFixed(1)} ± ${d.se.toFixed(1)} | ${(d.mean / d.se).toFixed(1)} |`);
  }
  console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (require.main === module) main();
