// Builds one of the installable packages (@nardy/rules, @nardy/client) from its own folder:
// `npm pack` (prepack) or `npm run build` there runs `node ../build.mjs <entry>`.
//
//   dist/index.cjs     CommonJS, one bundle (esbuild)          — `require`
//   dist/index.mjs     ES module, the same bundle as ESM       — `import`
//   dist/types/…       declarations (tsc), the entry's module graph
//   dist/index.d.mts   the declarations for `import` (re-exports dist/types)
//
//   node ../build.mjs <entry> [--out DIR]   (DIR instead of ./dist: a test builds into its own folder)
//
// Plain JavaScript: it runs before anything is compiled. It uses the repository's esbuild and
// TypeScript (found from here, as Node resolves packages upwards), so a package builds with no
// install of its own; what it packs has no dependency beyond its package.json's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import process from 'node:process';

const require = createRequire(import.meta.url);
const { buildSync } = require('esbuild');

const folder = process.cwd();
const pkg = require(resolve(folder, 'package.json'));
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const dist = outAt >= 0 ? resolve(args[outAt + 1]) : resolve(folder, 'dist');
const entry = resolve(folder, args.find((a, i) => !a.startsWith('--') && (outAt < 0 || i !== outAt + 1)) ?? 'src/index.ts');
const external = Object.keys(pkg.dependencies ?? {});

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
for (const [format, file] of [['cjs', 'index.cjs'], ['esm', 'index.mjs']]) {
  buildSync({
    entryPoints: [entry],
    outfile: resolve(dist, file),
    bundle: true,
    format,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    external,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

// Declarations with the package's own tsconfig.json (not the repository's).
const tsc = require.resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', resolve(folder, 'tsconfig.json'), '--outDir', resolve(dist, 'types')], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
writeFileSync(resolve(dist, 'index.d.mts'), "export * from './types/index.js';\n");
process.stdout.write(`${pkg.name}@${pkg.version}: built dist/ (CommonJS, ES module, declarations)\n`);
