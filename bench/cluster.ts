import { ChildProcess, spawn } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { createServer } from 'net';
import { loadavg, tmpdir } from 'os';
import { join, resolve } from 'path';
import { createRedisClient } from '../src/service/store/redis';

/*
 * The service under faults, end to end: a redis-server (AOF, fsync always,
 * volatile-ttl) of its own, two API processes (dist/main.js, JOB_WORKER=false)
 * and a job worker (dist/worker.js). `tables` clients play whole long-nardy
 * games over both API processes, every action with an Idempotency-Key
 * (retried with the same key, on the other process, after a 503 or a failed
 * connection), some followed by an SSE stream; rollout jobs are submitted
 * throughout. On a schedule each API process gets SIGTERM (and is started
 * again), the worker gets SIGKILL (and is started again), and Redis gets
 * SIGKILL (and is started again on its AOF). Then every game's history is
 * checked against what its client was told, and the figures printed:
 *
 * - lost actions (answered 200 but not in the stored game) and duplicated ones
 *   (two keys answered with the same version, or the stored game past what
 *   was answered);
 * - resets: requests that failed other than by a refused connection
 *   (ECONNREFUSED: sent after a listener closed, never accepted), counted
 *   apart when sent to an API process after its SIGTERM (a load balancer
 *   stops sending those within the drain; the last of them can still be in
 *   the kernel's accept backlog when the listener closes, and are reset);
 *   only resets of requests sent before a SIGTERM fail the run;
 * - false `end` events: a stream ended while its game goes on;
 * - answers that contradict what was stored: a game whose stored version or
 *   status is not what the last 200 of its table said;
 * - jobs not done; Redis memory per finished game against the documented
 *   40 KiB (docs/operations.md, "Redis sizing");
 * - game-action p50/p99 with and without analysis: an action counts as "with"
 *   when at least one rollout job was in flight as it was sent — submitted
 *   (from the moment its POST left) and not yet seen done, failed or
 *   cancelled by a poll every 250 ms — and "without" otherwise. The jobs run
 *   in the worker process on the same cores; a job's end is seen up to one
 *   poll late, so "with" includes a little idle time, and the faults fall
 *   in either part as they happen (not taken out of either).
 *
 *   npm run bench:cluster [-- --tables=40 --seconds=70 --job-trials=36 --job-truncate=4]
 *
 * Needs redis-server on the PATH and a build (`npm run build`; the script
 * builds when dist/ is missing).
 */

