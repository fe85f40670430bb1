// `npm start` (and `npm run worker`) runs this first: it builds (`npm run build`: TypeScript, then
// the board page) only when a source is newer than the last build, so that starting an already
// built tree takes the time of `node dist/main.js`.
// Plain JavaScript on purpose: it runs before anything is compiled, and must start in milliseconds.
//
//   node scripts/build/if-stale.mjs [--dry-run] [--force] [--root DIR]
//
// The last build is marked by dist/.build-stamp, written after a successful build. Sources: every
// file under src/ and web/, scripts/build/board.ts, tsconfig.json and package-lock.json (a
// dependency change may change the output).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const force = args.includes('--force');
const rootArg = args.indexOf('--root');
const root = rootArg >= 0 ? resolve(args[rootArg + 1]) : resolve(fileURLToPath(import.meta.url), '../../..');
const stamp = join(root, 'dist', '.build-stamp');

/** The newest file under `dir` (recursively), as [path, mtimeMs]. */
function newest(dir, best = ['', 0]) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) best = newest(path, best);
    else {
      const mtime = statSync(path).mtimeMs;
      if (mtime > best[1]) best = [path, mtime];
    }
  }
  return best;
}

function staleBecause() {
  if (!existsSync(stamp)) return 'no build yet';
  const built = statSync(stamp).mtimeMs;
  let [path, mtime] = newest(join(root, 'src'));
  const web = join(root, 'web');
  if (existsSync(web)) {
    const [webPath, webTime] = newest(web);
    if (webTime > mtime) [path, mtime] = [webPath, webTime];
  }
  for (const file of ['tsconfig.json', 'package-lock.json', 'scripts/build/board.ts']) {
    const p = join(root, file);
    if (existsSync(p) && statSync(p).mtimeMs > mtime) [path, mtime] = [p, statSync(p).mtimeMs];
  }
  return mtime > built ? `${relative(root, path)} is newer than the last build` : null;
}

const reason = force ? 'asked to' : staleBecause();
if (!reason) {
  process.stdout.write('build-if-stale: dist is up to date\n');
} else if (dryRun) {
  process.stdout.write(`build-if-stale: would build (${reason})\n`);
} else {
  process.stdout.write(`build-if-stale: building (${reason})\n`);
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // Stamped with the time the build started: a source saved during the build is still newer.
  writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
  utimesSync(stamp, new Date(started), new Date(started));
  process.stdout.write(`build-if-stale: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
