import { spawn, spawnSync } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { Server } from 'http';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { App } from '../../src/http/app';
import { testApp } from './app';

/** A test app listening on a free local port (for scripts that call it with curl). */
export async function listeningApp(): Promise<{ app: App; port: number; close: () => Promise<void> }> {
  const app = await testApp();
  const server: Server = app.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as AddressInfo).port;
  return {
    app,
    port,
    close: async () => {
      server.close();
      await app.close();
    },
  };
}

/**
 * Runs a README shell script as printed (bash -eu -o pipefail, in a fresh
 * directory), with `localhost:3000` pointed at `port`. Asynchronous: the
 * server answering the script runs in this process.
 */
export async function runReadmeScript(
  script: string,
  port: number,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const curl = spawnSync('curl', ['--version']);
  if (curl.error) throw new Error('curl is needed for this test (apt-get install -y curl)');
  const dir = mkdtempSync(join(tmpdir(), 'readme-script-'));
  try {
    return await new Promise((done) => {
      const child = spawn(
        'bash',
        ['-eu', '-o', 'pipefail', '-c', script.replaceAll('localhost:3000', `127.0.0.1:${port}`)],
        {
          cwd: dir,
          // No stdin: bash given a socket as stdin (a jest worker's) reads bashrc as for a remote shell.
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => done({ status, stdout, stderr }));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
