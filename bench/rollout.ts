import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { loadavg, tmpdir } from 'os';
import { join, resolve } from 'path';
import { buildServices } from '../src/app';
import { isShortRace } from '../src/eval/race';
import {
  mergeRolloutTrials,
  rollout,
  rolloutTrials,
  summarizeRollout,
  trialRanges,
} from '../src/eval/neural/rollout';
import { neuralEvaluators } from '../src/service/analysis/data';
import { Analyzers } from '../src/service/analysis/evaluators';
import { AnalysisService } from '../src/service/analysis/service';
import { RolloutView } from '../src/service/analysis/views';
import { net } from './nets';
import { samples } from './positions';
import { loadShortCorpus } from './short-movegen';

/**
 * Rollout speed (docs/benchmarks.md "Rollouts"), trials per second:
 *
 * - backgammon: ours (src/eval/neural/rollout.ts, the committed network at
 *   0 ply for both sides) against gnubg's `rollout` of the same positions
 *   before their roll, with the same trials and truncation, cubeless, 0-ply
 *   chequer play, one thread (bench/gnubg-rollout.py); CPU time. Without
 *   and with variance reduction (ours: `luckAdjust`; gnubg: `varredn`, its
 *   lookahead over the 21 rolls: the same idea at the same price);
 * - long nardy: ours only (gnubg has no long nardy), truncated and to the end;
 * - one rollout through the service pool with 1 and 2 workers (the trials
 *   split into ranges, service.ts `splitRollout`): wall time (the speed-up,
 *   when the cores are free), CPU time of all threads (the cost of
 *   splitting), and whether the answers are the same.
 *
 *   npx tsx bench/rollout.ts
 *   BENCH_ROLLOUT_POSITIONS=30 BENCH_ROLLOUT_TRIALS=36 BENCH_ROLLOUT_TRUNCATE=7 BENCH_GNUBG=0 npx tsx bench/rollout.ts
 *
 * The machine is shared: read the ratios of one run, with the load average
 * printed next to them. Benchmarks measure; they never pass or fail.
 */
const GNUBG = '/usr/games/gnubg';

