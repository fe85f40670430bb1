import { execFile, execFileSync } from 'child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'fs';
import { Server } from 'http';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { promisify } from 'util';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';

/*
 * @nardy/rules and @nardy/client as an outsider gets them: each is packed
 * from its own folder (`npm pack`, whose prepack builds it), both tarballs
 * are installed with `npm install <tarball>` into an empty folder with no
 * other dependency, and each package README's example is compiled there under
 * `strict` as an ES module, run (the client's against the real service on a
 * port), and must print what the README says. A CommonJS program checks the
 * `require` entries and their types.
 *
 * The install never reaches a registry: the client's one dependency
 * (openapi-fetch and its own dependency) is packed from the root's installed
 * copy and given to the same `npm install`, which runs `--offline` with an
 * empty cache of its own, so a missing package fails at once instead of
 * waiting for a network that may not be there.
 */

const ROOT = resolve(__dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const run = promisify(execFile);
/** What @nardy/client needs at run time, packed from the root's node_modules. */
const CLIENT_DEPENDENCIES = ['openapi-fetch', 'openapi-typescript-helpers'];

/** The README's ```ts example and the ```text output that follows it. */
function example(readme: string): { code: string; output: string } {
  const m = /```ts\n([\s\S]*?)```\s*```text\n([\s\S]*?)```/.exec(readFileSync(readme, 'utf8'));
  if (!m) throw new Error(`${readme}: no ts example followed by its text output`);
  return { code: m[1], output: m[2] };
}

let dir: string;
let app: App;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nardy-packages-'));
  for (const name of ['rules', 'client']) {
    execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: join(ROOT, 'packages', name), stdio: 'pipe' });
  }
  for (const name of CLIENT_DEPENDENCIES) {
    execFileSync('npm', ['pack', join(ROOT, 'node_modules', name), '--pack-destination', dir, '--silent', '--ignore-scripts'], { cwd: dir, stdio: 'pipe' });
  }
  const consumer = join(dir, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const tarballs = readdirSync(dir).filter((f) => f.endsWith('.tgz')).map((f) => join(dir, f));
  execFileSync('npm', ['install', '--offline', '--cache', join(dir, 'npm-cache'), '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...tarballs], {
    cwd: consumer,
    stdio: 'pipe',
    timeout: 120_000,
  });
  app = await testApp();
  server = app.app.listen(0, '127.0.0.1');
  await new Promise<void>((done) => server.once('listening', () => done()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed packages in an empty folder', () => {
  it('install from their tarballs alone: dist, README and package.json, and no dependency but openapi-fetch', () => {
    const installed = readdirSync(join(dir, 'consumer/node_modules')).sort();
    expect(installed.filter((name) => !name.startsWith('.'))).toEqual(['@nardy', 'openapi-fetch', 'openapi-typescript-helpers']);
    for (const name of ['rules', 'client']) {
      const files = readdirSync(join(dir, 'consumer/node_modules/@nardy', name)).sort();
      expect(files).toEqual(['README.md', 'dist', 'package.json']);
    }
  });

  it('run their README examples, typed, as ES modules and as CommonJS', async () => {
    const consumer = join(dir, 'consumer');
    const rules = example(join(ROOT, 'packages/rules/README.md'));
    const client = example(join(ROOT, 'packages/client/README.md'));
    writeFileSync(join(consumer, 'rules.ts'), rules.code);
    writeFileSync(join(consumer, 'client.ts'), client.code.replace('http://localhost:3000', base));
    writeFileSync(
      join(consumer, 'both.cts'),
      [
        "import rules = require('@nardy/rules');",
        "import client = require('@nardy/client');",
        "const variant: rules.VariantName = 'long';",
        "const created: client.NardyClient = client.createNardyClient({ baseUrl: 'http://localhost:3000' });",
        'console.log(variant, typeof rules.legalShortTurns, typeof created.session);',
      ].join('\n'),
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], strict: true, outDir: 'out' },
        include: ['rules.ts', 'client.ts', 'both.cts'],
      }),
    );
    await run(process.execPath, [TSC, '-p', consumer]);
    expect((await run(process.execPath, [join(consumer, 'out/rules.js')], { cwd: consumer })).stdout).toBe(rules.output);
    expect((await run(process.execPath, [join(consumer, 'out/client.js')], { cwd: consumer })).stdout).toBe(client.output);
    expect((await run(process.execPath, [join(consumer, 'out/both.cjs')], { cwd: consumer })).stdout).toBe('long function function\n');
  }, 120_000);
});
