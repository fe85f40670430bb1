// `npm test` runs this before Jest: every test file under test/ must belong to exactly one Jest
// project (tier) of jest.config.js, so that no file is left out of `npm test` and none runs twice.
//
//   node scripts/build/check-tiers.mjs
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const require = createRequire(import.meta.url);
const jest = join(root, 'node_modules/jest/bin/jest.js');
const projects = require(join(root, 'jest.config.js')).projects.map((p) => p.displayName);

/** Every `*.test.ts` under `dir`, relative to the repository root. */
function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

const tiersOf = new Map(testFiles(join(root, 'test')).map((file) => [file, []]));
for (const project of projects) {
  const listed = JSON.parse(execFileSync(process.execPath, [jest, '--listTests', '--json', '--selectProjects', project], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  for (const path of listed) {
    const file = relative(root, path);
    if (!tiersOf.has(file)) tiersOf.set(file, []);
    tiersOf.get(file).push(project);
  }
}

const wrong = [...tiersOf].filter(([, tiers]) => tiers.length !== 1);
const counts = projects.map((p) => `${p} ${[...tiersOf.values()].filter((t) => t.length === 1 && t[0] === p).length}`).join(', ');
if (wrong.length > 0) {
  for (const [file, tiers] of wrong) process.stderr.write(`check-tiers: ${file} is in ${tiers.length === 0 ? 'no tier' : `${tiers.length} tiers (${tiers.join(', ')})`}\n`);
  process.exit(1);
}
process.stdout.write(`check-tiers: ${tiersOf.size} test files, each in one tier (${counts})\n`);
