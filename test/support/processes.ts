import { ChildProcess, spawn } from 'child_process';
import { createServer } from 'net';
import { relative, resolve } from 'path';

/* Service processes for multi-process tests: started on a free port, stopped with SIGTERM. */

export const ROOT = resolve(__dirname, '../..');

/**
 * Node's arguments to run `entry` (a .ts file under the repository root): a
 * source under src/ runs as its build under dist/ (the system tier's global
 * setup builds it when stale), anything else (a test's own server) under tsx.
 */
export function nodeArguments(entry: string): string[] {
  const source = relative(ROOT, resolve(ROOT, entry));
  if (source.startsWith('src/')) return [resolve(ROOT, 'dist', source.slice('src/'.length).replace(/\.ts$/, '.js'))];
  return ['--import', 'tsx', resolve(ROOT, entry)];
}

export interface ServiceProcess {
  proc: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  log: string[];
}

export async function freePort(): Promise<number> {
  return new Promise((ok, ko) => {
    const s = createServer();
    s.once('error', ko);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => ok(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts `entry` (a .ts file under the repository root) with `env` on a free port; resolves when `probe` answers 200. */
export async function startService(entry: string, env: NodeJS.ProcessEnv, probe = '/health', started?: ServiceProcess[]): Promise<ServiceProcess> {
  const port = await freePort();
  const proc = spawn(process.execPath, nodeArguments(entry), {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  proc.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  proc.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  const server = { proc, base: `http://127.0.0.1:${port}`, log };
  started?.push(server);
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited with ${proc.exitCode}: ${log.join('')}`);
    // No keep-alive: an idle connection left open here would hold up a later SIGTERM until the client's
    // keep-alive timeout ends it (on shutdown the service stops listening but lets open connections end).
    const ok = await fetch(`${server.base}${probe}`, { headers: { connection: 'close' } })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${entry} on port ${port} did not answer ${probe} in 30 s: ${log.join('')}`);
}

/** SIGTERM, then the exit code (SIGKILL after 30 s). */
export async function stopProcess(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null) return proc.exitCode;
  return new Promise((ok) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      ok(code);
    });
    proc.kill('SIGTERM');
  });
}

/**
 * Starts a job worker process (`src/worker.ts`, what `npm run worker` runs) on the Redis at `url`
 * with the queue `prefix`; resolves once it listens for jobs.
 */
export function startJobWorker(url: string, prefix: string, lockSeconds: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, nodeArguments('src/worker.ts'), {
    cwd: ROOT,
    env: {
      ...process.env,
      REDIS_URL: url,
      REDIS_CLUSTER_NODES: '',
      JOB_QUEUE_PREFIX: prefix,
      JOB_LOCK_SECONDS: String(lockSeconds),
      ANALYSIS_WORKERS: '1',
      WORKER_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((done, fail) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`the worker did not start: ${out.slice(-400)}`));
    }, 60_000);
    const read = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      if (out.includes('worker listening for jobs')) {
        clearTimeout(timer);
        done(child);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
  });
}
