import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { buildSync } from 'esbuild';

/*
 * Builds the analysis board page (web/board) into dist/board: the page's
 * TypeScript bundled by esbuild into one script (served from 'self', as the
 * Content-Security-Policy wants), the HTML and the CSS copied. Run by
 * `npm run build` (so by `npm start` and the Dockerfile) and by the tests.
 */
const ROOT = resolve(__dirname, '../..');
export const BOARD_SOURCE = resolve(ROOT, 'web/board');
export const BOARD_OUT = resolve(ROOT, 'dist/board');

/** Writes a file whole: a reader (a test serving the page while another builds it) never sees half of it. */
function writeWhole(path: string, contents: Uint8Array | string): void {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

export function buildBoard(out: string = BOARD_OUT): string {
  mkdirSync(out, { recursive: true });
  const bundle = buildSync({
    entryPoints: [resolve(BOARD_SOURCE, 'main.ts')],
    outfile: resolve(out, 'board.js'),
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
  for (const file of ['index.html', 'board.css']) writeWhole(resolve(out, file), readFileSync(resolve(BOARD_SOURCE, file)));
  return out;
}

if (require.main === module) {
  console.log(`board page built into ${buildBoard()}`);
}
