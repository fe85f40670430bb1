import { ChildProcess, spawn } from 'child_process';
import { Agent, request as httpRequest } from 'http';
import { loadavg } from 'os';
import { resolve } from 'path';
import { buildServices } from '../src/app';
import { samples } from './positions';

/**
 * `npm run bench:isolation`: whether analysis leaves the rules endpoints
 * alone (docs/benchmarks.md, "Isolation"). Prints, in one run:
 *
 * 1. `/health` and `POST /v1/moves` latency with the service idle, then
 *    while two clients issue back-to-back 5 s rollouts and 2-ply best
 *    moves (ANALYSIS_WORKERS=2);
 * 2. analysis throughput of two clients with 1 and with 2 workers;
 * 3. the resident memory of the process with 1, 2 and 4 workers, every
 *    worker's networks loaded;
 * 4. what one cheap request costs in the request thread and through a worker.
 *
 * Benchmarks measure; they never pass or fail. The load average is printed:
 * the machine is shared.
 */
const SERVER = resolve(__dirname, '../src/main.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);

async function startServer(port: number, workers: number, extra: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      ...extra,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ANALYSIS_WORKERS: String(workers),
      // The load generator is one client: no budgets.
      ANALYSIS_RATE_BUDGET: '0',
      RATE_LIMIT_MAX: '0',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    if ((await call(port, 'GET', '/health', null).catch(() => null))?.status === 200) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the service on ${port} did not start`);
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function call(port: number, method: string, path: string, body: unknown): Promise<{ status: number; ms: number; text: string }> {
  const text = body === null ? '' : JSON.stringify(body);
  const started = performance.now();
  return new Promise((done, fail) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, agent, headers: body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (answer += c));
        res.on('end', () => done({ status: res.statusCode ?? 0, ms: performance.now() - started, text: answer }));
      },
    );
    req.on('error', fail);
    req.end(text);
  });
}

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const MOVES = { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] };

/** Probes /health and /v1/moves one after the other, every 10 ms, for `seconds`. */
async function probe(port: number, seconds: number): Promise<{ health: number[]; moves: number[] }> {
  const health: number[] = [];
  const moves: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    health.push((await call(port, 'GET', '/health', null)).ms);
    moves.push((await call(port, 'POST', '/v1/moves', MOVES)).ms);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { health, moves };
}

const SHORT = samples('backgammon', 400, 7);
const LONG = samples('long', 400, 8);

/** A client issuing back-to-back heavy analyses until `until`: 5 s rollouts and 2-ply best moves, by turns. */
async function heavyClient(port: number, until: number, offset: number): Promise<number> {
  let done = 0;
  for (let i = offset; performance.now() < until; i++) {
    const s = i % 2 === 0 ? SHORT[i % SHORT.length] : LONG[i % LONG.length];
    const answer =
      i % 4 < 2
        ? await call(port, 'POST', '/v1/rollout', { ...s.input, trials: 5184, timeBudgetMs: 5000, seed: i })
        : await call(port, 'POST', '/v1/moves/best', { ...s.input, dice: s.dice, plies: 2, limit: 1 });
    if (answer.status !== 200) throw new Error(`analysis answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    done++;
  }
  return done;
}

