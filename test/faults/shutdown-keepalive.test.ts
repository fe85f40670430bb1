import { ServiceProcess, startService } from '../support/processes';

/*
 * Lossless shutdown for keep-alive clients: clients that send continuously
 * over fetch's keep-alive pool (what bench:cluster's tables do) go on
 * through a SIGTERM. Every request sent before the signal is answered —
 * none is reset or refused. Requests sent after
 * the signal are printed, not judged: a load balancer stops sending them
 * within the drain, and the last of them can meet the listener as it closes
 * (refused, or reset while still in the kernel's accept backlog).
 */

const DELAY_SECONDS = 2;
const SENDERS = 24;

interface Outcome {
  /** When it was sent, in ms from the signal (negative: before it). */
  readonly sent: number;
  readonly status?: number;
  readonly error?: string;
}

const REQUESTS: readonly [string, string, object | null][] = [
  ['POST', '/v1/moves', { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] }],
  ['GET', '/health', null],
  ['POST', '/v1/games', { variant: 'long' }],
  // In the request thread (ANALYSIS_WORKERS=0): the event loop is busy when the signal comes.
  ['POST', '/v1/evaluate', { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', plies: 1 }],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function send(base: string, i: number, signalAt: () => number): Promise<Outcome> {
  const [method, path, body] = REQUESTS[i % REQUESTS.length];
  const started = Date.now();
  const sent = () => started - signalAt();
  try {
    const res = await fetch(`${base}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    return { sent: sent(), status: res.status };
  } catch (e) {
    return { sent: sent(), error: (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name };
  }
}

describe('SIGTERM under keep-alive clients', () => {
  const started: ServiceProcess[] = [];
  afterAll(() => {
    for (const s of started) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
  });

  it('answers every request sent before the signal; none is reset', async () => {
    const service = await startService(
      'src/main.ts',
      { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '', ANALYSIS_WORKERS: '0', WARM_UP_ROUNDS: '0', SHUTDOWN_DELAY_SECONDS: String(DELAY_SECONDS), GAME_CREATE_LIMIT: '0', RATE_LIMIT_MAX: '0', LOG_LEVEL: 'info', NODE_ENV: 'production' },
      '/ready',
      started,
    );
    const exited = new Promise<number | null>((done) => service.proc.once('exit', (code) => done(code)));
    let signal = Infinity;
    const signalAt = () => signal;
    let closed = false;
    const outcomes: Outcome[] = [];
    // Senders: one request after another until the listener refuses them.
    const senders = Array.from({ length: SENDERS }, async (_, n) => {
      for (let k = 0; !closed; k++) {
        const outcome = await send(service.base, n + k, signalAt);
        outcomes.push(outcome);
        if (outcome.error === 'ECONNREFUSED') closed = true;
      }
    });
    await sleep(1500);
    signal = Date.now();
    service.proc.kill('SIGTERM');
    await Promise.all(senders);

    const before = outcomes.filter((o) => o.sent < 0);
    const after = outcomes.filter((o) => o.sent >= 0);
    const tally = (list: Outcome[]) => {
      const counts: Record<string, number> = {};
      for (const o of list) counts[o.status !== undefined ? String(o.status) : o.error!] = (counts[o.status !== undefined ? String(o.status) : o.error!] ?? 0) + 1;
      return counts;
    };
    console.log(
      `keep-alive shutdown: sent before the signal ${JSON.stringify(tally(before))}, after it ${JSON.stringify(tally(after))}`,
    );
    expect(before.length).toBeGreaterThan(SENDERS);
    expect(before.filter((o) => o.status === undefined || o.status >= 500)).toEqual([]);
    expect(after.filter((o) => o.status !== undefined && o.status >= 500)).toEqual([]);
    expect(await exited).toBe(0);
  }, 120_000);
});
