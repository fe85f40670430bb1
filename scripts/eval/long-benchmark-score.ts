import { CLASSIC } from '../../src/engine/long/rules';
import { legalLongTurns } from '../../src/engine/long/turn';
import { BENCHMARK_FILE, PHASES, Phase, benchmarkPlayers, decisionState, readBenchmark } from './long-benchmark';

/**
 * Error rates on the long-nardy benchmark (data/benchmarks/long-classic.jsonl,
 * written by scripts/eval/long-benchmark.ts): for each player, the mean
 * equity it loses per decision against the rollout-best candidate, in
 * millipoints (1/1000 of a point at classic oin 1 / mars 2 scoring), by
 * phase, and how often it chose the rollout-best play.
 *
 *   npm run benchmark:long [-- --file data/benchmarks/long-classic.jsonl] [--json]
 *
 * A player whose choice is not among a decision's rolled-out candidates
 * (a network newer than the file) is counted as unscored for it: add its
 * choices with `npx tsx scripts/eval/long-benchmark.ts --extend`.
 */
interface Tally {
  decisions: number;
  loss: number;
  best: number;
  unscored: number;
}

function main(): void {
  const i = process.argv.indexOf('--file');
  const file = i >= 0 ? process.argv[i + 1] : BENCHMARK_FILE;
  const decisions = readBenchmark(file);
  if (decisions.length === 0) throw new Error(`${file}: no decisions`);
  const rules = CLASSIC;
  const players = benchmarkPlayers(rules);
  const tallies = new Map<string, Map<Phase | 'all', Tally>>();
  const noise = new Map<Phase | 'all', { n: number; se: number }>();
  const started = Date.now();
  for (const d of decisions) {
    const state = decisionState(d);
    const answer = legalLongTurns(rules, state, d.dice);
    if (!answer.ok) throw new Error(`decision ${d.id}: ${answer.error.message}`);
    const turns = answer.value.turns;
    const bestEquity = Math.max(...d.candidates.map((c) => c.equity));
    for (const key of [d.phase, 'all'] as const) {
      const nz = noise.get(key) ?? { n: 0, se: 0 };
      for (const c of d.candidates) {
        nz.n++;
        nz.se += c.se;
      }
      noise.set(key, nz);
    }
    for (const [name, bot] of Object.entries(players(d.id))) {
      const board = Array.from(turns[bot.choose(state, d.dice, turns)].board).join(',');
      const chosen = d.candidates.find((c) => c.board === board);
      const byPhase = tallies.get(name) ?? new Map<Phase | 'all', Tally>();
      tallies.set(name, byPhase);
      for (const key of [d.phase, 'all'] as const) {
        const t = byPhase.get(key) ?? { decisions: 0, loss: 0, best: 0, unscored: 0 };
        byPhase.set(key, t);
        if (!chosen) {
          t.unscored++;
          continue;
        }
        t.decisions++;
        t.loss += bestEquity - chosen.equity;
        if (chosen.equity === bestEquity) t.best++;
      }
    }
  }
  const columns: (Phase | 'all')[] = ['all', ...PHASES];
  const counts = columns.map((c) => decisions.filter((d) => c === 'all' || d.phase === c).length);
  if (process.argv.includes('--json')) {
    const out = Object.fromEntries([...tallies].map(([name, m]) => [name, Object.fromEntries(m)]));
    console.log(JSON.stringify({ file, decisions: decisions.length, players: out }, null, 2));
    return;
  }
  console.log(`${file}: ${decisions.length} decisions, trials per candidate ${[...new Set(decisions.map((d) => d.trials))].join(' / ')} (0: exact bear-off)`);
  console.log(`\nmean equity loss per decision against the rollout-best play, millipoints (best play chosen)\n`);
  console.log(`| player | ${columns.map((c, k) => `${c} (${counts[k]})`).join(' | ')} |`);
  console.log(`|---|${columns.map(() => '---').join('|')}|`);
  for (const [name, byPhase] of tallies) {
    const cells = columns.map((c) => {
      const t = byPhase.get(c);
      if (!t || t.decisions === 0) return '–';
      const unscored = t.unscored > 0 ? `, ${t.unscored} unscored` : '';
      return `${((1000 * t.loss) / t.decisions).toFixed(1)} (${((100 * t.best) / t.decisions).toFixed(0)} %${unscored})`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  const se = columns.map((c) => {
    const nz = noise.get(c);
    return nz && nz.n > 0 ? ((1000 * nz.se) / nz.n).toFixed(0) : '–';
  });
  console.log(`| mean s.e. of a candidate's rollout equity | ${se.join(' | ')} |`);
  console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main();
