import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { buildSync } from 'esbuild';

/*
 * Builds the service's web pages: the analysis board (web/board) into
 * dist/board and the GraphQL IDE (web/graphiql) into dist/graphiql. Each
 * page's TypeScript is bundled by esbuild into one script (served from
 * 'self', as the Content-Security-Policy wants), its HTML and CSS copied; the
 * IDE's libraries (React, ReactDOM, GraphiQL: UMD builds of dev
 * dependencies) are copied beside them, so the running service needs none
 * of those packages. Run by `npm run build` (so by `npm start` and the
 * Dockerfile) and by the tests.
 */
const ROOT = resolve(__dirname, '../..');
export const BOARD_SOURCE = resolve(ROOT, 'web/board');
export const BOARD_OUT = resolve(ROOT, 'dist/board');
export const IDE_SOURCE = resolve(ROOT, 'web/graphiql');
export const IDE_OUT = resolve(ROOT, 'dist/graphiql');

/** The libraries of the IDE page, from node_modules: the served name and the file it is copied from. */
const IDE_LIBRARIES: readonly (readonly [string, string])[] = [
  ['react.production.min.js', 'react/umd/react.production.min.js'],
  ['react-dom.production.min.js', 'react-dom/umd/react-dom.production.min.js'],
  ['graphiql.min.js', 'graphiql/graphiql.min.js'],
  ['graphiql.min.css', 'graphiql/graphiql.min.css'],
];

/** Writes a file whole: a reader (a test serving the page while another builds it) never sees half of it. */
function writeWhole(path: string, contents: Uint8Array | string): void {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

/** Bundles a page's `main.ts` into `<out>/<script>` and copies its static files. */
function buildPage(source: string, out: string, script: string, files: readonly string[]): string {
  mkdirSync(out, { recursive: true });
  const bundle = buildSync({
    entryPoints: [resolve(source, 'main.ts')],
    outfile: resolve(out, script),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  for (const file of bundle.outputFiles) writeWhole(file.path, file.contents);
  for (const file of files) writeWhole(resolve(out, file), readFileSync(resolve(source, file)));
  return out;
}

export function buildBoard(out: string = BOARD_OUT): string {
  return buildPage(BOARD_SOURCE, out, 'board.js', ['index.html', 'board.css']);
}

/** The GraphQL IDE page (served at GET /graphql to browsers) with its libraries. */
export function buildIde(out: string = IDE_OUT): string {
  buildPage(IDE_SOURCE, out, 'ide.js', ['index.html', 'ide.css']);
  for (const [name, from] of IDE_LIBRARIES) writeWhole(resolve(out, name), readFileSync(resolve(ROOT, 'node_modules', from)));
  return out;
}

if (require.main === module) {
  console.log(`board page built into ${buildBoard()}`);
  console.log(`GraphQL IDE built into ${buildIde()}`);
}
