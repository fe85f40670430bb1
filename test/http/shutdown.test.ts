import { ChildProcess, spawn } from 'child_process';
import { Agent, request as httpRequest } from 'http';
import { resolve } from 'path';
import { nodeArguments } from '../support/processes';

/*
 * Graceful shutdown loses nothing: the service (src/main.ts, one analysis
 * worker) gets SIGTERM in the middle of a burst of 200 mixed requests sent
 * over keep-alive connections. Every request is either answered or, once
 * the listener has closed, refused a connection (ECONNREFUSED, never
 * accepted); no connection is reset, and the process exits 0.
 */

const ROOT = resolve(__dirname, '../..');

interface Outcome {
  readonly status?: number;
  readonly error?: string;
}

function start(): Promise<{ child: ChildProcess; port: number; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, nodeArguments('src/main.ts'), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ANALYSIS_WORKERS: '1', LOG_LEVEL: 'info', REDIS_URL: '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((done, fail) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`the service did not start: ${out.slice(-500)}`));
    }, 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /"port":(\d+)[^\n]*"message":"listening"/.exec(out);
      if (m) {
        clearTimeout(timer);
        done({ child, port: Number(m[1]), exited });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
  });
}

const BODIES: readonly [string, string, object | null][] = [
  ['POST', '/v1/moves', { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] }],
  ['GET', '/health', null],
  ['POST', '/v1/evaluate', { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', plies: 1 }],
  ['POST', '/v1/moves/validate', { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5], notation: '24/18/13' }],
  ['POST', '/v1/moves/best', { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', dice: [4, 2], plies: 1 }],
  ['POST', '/v1/rollout', { variant: 'long', positionId: 'GAAA8_fAAAg__DA', trials: 4, truncateAfter: 8, seed: 1 }],
  ['POST', '/v1/games', { variant: 'long' }],
];

function send(agent: Agent, port: number, i: number): Promise<Outcome> {
  const [method, path, body] = BODIES[i % BODIES.length];
  const text = body === null ? '' : JSON.stringify(i % BODIES.length === 2 ? { ...body, positionId: i % 2 ? '4HPwATDgc/ABMA' : '4PPgASDgc/ABMA' } : body);
  return new Promise((done) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, agent, headers: body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode }));
        res.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
    req.end(text);
  });
}

describe('graceful shutdown (SIGTERM)', () => {
  it('answers or refuses every request of a burst, resets none, and exits 0', async () => {
    const { child, port, exited } = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    try {
      let settled = 0;
      let signalled = false;
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          send(agent, port, i).then((outcome) => {
            settled++;
            if (settled === 60 && !signalled) {
              signalled = true;
              child.kill('SIGTERM');
            }
            return outcome;
          }),
        ),
      );
      const answered = outcomes.filter((o) => o.status !== undefined);
      const refused = outcomes.filter((o) => o.error === 'ECONNREFUSED');
      const failed = outcomes.filter((o) => o.status === undefined && o.error !== 'ECONNREFUSED');
      console.log(`shutdown burst: ${answered.length} answered, ${refused.length} refused a connection, ${failed.length} reset or failed`);
      expect(failed).toEqual([]);
      expect(answered.length).toBeGreaterThanOrEqual(60);
      expect(answered.every((o) => o.status! < 500)).toBe(true);
      expect(answered.length + refused.length).toBe(200);
    } finally {
      agent.destroy();
    }
    expect(await exited).toBe(0);
  }, 120_000);
});
