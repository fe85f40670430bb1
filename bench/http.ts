import { ChildProcess, spawn } from 'child_process';
import { resolve } from 'path';
import autocannon from 'autocannon';

/**
 * REST throughput with autocannon on loopback. The server runs in its own
 * process (the load generator must not share its event loop); a bare
 * express JSON echo is measured the same way as the reference.
 */
export interface HttpRate {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function waitForPort(port: number, path: string): Promise<void> {
  // Up to 60 s: on a loaded machine the server's start-up (reading openapi.yaml, the GraphQL schema) takes seconds.
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      if (res.status < 500) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server on ${port} did not start`);
}

export async function startProcess(script: string, port: number, readyPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], {
    // The limiter is switched off: the load generator is one client.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForPort(port, readyPath);
  return child;
}

export async function load(port: number, path: string, body: unknown, seconds: number, connections = 16): Promise<HttpRate> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export const ECHO_SCRIPT = resolve(__dirname, 'echo-server.js');
export const SERVER_SCRIPT = resolve(__dirname, '../src/main.js');
