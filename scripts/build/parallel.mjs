// Runs npm scripts of package.json side by side, as many at a time as the machine has cores, and
// fails when any of them fails. `npm test` runs the static checks through it before Jest: each of
// them (tsc, ESLint, Redocly, the import and tier checks) keeps one core busy at most, so run one
// after the other they left a core idle. The scripts are given in the order to start them: the
// longest first.
//
//   node scripts/build/parallel.mjs <script>...
//
// Each script's output is held and printed in one piece when it ends, under a line with its name,
// its time and, if it failed, its exit code, so that outputs never interleave. A script runs as
// `npm run` would run it (its command line under sh, with node_modules/.bin on the PATH), without
// starting npm itself for each; pre- and post-scripts are not run (none of these scripts has one).
// Plain JavaScript: it runs before anything is compiled.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const names = process.argv.slice(2);
const unknown = names.filter((name) => typeof scripts[name] !== 'string');
if (names.length === 0 || unknown.length > 0) {
  process.stderr.write(
    `usage: node scripts/build/parallel.mjs <npm script>...${unknown.length ? ` (no script ${unknown.join(', ')})` : ''}\n`,
  );
  process.exit(2);
}

const env = { ...process.env, PATH: [join(root, 'node_modules/.bin'), process.env.PATH].join(delimiter) };
const running = new Set();
const failed = [];

/** Runs one script to its end; resolves with nothing, records a failure. */
function run(name) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn('sh', ['-c', scripts[name]], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${String(error)}\n`)));
    child.on('close', (code, signal) => {
      running.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      if (!ok) failed.push(name);
      const text = Buffer.concat(output).toString('utf8');
      process.stdout.write(
        `── ${name}: ${ok ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`}, ${seconds} s ──\n${text}${text && !text.endsWith('\n') ? '\n' : ''}`,
      );
      done();
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
}

const queue = [...names];
const lanes = Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
  while (queue.length > 0) await run(queue.shift());
});
await Promise.all(lanes);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