function load(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** CPU milliseconds of this process since `from` (user + system). */
function cpuSince(from: NodeJS.CpuUsage): number {
  const t = process.cpuUsage(from);
  return (t.user + t.system) / 1000;
}

function rate(label: string, trials: number, ms: readonly number[], clock = 'CPU'): number {
  const total = ms.reduce((s, x) => s + x, 0);
  const perSecond = (trials * ms.length * 1000) / total;
  console.log(
    `${label.padEnd(52)}: ${fmt(perSecond)} trials/s (${clock}; ${ms.length} rollouts, mean ${fmt(total / ms.length, 1)} ms)`,
  );
  return perSecond;
}

/** gnubg's rollout CPU ms per position, without (`0`) and with (`1`) variance reduction (bench/gnubg-rollout.py). */
function gnubgRollouts(
  positionIds: readonly string[],
  trials: number,
  truncate: number,
): Record<string, number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gnubg-'));
  try {
    const input = join(dir, 'cases.json');
    const output = join(dir, 'out.json');
    writeFileSync(input, JSON.stringify(positionIds.map((positionId) => ({ positionId }))));
    const script = [
      resolve(__dirname, 'gnubg-rollout.py'),
      resolve(__dirname, '../../bench/gnubg-rollout.py'),
    ].find(existsSync);
    if (!script) throw new Error('bench/gnubg-rollout.py not found');
    execFileSync(GNUBG, ['-t', '-q', '-r', '-p', script], {
      env: {
        ...process.env,
        ROLLOUT_CASES: input,
        ROLLOUT_OUT: output,
        ROLLOUT_TRIALS: String(trials),
        ROLLOUT_TRUNCATE: String(truncate),
        ROLLOUT_VARREDN: '0,1',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 3_600_000,
    });
    return JSON.parse(readFileSync(output, 'utf8')) as Record<string, number[]>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const positions = Number(process.env.BENCH_ROLLOUT_POSITIONS ?? 30);
  const trials = Number(process.env.BENCH_ROLLOUT_TRIALS ?? 36);
  const truncate = Number(process.env.BENCH_ROLLOUT_TRUNCATE ?? 7);
  const poolTrials = Number(process.env.BENCH_ROLLOUT_POOL_TRIALS ?? 360);
  const poolPositions = Number(process.env.BENCH_ROLLOUT_POOL_POSITIONS ?? 6);
  const withGnubg = process.env.BENCH_GNUBG !== '0' && existsSync(GNUBG);
  console.log(`node ${process.version}; load average ${load()}`);
  console.log(
    `${trials} trials per rollout, truncated after ${truncate} plays, cubeless, 0 ply for both sides, stratified first two rolls`,
  );
  if (!withGnubg)
    console.log('gnubg: skipped (needs /usr/games/gnubg: apt-get install -y gnubg; BENCH_GNUBG=0 skips)');

  // Contact positions of the gnubg oracle corpus (game positions before the side to move rolls).
  const corpus = loadShortCorpus();
  const chosen: number[] = [];
  for (let i = 0; i < corpus.boards.length && chosen.length < positions; i += 7) {
    const b = corpus.boards[i];
    if (b[0] === 0 && b[27] === 0 && !isShortRace(b)) chosen.push(i);
  }

  console.log(`\n== backgammon, one thread (${chosen.length} contact positions of the gnubg corpus)`);
  const short = net('backgammon');
  const ours: Record<string, number> = {};
  for (const luckAdjust of [false, true]) {
    // A first round over the same positions warms the JIT up (not counted: it runs about half as fast).
    const round = (): number[] =>
      chosen.map((i, k) => {
        const from = process.cpuUsage();
        rollout({ family: 'short', board: corpus.boards[i] }, short, {
          trials,
          seed: k + 1,
          truncateAfter: truncate,
          luckAdjust,
        });
        return cpuSince(from);
      });
    round();
    const ms = round();
    ours[String(luckAdjust)] = rate(`ours, ${luckAdjust ? 'luck-adjusted' : 'plain'}`, trials, ms);
  }
  if (withGnubg) {
    const gnubg = gnubgRollouts(
      chosen.map((i) => corpus.positionIds[i]),
      trials,
      truncate,
    );
    const plain = rate('gnubg rollout, variance reduction off', trials, gnubg['0']);
    const reduced = rate('gnubg rollout, variance reduction on', trials, gnubg['1']);
    console.log(
      `ours ÷ gnubg                                        : plain ${fmt(ours.false / plain, 2)}×, variance-reduced ${fmt(ours.true / reduced, 2)}×`,
    );
  }

  console.log(
    `\n== long nardy (classic), one thread, ours only (${positions} positions of seeded self-play)`,
  );
  const inline = new AnalysisService(new Analyzers(neuralEvaluators()));
  const longInputs = samples('long', positions, 11).map((s) => s.input);
  for (const truncateAfter of [truncate, null]) {
    const ms: number[] = [];
    // The first round warms up (not counted), as above.
    for (const [k, input] of [...longInputs, ...longInputs].entries()) {
      const from = process.cpuUsage();
      const answer = await inline.rollout({
        ...input,
        trials,
        seed: k + 1,
        timeBudgetMs: 10_000,
        ...(truncateAfter ? { truncateAfter } : {}),
      });
      if (answer.estimate?.stoppedBy !== 'trials')
        throw new Error('a long rollout ran out of time: the figures would be wrong');
      if (k >= longInputs.length) ms.push(cpuSince(from));
    }
    rate(`ours, ${truncateAfter ? `truncated after ${truncateAfter}` : 'to the end'}`, trials, ms);
  }

  console.log(
    `\n== the cost of splitting, one thread: ${poolTrials} trials truncated after ${truncate}, serial and in 8 ranges merged (${poolPositions} backgammon positions)`,
  );
  const serialMs: number[] = [];
  const rangesMs: number[] = [];
  for (let round = 0; round < 2; round++) {
    for (const [k, i] of chosen.slice(0, poolPositions).entries()) {
      const start = { family: 'short' as const, board: corpus.boards[i] };
      const options = { trials: poolTrials, seed: k + 1, truncateAfter: truncate };
      let from = process.cpuUsage();
      rollout(start, short, options);
      const serial = cpuSince(from);
      from = process.cpuUsage();
      const ranges = trialRanges(poolTrials, 8).map((range) =>
        rolloutTrials(start, short, { ...options, ...range }),
      );
      summarizeRollout(mergeRolloutTrials(ranges, poolTrials));
      const split = cpuSince(from);
      // The first round warms up; the second is counted.
      if (round === 1) {
        serialMs.push(serial);
        rangesMs.push(split);
      }
    }
  }
  rate('serial', poolTrials, serialMs);
  rate('8 ranges, merged', poolTrials, rangesMs);

  console.log(
    `\n== one rollout through the service pool (${poolTrials} trials, truncated after ${truncate}, ${poolPositions} positions per family), wall time`,
  );
  const answers: Record<number, RolloutView[]> = {};
  const inputs = [
    ...chosen
      .slice(0, poolPositions)
      .map((i) => ({ variant: 'backgammon', positionId: corpus.positionIds[i] })),
    ...longInputs.slice(0, poolPositions),
  ];
  for (const workers of [1, 2]) {
    // nice 0: the workers keep this process's priority (the service's default, 10, would let every other process of a shared machine go first).
    const services = buildServices({
      analysisPool: { workers, queueMax: 8, evaluator: 'neural', nice: 0 },
      analysisInlineCost: 0,
    });
    try {
      // Every worker loads its networks and warms up on tasks of both families first (not counted):
      // each worker alone, then the measured rollouts once (split over the workers as they will be).
      for (const input of [inputs[0], inputs[inputs.length - 1]])
        await Promise.all(
          Array.from({ length: workers }, (_, k) =>
            services.analysis.rollout({
              ...input,
              trials: 72,
              seed: 100 + k,
              truncateAfter: truncate,
              timeBudgetMs: 10_000,
            }),
          ),
        );
      for (const [k, input] of inputs.entries())
        await services.analysis.rollout({
          ...input,
          trials: poolTrials,
          seed: 200 + k,
          truncateAfter: truncate,
          timeBudgetMs: 10_000,
        });
      const ms: number[] = [];
      const cpu: number[] = [];
      answers[workers] = [];
      for (const [k, input] of inputs.entries()) {
        const t0 = performance.now();
        const from = process.cpuUsage(); // the whole process: the request thread and the workers
        const answer = await services.analysis.rollout({
          ...input,
          trials: poolTrials,
          seed: k + 1,
          truncateAfter: truncate,
          timeBudgetMs: 10_000,
        });
        ms.push(performance.now() - t0);
        cpu.push(cpuSince(from));
        if (answer.estimate?.stoppedBy !== 'trials')
          throw new Error('a pool rollout ran out of time: the figures would be wrong');
        answers[workers].push(answer);
      }
      rate(`${workers} worker${workers > 1 ? 's' : ''}`, poolTrials, ms, 'wall');
      rate(
        `${workers} worker${workers > 1 ? 's' : ''}, per CPU second of all threads`,
        poolTrials,
        cpu,
        'CPU',
      );
    } finally {
      await services.analysis.close();
    }
  }
  const same = answers[1].every((a, k) => JSON.stringify(a) === JSON.stringify(answers[2][k]));
  console.log(`answers of 1 and 2 workers the same                 : ${same ? 'yes' : 'NO'}`);
  console.log(`load average after: ${load()}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
