import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { gunzipSync } from 'zlib';
import { BearoffRuleSet } from '../../src/eval/bearoff/build';
import { BearoffDatabase, loadBearoffDatabase } from '../../src/eval/bearoff/database';

/**
 * Node-side loading of the committed data files (the evaluator itself is
 * pure and takes bytes). The service can do the same: read the file,
 * gunzip it, and hand the bytes to `loadBearoffDatabase`.
 */
export const DATA_DIR = join(__dirname, '..', '..', 'data');

/** File name of a rule set's one-sided bear-off database under data/. */
export function bearoffFileName(ruleSet: BearoffRuleSet): string {
  return ruleSet === 'standard' ? 'bearoff-standard.bin.gz' : 'bearoff-exact-only.bin.gz';
}

const cache = new Map<BearoffRuleSet, BearoffDatabase>();

/** Reads (once) and decodes a committed bear-off database. Throws if the file is missing or corrupt. */
export function readBearoffDatabase(ruleSet: BearoffRuleSet, dir = DATA_DIR): BearoffDatabase {
  const hit = cache.get(ruleSet);
  if (hit) return hit;
  const path = join(dir, bearoffFileName(ruleSet));
  if (!existsSync(path)) throw new Error(`${path} is missing: run npx tsx scripts/eval/build-bearoff.ts`);
  const loaded = loadBearoffDatabase(gunzipSync(readFileSync(path)));
  if (!loaded.ok) throw new Error(`${path}: ${loaded.error.message}`);
  cache.set(ruleSet, loaded.value);
  return loaded.value;
}
