import { join } from 'path';
import { LongRules } from '../../engine/long/rules';
import { longBearoffRuleSet } from '../../eval/long/evaluator';
import { NeuralEvaluator, loadNeuralEvaluator } from '../../eval/neural/evaluator';
import { BearoffSource } from '../../eval/analysis';
import { DEFAULT_DATA_DIR, NetFiles, fileBearoffSource, raceNetBeside, readNetFiles as readNetFilesAt } from './data';

/**
 * The committed networks of data/nets/ by name, each loaded on its own (the
 * service loads them as a set: `neuralEvaluators`, data.ts): for the tests,
 * the benchmarks and the research scripts, which compare networks and
 * variants of them. Read through the one loader of data/ (data.ts).
 */
export const NETS_DIR = join(DEFAULT_DATA_DIR, 'nets');

/** Default committed network of each family. */
export const DEFAULT_NET: Readonly<Record<'short' | 'long', string>> = { short: 'backgammon', long: 'long' };

/** The committed bear-off databases, each read once per process. */
export const committedBearoff: BearoffSource = fileBearoffSource(DEFAULT_DATA_DIR);

/** The path of a network's files without their extension: `<dir>/<name>`, or `name` when it is a path of its own. */
function netBase(name: string, dir = NETS_DIR): string {
  const base = name.endsWith('.bin') ? name.slice(0, -4) : name;
  return base.includes('/') ? base : join(dir, base);
}

/** Reads `<dir>/<name>.bin` and `<dir>/<name>.json` (`name` may be a path of its own). */
export function readNetFiles(name: string, dir = NETS_DIR): NetFiles {
  return readNetFilesAt(netBase(name, dir));
}

/** Loads a committed backgammon network with the standard bear-off database (and its race network, where one is beside it). */
export function readShortNet(name = DEFAULT_NET.short): NeuralEvaluator {
  const { bytes, manifest } = readNetFiles(name);
  const race = raceNetBeside(netBase(name));
  const loaded = loadNeuralEvaluator(bytes, manifest, { database: () => committedBearoff('standard'), race });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

/** Loads a committed long-family network for a rules object (its bear-off database, its scoring). */
export function readLongNet(rules: Readonly<LongRules>, name = DEFAULT_NET.long): NeuralEvaluator {
  const { bytes, manifest } = readNetFiles(name);
  const loaded = loadNeuralEvaluator(bytes, manifest, {
    rules,
    database: () => committedBearoff(longBearoffRuleSet(rules)),
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}
