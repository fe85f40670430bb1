import { execFileSync } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

/*
 * `npm start` compiles only when a source is newer than the last build
 * (scripts/build/if-stale.mjs), checked here on a scratch tree in dry-run mode.
 */

const SCRIPT = resolve(__dirname, '../../scripts/build/if-stale.mjs');
const run = (root: string): string => execFileSync(process.execPath, [SCRIPT, '--dry-run', '--root', root], { encoding: 'utf8' }).trim();

describe('build-if-stale', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
    mkdirSync(join(root, 'src', 'http'), { recursive: true });
    writeFileSync(join(root, 'src', 'http', 'app.ts'), 'export {};\n');
    writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const at = (path: string, seconds: number): void => utimesSync(join(root, path), seconds, seconds);
  const stamp = (seconds: number): void => {
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', '.build-stamp'), '');
    at('dist/.build-stamp', seconds);
  };

  it('builds a tree that was never built', () => {
    expect(run(root)).toBe('build-if-stale: would build (no build yet)');
  });

  it('does not build when every source is older than the last build', () => {
    at('src/http/app.ts', 1_000);
    at('tsconfig.json', 1_000);
    stamp(2_000);
    expect(run(root)).toBe('build-if-stale: dist is up to date');
  });

  it('builds when a file of the board page changed after the last build', () => {
    mkdirSync(join(root, 'web'), { recursive: true });
    writeFileSync(join(root, 'web', 'board.ts'), 'export {};\n');
    at('src/http/app.ts', 1_000);
    at('tsconfig.json', 1_000);
    at('web/board.ts', 3_000);
    stamp(2_000);
    expect(run(root)).toBe(`build-if-stale: would build (${join('web', 'board.ts')} is newer than the last build)`);
  });

  it('builds when a nested source or tsconfig.json changed after the last build, naming it', () => {
    at('tsconfig.json', 1_000);
    at('src/http/app.ts', 3_000);
    stamp(2_000);
    expect(run(root)).toBe(`build-if-stale: would build (${join('src', 'http', 'app.ts')} is newer than the last build)`);
    at('src/http/app.ts', 1_000);
    at('tsconfig.json', 3_000);
    expect(run(root)).toBe('build-if-stale: would build (tsconfig.json is newer than the last build)');
  });
});
