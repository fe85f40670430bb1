import { spawn, spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { Server } from 'http';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';

/* The README's "Play a game with curl" walkthrough runs as printed, with bash, curl and node. */

const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
const section = readme.split('### Play a game with curl')[1] ?? '';
const script = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';

let app: App;
let server: Server;
let port = 0;
beforeAll(async () => {
  app = await testApp();
  server = app.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await app.close();
});

describe('README walkthrough', () => {
  it('is found', () => {
    expect(script).toContain('/v1/games');
  });

  it('runs to the end and prints what the README says', async () => {
    const curl = spawnSync('curl', ['--version']);
    if (curl.error) throw new Error('curl is needed for this test (apt-get install -y curl)');
    const dir = mkdtempSync(join(tmpdir(), 'walkthrough-'));
    try {
      // Asynchronous: the server answering the script runs in this process.
      const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn('bash', ['-eu', '-o', 'pipefail', '-c', script.replaceAll('localhost:3000', `127.0.0.1:${port}`)], { cwd: dir });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (status) => done({ status, stdout, stderr }));
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(JSON.parse(lines[0])[1]).toEqual({ seat: 'white', action: 'play' });
      expect(JSON.parse(lines[1])).toEqual([3, { seat: 'black', action: 'roll' }]);
      expect(JSON.parse(lines[2])[0]).toBe(4);
      expect(lines[3]).toBe('roll play roll');
      expect(lines[4]).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.parse(lines[5])).toEqual({ white: ['resign'], black: ['play', 'resign'] });
      expect(lines[6]).toBe('id: 3 id: 4 id: 5 event: end');
      expect(lines).toHaveLength(7);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
