import { BearoffRuleSet } from '../../src/eval/bearoff/build';
import { BearoffDatabase } from '../../src/eval/bearoff/database';
import { DEFAULT_DATA_DIR, bearoffFileName } from '../../src/service/analysis/data';
import { committedBearoff } from '../../src/service/analysis/nets';

/**
 * The committed data files for the research and training scripts, read by the
 * service's one loader (src/service/analysis/data.ts).
 */
export const DATA_DIR = DEFAULT_DATA_DIR;
export { bearoffFileName };

/** Reads (once) and decodes a committed bear-off database. Throws if the file is missing or corrupt. */
export function readBearoffDatabase(ruleSet: BearoffRuleSet): BearoffDatabase {
  return committedBearoff(ruleSet);
}
