import { request as httpRequest } from 'http';
import { ServiceProcess, startService } from '../support/processes';

/*
 * Lossless shutdown: on SIGTERM the process fails /ready at once but keeps
 * accepting and serving fresh connections for SHUTDOWN_DELAY_SECONDS (here
 * 2 s), so that nothing a load balancer still sends is refused or reset —
 * not even 100 connections opened as the signal arrives, while the event
 * loop is busy; only then does the listener close (later connections are
 * refused, never reset), and the process exits 0.
 */

const DELAY_SECONDS = 2;

interface Outcome {
  readonly status?: number;
  readonly error?: string;
}

const REQUESTS: readonly [string, string, object | null][] = [
  ['POST', '/v1/moves', { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] }],
  ['GET', '/health', null],
  // In the request thread (ANALYSIS_WORKERS=0): the event loop is busy when the signal comes.
  ['POST', '/v1/evaluate', { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', plies: 1 }],
  ['POST', '/v1/moves/best', { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', dice: [4, 2], plies: 1 }],
];

/** One request on a connection of its own (no keep-alive): what a load balancer's new connection is. */
function fresh(base: string, i: number): Promise<Outcome> {
  const [method, path, body] = REQUESTS[i % REQUESTS.length];
  const text = body === null ? '' : JSON.stringify(body);
  const { hostname, port } = new URL(base);
  return new Promise((done) => {
    const req = httpRequest(
      { host: hostname, port, method, path, agent: false, headers: body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode }));
        res.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('TIMEOUT')));
    req.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
    req.end(text);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SIGTERM with a shutdown delay', () => {
  const started: ServiceProcess[] = [];
  afterAll(() => {
    for (const s of started) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
  });

  it('serves every connection opened before and during the delay, then refuses (never resets), and exits 0', async () => {
    const service = await startService(
      'src/main.ts',
      { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '', ANALYSIS_WORKERS: '0', WARM_UP_ROUNDS: '0', SHUTDOWN_DELAY_SECONDS: String(DELAY_SECONDS), LOG_LEVEL: 'info', NODE_ENV: 'production' },
      '/ready',
      started,
    );
    const exited = new Promise<number | null>((done) => service.proc.once('exit', (code) => done(code)));
    // 100 fresh connections, the signal right behind them.
    const atSignal = Promise.all(Array.from({ length: 100 }, (_, i) => fresh(service.base, i)));
    service.proc.kill('SIGTERM');
    await sleep(500);
    const ready = await fetch(`${service.base}/ready`).then((r) => r.status, () => 0);
    // A load balancer that has not yet heard of the shutdown keeps opening connections.
    const during = await Promise.all(Array.from({ length: 40 }, (_, i) => fresh(service.base, i)));
    await sleep(DELAY_SECONDS * 1000 + 1000);
    const after = await fresh(service.base, 1);
    const first = await atSignal;
    const summary = (outcomes: Outcome[]) => ({
      answered: outcomes.filter((o) => o.status !== undefined && o.status < 500).length,
      failed: outcomes.filter((o) => o.status === undefined || o.status >= 500).map((o) => o.error ?? o.status),
    });
    console.log(`shutdown delay: at the signal ${JSON.stringify(summary(first))}, during the delay ${JSON.stringify(summary(during))}, after it ${JSON.stringify(after)}`);
    expect(ready).toBe(503);
    expect(summary(first)).toEqual({ answered: 100, failed: [] });
    expect(summary(during)).toEqual({ answered: 40, failed: [] });
    expect(after.error).toBe('ECONNREFUSED');
    expect(await exited).toBe(0);
  }, 90_000);
});