/** Fixed work per request (seeded rollouts of 36 trials, truncated after 30 plays): completed requests per second of two clients. */
async function throughput(port: number, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  const client = async (offset: number): Promise<number> => {
    let done = 0;
    for (let i = offset; performance.now() < until; i += 2) {
      const s = SHORT[i % SHORT.length];
      const answer = await call(port, 'POST', '/v1/rollout', { ...s.input, trials: 36, truncateAfter: 30, timeBudgetMs: 10_000, seed: i });
      if (answer.status !== 200) throw new Error(`rollout answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      done++;
    }
    return done;
  };
  const started = performance.now();
  const counts = await Promise.all([client(0), client(1)]);
  return (counts[0] + counts[1]) / ((performance.now() - started) / 1000);
}

async function residentMegabytes(port: number, workers: number): Promise<number> {
  // Enough concurrent work of both families that every worker loads its networks.
  await Promise.all(
    Array.from({ length: workers * 3 }, (_, i) => {
      const s = i % 2 === 0 ? SHORT[i] : LONG[i];
      return call(port, 'POST', '/v1/evaluate', { ...s.input, plies: 1 });
    }),
  );
  const metrics = (await call(port, 'GET', '/metrics', null)).text;
  const m = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(metrics);
  return m ? Number(m[1]) / 2 ** 20 : NaN;
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

async function cheapRequestCost(): Promise<void> {
  const inline = buildServices({ analysisPool: null });
  const pooled = buildServices({ analysisPool: { workers: 1, queueMax: 8, evaluator: 'neural' }, analysisInlineCost: 0 });
  for (const [name, services, seed] of [
    ['request thread', inline, 9],
    ['through a worker', pooled, 10],
  ] as const) {
    const times: number[] = [];
    // Positions of their own for each, so that no answer comes from the hot-position cache.
    for (const s of samples('backgammon', 600, seed)) {
      const t = performance.now();
      const answer = await services.analysis.evaluate({ ...s.input, plies: 0 });
      if (answer.cache !== 'HIT') times.push(performance.now() - t);
    }
    console.log(`0-ply /v1/evaluate ${name.padEnd(16)}: median ${fmt(percentile(times, 50), 3)} ms, p90 ${fmt(percentile(times, 90), 3)} ms (${times.length} positions)`);
  }
  await pooled.analysis.close();
}

async function main(): Promise<void> {
  console.log(`node ${process.version}; load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${SECONDS} s phases`);

  console.log('\n== isolation (ANALYSIS_WORKERS=2)');
  const port = 3310;
  const server = await startServer(port, 2);
  await probe(port, 2); // warm-up
  const idle = await probe(port, SECONDS);
  const until = performance.now() + SECONDS * 1000;
  const heavy = Promise.all([heavyClient(port, until, 0), heavyClient(port, until, 1)]);
  const loaded = await probe(port, SECONDS);
  const heavyDone = (await heavy).reduce((a, b) => a + b, 0);
  await stop(server);
  for (const [name, key] of [
    ['GET /health', 'health'],
    ['POST /v1/moves', 'moves'],
  ] as const) {
    const i99 = percentile(idle[key], 99);
    const l99 = percentile(loaded[key], 99);
    console.log(
      `${name.padEnd(15)}: idle p50 ${fmt(percentile(idle[key], 50), 2)} ms p99 ${fmt(i99, 2)} ms; under analysis load p50 ${fmt(percentile(loaded[key], 50), 2)} ms p99 ${fmt(l99, 2)} ms (${fmt(l99 / i99, 2)}× idle p99)`,
    );
  }
  console.log(`heavy analyses answered meanwhile: ${heavyDone} (5 s rollouts and 2-ply best moves, two clients); load average now ${loadavg()[0].toFixed(2)}`);

  console.log('\n== analysis throughput (two clients, 36-trial rollouts truncated after 30 plays)');
  const rates: number[] = [];
  for (const workers of [1, 2]) {
    const server = await startServer(port + workers, workers);
    await throughput(port + workers, 2);
    const rate = await throughput(port + workers, SECONDS);
    await stop(server);
    rates.push(rate);
    console.log(`${workers} worker${workers > 1 ? 's' : ' '}: ${fmt(rate, 2)} rollouts/s`);
  }
  console.log(`2 workers / 1 worker: ${fmt(rates[1] / rates[0], 2)}×`);

  console.log('\n== resident memory, every worker with its networks loaded');
  for (const workers of [1, 2, 4]) {
    const server = await startServer(port + 10 + workers, workers);
    const rss = await residentMegabytes(port + 10 + workers, workers);
    await stop(server);
    console.log(`ANALYSIS_WORKERS=${workers}: ${fmt(rss, 0)} MiB`);
  }

  console.log('\n== refusals before anything runs (ANALYSIS_MAX_COST=100000)');
  const capped = await startServer(port + 30, 1, { ANALYSIS_MAX_COST: '100000' });
  const aliases = Array.from({ length: 6 }, (_, i) => `r${i}: rollout(input: {variant: "backgammon", positionId: "4HPwATDgc/ABMA", trials: 5184, timeBudgetMs: 10000}) { variant }`);
  for (const [name, path, body] of [
    ['GraphQL, six aliased 10 s rollouts', '/graphql', { query: `{ ${aliases.join(' ')} }` }],
    ['REST, one 10 s rollout', '/v1/rollout', { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 5184, timeBudgetMs: 10_000 }],
  ] as const) {
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i < 20; i++) {
      const answer = await call(port + 30, 'POST', path, body);
      status = answer.status;
      times.push(answer.ms);
    }
    console.log(`${name.padEnd(36)}: ${status}, median ${fmt(percentile(times, 50), 2)} ms, max ${fmt(Math.max(...times), 2)} ms`);
  }
  await stop(capped);

  console.log('\n== one cheap request (why ANALYSIS_INLINE_COST keeps it in the request thread)');
  await cheapRequestCost();
  agent.destroy();
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
