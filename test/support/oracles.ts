import { existsSync, readFileSync } from 'fs';
import { resolve } from 'path';
import { gunzipSync } from 'zlib';

/**
 * Oracle case files (../shared/oracles in the developers' layout). Looked up
 * in $ORACLES_DIR, then ../shared/oracles beside the repository, then the
 * gzipped copies committed under test/fixtures/oracles so a clean clone
 * anywhere runs the same differential tests.
 */
const REPO = resolve(__dirname, '../..');
const CANDIDATES = [process.env.ORACLES_DIR, resolve(REPO, '../shared/oracles'), resolve(REPO, 'test/fixtures/oracles')].filter(
  (d): d is string => typeof d === 'string' && d.length > 0,
);

export function oraclePath(relative: string): string {
  for (const dir of CANDIDATES) {
    if (existsSync(resolve(dir, relative))) return resolve(dir, relative);
    if (existsSync(resolve(dir, `${relative}.gz`))) return resolve(dir, `${relative}.gz`);
  }
  throw new Error(`oracle file ${relative} not found in ${CANDIDATES.join(', ')}`);
}

/** Every JSON line of an oracle case file. */
export function readOracleCases<T = unknown>(relative: string): T[] {
  const path = oraclePath(relative);
  const raw = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

/** The text of one oracle file (gunzipped when only the committed copy is found). */
export function readOracleText(relative: string): string {
  const path = oraclePath(relative);
  const raw = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}

/** The long-nardy oracle's preset names (../shared/oracles/longnardy) and the variants they are. */
export const LONG_ORACLE_PRESETS: Readonly<Record<string, string>> = {
  classic: 'long',
  nardgammon: 'nardgammon',
  crazy: 'crazy',
  gulbarSeed: 'gulbar',
  crazyGulbar: 'crazy-gulbar',
  khachapuri: 'khachapuri',
  fevga: 'fevga',
  fevgaCrazy: 'giul',
};