const ROOT = resolve(__dirname, '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=', 2) as [string, string]));
const TABLES = Number(args.tables ?? 40);
const SECONDS = Number(args.seconds ?? 70);
const DOCUMENTED_GAME_KIB = 40;
/** Each rollout job's size: trials of games cut after `JOB_TRUNCATE` turns. */
const JOB_TRIALS = Number(args['job-trials'] ?? 36);
const JOB_TRUNCATE = Number(args['job-truncate'] ?? 4);
/** Job statuses after which the job does no more work. */
const FINISHED_JOB = new Set(['done', 'failed', 'cancelled']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => ok(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const counts = { requests: 0, resets: 0, resetsAfterSignal: 0, refused: 0, outcomeUnknown: 0, unavailable: 0, retries: 0, falseEnds: 0, contradictions: 0, jobsSubmitted: 0 };
const resetDetail: string[] = [];
/** When the run started, for the times of the resets. */
let runStart = Date.now();
const latencies: number[] = [];
/** Latencies of game actions only (POST /v1/games/{id}/{action}). */
const actionLatencies: number[] = [];
/** Game-action latencies split by whether a rollout job was in flight when the action was sent. */
const actionsWithJobs: number[] = [];
const actionsWithoutJobs: number[] = [];
/**
 * Rollout jobs in flight: counted from the moment the submission is sent
 * until a poll first sees the job done, failed or cancelled (or the
 * submission was refused). A job runs in the worker process, on the same
 * cores as the API processes.
 */
let jobsInFlight = 0;
/** Milliseconds of the run with at least one job in flight, and when the current such stretch began. */
let msWithJobs = 0;
let withJobsSince = 0;
/** Each settled job's time in flight, in milliseconds. */
const jobInFlightMs: number[] = [];
/** A job's submission is being sent: the time it was sent. */
function jobSent(): number {
  if (jobsInFlight++ === 0) withJobsSince = performance.now();
  return performance.now();
}
function jobSettled(sentAt: number): void {
  jobInFlightMs.push(performance.now() - sentAt);
  if (--jobsInFlight === 0) msWithJobs += performance.now() - withJobsSince;
}
/** Whether each API process has had SIGTERM and is not yet started again: a request sent to it then is sent after the signal. */
const draining: boolean[] = [];

class Proc {
  child: ChildProcess | null = null;
  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly argv: string[],
    private readonly env: NodeJS.ProcessEnv,
  ) {}
  start(): void {
    this.child = spawn(this.command, this.argv, { cwd: ROOT, env: { ...process.env, ...this.env }, stdio: 'ignore' });
  }
  async stop(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null) return child?.exitCode ?? null;
    return new Promise((ok) => {
      child.once('exit', (code) => ok(code));
      child.kill(signal);
    });
  }
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what} not ready in ${ms} ms`);
}

const ready = (base: string) => () => fetch(`${base}/ready`).then((r) => r.status === 200);

/** The parts of the service's answers this script reads. */
interface Body {
  id?: string;
  status?: string;
  version?: number;
  seats?: Record<string, { token: string }>;
  state?: Body;
  expects?: { seat: string; action: string };
  legalTurns?: { steps: unknown[] }[];
  error?: { code?: string };
}

/** One request to `bases[i]`, falling to the other base when refused; resets are counted. */
async function call(bases: string[], first: number, path: string, init: RequestInit): Promise<{ status: number; body: Body } | null> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const index = (first + attempt) % bases.length;
    const base = bases[index];
    const started = performance.now();
    // Sent to a process that has had SIGTERM: what a load balancer stops sending within the drain.
    const afterSignal = draining[index] === true;
    const withJobs = jobsInFlight > 0;
    counts.requests++;
    try {
      const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
      const body = ((await res.json().catch(() => null)) ?? {}) as Body;
      latencies.push(performance.now() - started);
      if (init.method === 'POST' && /^\/v1\/games\/[^/]+\/[a-z]+$/.test(path)) {
        const ms = performance.now() - started;
        actionLatencies.push(ms);
        (withJobs ? actionsWithJobs : actionsWithoutJobs).push(ms);
      }
      return { status: res.status, body };
    } catch (e) {
      const code = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
      if (code === 'ECONNREFUSED') counts.refused++;
      else if (afterSignal) counts.resetsAfterSignal++;
      else {
        counts.resets++;
        if (resetDetail.length < 10) resetDetail.push(`${((Date.now() - runStart) / 1000).toFixed(1)} s ${init.method} ${path.replace(/[A-Za-z0-9_-]{22}/, '…')}: ${code}`);
      }
      await sleep(100);
    }
  }
  return null;
}

interface Told {
  key: string;
  action: string;
  version: number;
}

async function table(bases: string[], n: number, stopAt: number, told: Map<string, Told[]>, finished: Set<string>): Promise<void> {
  let k = 0;
  while (Date.now() < stopAt) {
    const created = await call(bases, n, '/v1/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ variant: 'long' }) });
    if (!created || created.status !== 201) {
      await sleep(200);
      continue;
    }
    const id = created.body.id!;
    const seats = created.body.seats!;
    let state = created.body.state!;
    const mine: Told[] = [];
    told.set(id, mine);
    const stream = n % 4 === 0 ? follow(bases[n % 2], id) : null;
    while (state.status === 'playing' && Date.now() < stopAt) {
      const seat = state.expects!.seat;
      const action = state.expects!.action === 'play' ? 'play' : state.expects!.action === 'respond' ? 'take' : state.expects!.action;
      const body = action === 'play' ? { steps: state.legalTurns![0].steps } : {};
      const key = `t${n}-${k++}`;
      let answer: { status: number; body: Body } | null = null;
      for (let attempt = 0; attempt < 60; attempt++) {
        answer = await call(bases, n + attempt, `/v1/games/${id}/${action}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${seats[seat].token}`, 'idempotency-key': key },
          body: JSON.stringify(body),
        });
        if (answer && answer.status === 503) {
          if (answer.body?.error?.code === 'OUTCOME_UNKNOWN') counts.outcomeUnknown++;
          else counts.unavailable++;
          counts.retries++;
          await sleep(250);
          continue;
        }
        break;
      }
      if (!answer || answer.status !== 200) break;
      mine.push({ key, action: action === 'take' ? 'respond' : action, version: answer.body.version! });
      state = answer.body;
    }
    if (state.status === 'finished') finished.add(id);
    stream?.abort();
  }
}

/** Follows a game's SSE stream; an `end` while the game goes on is counted false. */
function follow(base: string, id: string): AbortController {
  const control = new AbortController();
  void (async () => {
    let last = 0;
    while (!control.signal.aborted) {
      try {
        const res = await fetch(`${base}/v1/games/${id}/events`, { headers: { 'last-event-id': String(last) }, signal: control.signal });
        const reader = res.body!.getReader();
        let text = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += Buffer.from(value).toString();
          for (const m of text.matchAll(/^id: (\d+)$/gm)) last = Math.max(last, Number(m[1]));
          if (/^event: end$/m.test(text)) {
            const game = await fetch(`${base}/v1/games/${id}`).then((r) => r.json() as Promise<{ status?: string }>).catch(() => null);
            if (game && game.status !== 'finished') counts.falseEnds++;
            return;
          }
          text = text.slice(text.lastIndexOf('\n') + 1);
        }
      } catch {
        // A closed connection: reconnect from the last event, as EventSource does.
      }
      await sleep(300);
    }
  })();
  return control;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const redisPort = await freePort();
  const redisProc = new Proc('redis', 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir, '--maxmemory', '512mb', '--maxmemory-policy', 'volatile-ttl'], {});
  const url = `redis://127.0.0.1:${redisPort}`;
  const ports = [await freePort(), await freePort()];
  const bases = ports.map((p) => `http://127.0.0.1:${p}`);
  const common = { NODE_ENV: 'production', REDIS_URL: url, LOG_LEVEL: 'silent', JOB_LOCK_SECONDS: '8', GAME_CREATE_LIMIT: '0', WARM_UP_ROUNDS: '2', ANALYSIS_WORKERS: '0', SHUTDOWN_DELAY_SECONDS: '2' };
  const apis = ports.map((port, i) => new Proc(`api${i}`, process.execPath, ['dist/main.js'], { ...common, PORT: String(port), HOST: '127.0.0.1', JOB_WORKER: 'false' }));
  const workerPort = await freePort();
  const worker = new Proc('worker', process.execPath, ['dist/worker.js'], { ...common, WORKER_PORT: String(workerPort) });
  const all = [redisProc, ...apis, worker];
  let redis: ReturnType<typeof createRedisClient> | null = null;
  try {
    redisProc.start();
    await sleep(300);
    redis = createRedisClient(url);
    const client = redis;
    await until(async () => (await client.ping().catch(() => '')) === 'PONG', 10_000, 'redis');
    for (const api of apis) api.start();
    worker.start();
    for (const base of bases) await until(ready(base), 60_000, base);
    console.log(`2 API processes and a worker on redis ${url}; ${TABLES} tables for ${SECONDS} s; a rollout job of ${JOB_TRIALS} trials cut after ${JOB_TRUNCATE} turns every 3 s`);
    const start = Date.now();
    runStart = start;
    const stopAt = start + SECONDS * 1000;
    const told = new Map<string, Told[]>();
    const finished = new Set<string>();
    const jobs: string[] = [];
    /** Jobs submitted and not yet seen finished. */
    const watched = new Map<string, number>();
    const tables = Array.from({ length: TABLES }, (_, n) => table(bases, n, stopAt, told, finished));
    const submitting = (async () => {
      for (let j = 0; Date.now() < stopAt - 15_000; j++) {
        const sentAt = jobSent();
        const job = await call(bases, j, '/v1/rollouts', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: JOB_TRIALS, truncateAfter: JOB_TRUNCATE, seed: j }),
        });
        if (job && (job.status === 202 || job.status === 200) && job.body.id) {
          jobs.push(job.body.id);
          if (FINISHED_JOB.has(job.body.status ?? '')) jobSettled(sentAt);
          else watched.set(job.body.id, sentAt);
        } else jobSettled(sentAt);
        counts.jobsSubmitted++;
        await sleep(3000);
      }
    })();
    // Polls the jobs in flight so that an action can be told apart by whether one was running when it was sent.
    const watching = (async () => {
      while (Date.now() < stopAt) {
        for (const [id, sentAt] of [...watched]) {
          const seen = await call(bases, 1, `/v1/rollouts/${id}`, { method: 'GET' });
          if (seen?.status === 200 && FINISHED_JOB.has(seen.body.status ?? '')) {
            watched.delete(id);
            jobSettled(sentAt);
          }
        }
        await sleep(250);
      }
      if (jobsInFlight > 0) msWithJobs += performance.now() - withJobsSince;
    })();
    const at = (s: number) => sleep(Math.max(0, start + s * 1000 - Date.now()));
    const faults: string[] = [];
    const restartApi = async (i: number) => {
      const signalled = ((Date.now() - start) / 1000).toFixed(1);
      draining[i] = true;
      const code = await apis[i].stop('SIGTERM');
      apis[i].start();
      draining[i] = false;
      await until(ready(bases[i]), 60_000, bases[i]);
      faults.push(`${signalled} s: API ${i} SIGTERM, exit ${code} at ${((Date.now() - start) / 1000).toFixed(1)} s, started again`);
    };
    await at(SECONDS * 0.15);
    await restartApi(0);
    await at(SECONDS * 0.3);
    await restartApi(1);
    await at(SECONDS * 0.45);
    await worker.stop('SIGKILL');
    worker.start();
    faults.push(`${((Date.now() - start) / 1000).toFixed(0)} s: worker SIGKILL, started again`);
    await at(SECONDS * 0.6);
    await redisProc.stop('SIGKILL');
    faults.push(`${((Date.now() - start) / 1000).toFixed(0)} s: redis SIGKILL`);
    await sleep(1500);
    redisProc.start();
    await until(async () => (await client.ping().catch(() => '')) === 'PONG', 30_000, 'redis again');
    faults.push(`${((Date.now() - start) / 1000).toFixed(0)} s: redis started again on its AOF`);
    await Promise.all([...tables, submitting, watching]);
    const elapsed = (Date.now() - start) / 1000;

    // Every game against what its client was told.
    let lost = 0;
    let duplicated = 0;
    let actions = 0;
    for (const [id, mine] of told) {
      const history = await call(bases, 0, `/v1/games/${id}/history`, { method: 'GET' });
      const game = await call(bases, 0, `/v1/games/${id}`, { method: 'GET' });
      if (!history || history.status !== 200 || !game || game.status !== 200) {
        lost += mine.length;
        continue;
      }
      actions += mine.length;
      const storedVersion = game.body.version ?? 0;
      const versions = new Set<number>();
      for (const t of mine) {
        if (versions.has(t.version)) duplicated++;
        versions.add(t.version);
        if (t.version > storedVersion) lost++;
      }
      // Every version past 1 was made by one told action (each table waits for its answer before the next).
      const stored = storedVersion - 1;
      if (stored > mine.length) duplicated += stored - mine.length;
      // Nothing but its table acts on a game, so the stored game is what the last 200 said.
      const last = mine[mine.length - 1];
      if (last && (storedVersion !== last.version || (finished.has(id) && game.body.status !== 'finished'))) counts.contradictions++;
    }
    let jobsDone = 0;
    for (let i = 0; i < 120 && jobsDone < jobs.length; i++) {
      jobsDone = 0;
      for (const id of jobs) if ((await call(bases, 0, `/v1/rollouts/${id}`, { method: 'GET' }))?.body?.status === 'done') jobsDone++;
      if (jobsDone < jobs.length) await sleep(1000);
    }
    const sizes: number[] = [];
    for (const id of finished) {
      const record = Number(await client.call('MEMORY', 'USAGE', `nardy:game:{${id}}`, 'SAMPLES', '0'));
      const history = Number(await client.call('MEMORY', 'USAGE', `nardy:game:{${id}}:history`, 'SAMPLES', '0'));
      if (record > 0) sizes.push(record + history);
    }
    latencies.sort((a, b) => a - b);
    actionLatencies.sort((a, b) => a - b);
    const pOf = (list: number[], q: number) => list[Math.min(list.length - 1, Math.floor((list.length * q) / 100))]?.toFixed(1);
    const p = (q: number) => pOf(latencies, q);
    const meanKiB = sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length) / 1024;
    for (const f of faults) console.log(`  ${f}`);
    console.log(`${told.size} games (${finished.size} finished), ${actions} actions told 200, ${counts.requests} requests in ${elapsed.toFixed(0)} s (${(counts.requests / elapsed).toFixed(0)} req/s), p50 ${p(50)} ms, p99 ${p(99)} ms`);
    console.log(`game actions: ${actionLatencies.length} answered, p50 ${pOf(actionLatencies, 50)} ms, p99 ${pOf(actionLatencies, 99)} ms`);
    for (const list of [actionsWithJobs, actionsWithoutJobs, jobInFlightMs]) list.sort((a, b) => a - b);
    console.log(
      `  sent while a rollout job was in flight (${((100 * msWithJobs) / (elapsed * 1000)).toFixed(0)}% of the run; a job in flight p50 ${pOf(jobInFlightMs, 50)} ms, max ${pOf(jobInFlightMs, 100)} ms): ${actionsWithJobs.length}, p50 ${pOf(actionsWithJobs, 50)} ms, p99 ${pOf(actionsWithJobs, 99)} ms; ` +
        `while none was: ${actionsWithoutJobs.length}, p50 ${pOf(actionsWithoutJobs, 50)} ms, p99 ${pOf(actionsWithoutJobs, 99)} ms`,
    );
    console.log(`503 OUTCOME_UNKNOWN ${counts.outcomeUnknown}, 503 other ${counts.unavailable} (each retried with its key), connections refused ${counts.refused} (retried on the other process)`);
    console.log(`lost actions ${lost}, duplicated actions ${duplicated}, answers contradicting the store ${counts.contradictions}`);
    console.log(`resets of requests sent before a SIGTERM of their process ${counts.resets}${resetDetail.length ? ` (${resetDetail.join('; ')})` : ''}; sent after it (to a draining process) ${counts.resetsAfterSignal}; false end events ${counts.falseEnds}`);
    console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`jobs done ${jobsDone} of ${jobs.length} submitted`);
    console.log(`Redis memory per finished game: ${meanKiB.toFixed(1)} KiB mean over ${sizes.length} (documented: ${DOCUMENTED_GAME_KIB} KiB) — ${meanKiB <= DOCUMENTED_GAME_KIB ? 'within' : 'OVER'}`);
    const bad = lost + duplicated + counts.contradictions + counts.resets + counts.falseEnds + (jobs.length - jobsDone) + (meanKiB > DOCUMENTED_GAME_KIB ? 1 : 0);
    console.log(bad === 0 ? 'PASS' : 'FAIL');
    process.exitCode = bad === 0 ? 0 : 1;
  } finally {
    redis?.disconnect();
    for (const p of all.reverse()) await p.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
