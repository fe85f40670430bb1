import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { gzipSync } from 'zlib';
import { BEAROFF_RULE_SETS, buildBearoffTables } from '../../src/eval/bearoff/build';
import { encodeBearoffTables, loadBearoffDatabase } from '../../src/eval/bearoff/database';
import { DEFAULT_DATA_DIR as DATA_DIR, bearoffFileName } from '../../src/service/analysis/data';

/**
 * Builds the one-sided bear-off databases (one per bear-off rule set) and
 * writes them gzipped under data/. Deterministic: the same bytes every run.
 *
 *   npx tsx scripts/build/bearoff.ts [--out DIR]
 */
function main(): void {
  const outIndex = process.argv.indexOf('--out');
  const dir = outIndex >= 0 ? process.argv[outIndex + 1] : DATA_DIR;
  mkdirSync(dir, { recursive: true });
  for (const ruleSet of BEAROFF_RULE_SETS) {
    const t0 = process.hrtime.bigint();
    const tables = buildBearoffTables(ruleSet);
    const t1 = process.hrtime.bigint();
    const bytes = encodeBearoffTables(tables);
    const check = loadBearoffDatabase(bytes);
    if (!check.ok) throw new Error(check.error.message);
    const gz = gzipSync(bytes, { level: 9 });
    const path = join(dir, bearoffFileName(ruleSet));
    writeFileSync(path, gz);
    const seconds = Number(t1 - t0) / 1e9;
    console.log(
      `${ruleSet.padEnd(9)}: ${check.value.size} positions, built in ${seconds.toFixed(1)} s, ` +
        `${bytes.length} bytes raw, ${gz.length} bytes gzipped -> ${path}`,
    );
  }
}

main();
