import { execFileSync } from 'child_process';
import { existsSync } from 'fs';
import { resolve } from 'path';
import { benchLongMovegen, longCorpus } from './long-movegen';
import { benchShortMovegen, loadShortCorpus } from './short-movegen';
import { ECHO_SCRIPT, SERVER_SCRIPT, load, startProcess } from './http';

/**
 * `npm run bench`: prints the figures recorded in docs/benchmarks.md.
 * Benchmarks measure; they never pass or fail.
 */
function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/**
 * gnubg's own figures in the same run, when gnubg and the oracle's bench
 * script are on this machine (`apt-get install -y gnubg`); BENCH_GNUBG=0 skips.
 */
function gnubgFigures(): { hint0: number } | null {
  const script = [process.env.ORACLES_DIR, resolve(__dirname, '../../../shared/oracles'), resolve(process.cwd(), '../shared/oracles')]
    .filter((d): d is string => !!d)
    .map((d) => resolve(d, 'gnubg/bench.py'))
    .find((p) => existsSync(p));
  if (process.env.BENCH_GNUBG === '0' || !script || !existsSync('/usr/games/gnubg')) {
    console.log('gnubg reference  : skipped (needs /usr/games/gnubg and ../shared/oracles/gnubg/bench.py; BENCH_GNUBG=0 skips)');
    return null;
  }
  try {
    const out = execFileSync('python3', [script, '--n', '2000', '--n2', '20', '--workers', '2', '--calibrate', '20'], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    const parsed = JSON.parse(out) as { single_process: { hint0: { calls_per_s_cpu: number } } };
    return { hint0: parsed.single_process.hint0.calls_per_s_cpu };
  } catch (e) {
    console.log(`gnubg reference  : failed (${String(e).slice(0, 120)})`);
    return null;
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  console.log(`node ${process.version}, ${process.platform} ${process.arch}`);
  // BENCH_ONLY=rest: the REST figures alone (the move-generation rounds take minutes under load).
  if (process.env.BENCH_ONLY !== 'rest') movegenFigures();
  await restFigures(seconds);
}

function movegenFigures(): void {

  console.log('\n== long nardy legal-turn generation (one core, classic rules)');
  const corpus = longCorpus(200, 20261202);
  console.log(`corpus: ${corpus.states.length} positions from 200 seeded self-play games`);
  const long = benchLongMovegen(corpus);
  console.log(
    `stage solver      : ${fmt(long.solver.positionsPerSecond)} positions/s, ${fmt(long.solver.microsecondsPerPosition, 2)} µs/position, ${fmt(long.solver.averagePlays, 1)} plays/position`,
  );
  console.log(
    `legalLongTurns API: ${fmt(long.api.positionsPerSecond)} positions/s, ${fmt(long.api.microsecondsPerPosition, 2)} µs/position`,
  );

  console.log('\n== backgammon legal-move generation (one core, the 2000 gnubg oracle positions)');
  const shortCorpus = loadShortCorpus();
  const short = benchShortMovegen(shortCorpus, 5, 2);
  console.log(`stage solver      : ${fmt(short.solver.bestPositionsPerSecond)} positions/s, ${fmt(short.solver.bestMicrosecondsPerPosition, 2)} µs/position`);
  console.log(`legalShortTurns   : ${fmt(short.api.bestPositionsPerSecond)} positions/s, ${fmt(short.api.bestMicrosecondsPerPosition, 2)} µs/position`);
  const gnubg = gnubgFigures();
  if (gnubg) {
    console.log(`gnubg hint 0-ply  : ${fmt(gnubg.hint0)} positions/s (CPU; legal moves + a 0-ply evaluation of each; its cheapest exposed path)`);
    console.log(`ratio ours/gnubg  : solver ${fmt(short.solver.bestPositionsPerSecond / gnubg.hint0, 1)}×, legalShortTurns ${fmt(short.api.bestPositionsPerSecond / gnubg.hint0, 1)}×`);
  }

}

async function restFigures(seconds: number): Promise<void> {
  console.log(`\n== REST on loopback (autocannon, 16 connections, ${seconds} s each)`);
  const body = {
    variant: 'long',
    position: {
      turn: 'white',
      white: { points: { '24': 10, '18': 1, '13': 2, '9': 1, '6': 1 } },
      black: { points: { '24': 11, '20': 1, '16': 2, '11': 1 } },
    },
    dice: [5, 3],
  };
  const server = await startProcess(SERVER_SCRIPT, 3971, '/health');
  const echo = await startProcess(ECHO_SCRIPT, 3972, '/health');
  try {
    await load(3971, '/v1/moves', body, 2); // warm-up
    const moves = await load(3971, '/v1/moves', body, seconds);
    await load(3972, '/echo', body, 2);
    const bare = await load(3972, '/echo', body, seconds);
    console.log(`POST /v1/moves   : ${fmt(moves.requestsPerSecond)} req/s, p50 ${moves.p50} ms, p99 ${moves.p99} ms, errors ${moves.errors}, non-2xx ${moves.non2xx}`);
    console.log(`bare express echo: ${fmt(bare.requestsPerSecond)} req/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms`);
    console.log(`ratio moves/echo : ${fmt(moves.requestsPerSecond / bare.requestsPerSecond, 2)}`);
  } finally {
    server.kill('SIGTERM');
    echo.kill('SIGTERM');
  }
}

void main();
