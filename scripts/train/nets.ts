import { existsSync, renameSync, writeFileSync } from 'fs';
import { join } from 'path';
import { LongRules } from '../../src/engine/long/rules';
import { longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { NeuralEvaluator, createNeuralEvaluator, loadNeuralEvaluator } from '../../src/eval/neural/evaluator';
import { NeuralWeights, encodeNeuralWeights, weightsHash } from '../../src/eval/neural/format';
import { NeuralManifest } from '../../src/eval/neural/manifest';
import { loadPruningNetwork } from '../../src/eval/neural/pruning';
import { PRUNING_DEFAULTS, withPruning } from '../../src/eval/prune';
import { readNetFiles as readNetFilesAt } from '../../src/service/analysis/data';
import { readBearoffDatabase } from '../eval/data';

/**
 * Node-side reading and writing of the committed networks (data/nets/). The
 * evaluator is pure and takes bytes; this is the file I/O around it, and the
 * pattern the service follows: read `<name>.bin` and `<name>.json`, hand both
 * to `loadNeuralEvaluator`.
 */
export const NETS_DIR = join(__dirname, '..', '..', 'data', 'nets');

/** Default committed network of each family. */
export const DEFAULT_NET: Readonly<Record<'short' | 'long', string>> = { short: 'backgammon', long: 'long' };

/** Reads `<dir>/<name>.bin` and `<dir>/<name>.json`. */
export function readNetFiles(name: string, dir = NETS_DIR): { bytes: Uint8Array; manifest: unknown } {
  const base = name.endsWith('.bin') ? name.slice(0, -4) : name;
  return readNetFilesAt(base.includes('/') ? base : join(dir, base));
}

/** Loads a committed backgammon network with the standard bear-off database. */
export function readShortNet(name = DEFAULT_NET.short): NeuralEvaluator {
  const { bytes, manifest } = readNetFiles(name);
  const loaded = loadNeuralEvaluator(bytes, manifest, { database: () => readBearoffDatabase('standard') });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

/**
 * `evaluator` (loaded from the committed network `name`) as the service
 * searches with it: with `<name>-prune` attached when its family's
 * `PRUNING_DEFAULTS` filter is set and that file exists (the rule of
 * `neuralEvaluators`, src/service/analysis/data.ts), else unchanged.
 */
export function asServed(evaluator: NeuralEvaluator, name: string): NeuralEvaluator {
  const filter = PRUNING_DEFAULTS[evaluator.family];
  if (filter === null || name.includes('/') || !existsSync(join(NETS_DIR, `${name}-prune.bin`))) return evaluator;
  const { bytes, manifest } = readNetFiles(`${name}-prune`);
  const network = loadPruningNetwork(bytes, manifest);
  const pruned = network.ok ? withPruning(evaluator, network.value, filter) : network;
  if (!pruned.ok) throw new Error(pruned.error.message);
  return pruned.value;
}

/** Loads a committed long-family network for a rules object (its bear-off database, its scoring). */
export function readLongNet(rules: Readonly<LongRules>, name = DEFAULT_NET.long): NeuralEvaluator {
  const { bytes, manifest } = readNetFiles(name);
  const loaded = loadNeuralEvaluator(bytes, manifest, {
    rules,
    database: () => readBearoffDatabase(longBearoffRuleSet(rules)),
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

/** An evaluator straight from in-memory weights (training), with the data/ bear-off databases. */
export function evaluatorOf(
  weights: NeuralWeights,
  rules?: Readonly<LongRules>,
  version = 'training',
): NeuralEvaluator {
  const database =
    weights.family === 'short'
      ? () => readBearoffDatabase('standard')
      : () => readBearoffDatabase(rules ? longBearoffRuleSet(rules) : 'standard');
  const created = createNeuralEvaluator(weights, { database, rules, version });
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

/**
 * Writes `<path>.bin` and `<path>.json` (atomically: temporary files, then
 * rename). The manifest's version is the hash of the written bytes.
 */
export function writeNet(
  path: string,
  weights: NeuralWeights,
  manifest: Omit<NeuralManifest, 'version' | 'file' | 'format' | 'networks' | 'family' | 'encoding'>,
): NeuralManifest {
  const base = path.endsWith('.bin') ? path.slice(0, -4) : path;
  const bytes = encodeNeuralWeights(weights);
  const full: NeuralManifest = {
    family: weights.family,
    name: manifest.name,
    format: 1,
    encoding: weights.encoding,
    version: weightsHash(bytes),
    file: `${base.split('/').pop()}.bin`,
    networks: weights.networks.map((n) => ({
      name: n.name,
      inputs: n.parameters.inputs,
      hidden: n.parameters.hidden,
    })),
    training: manifest.training,
    ...(manifest.strength ? { strength: manifest.strength } : {}),
  };
  writeFileSync(`${base}.bin.tmp`, bytes);
  writeFileSync(`${base}.json.tmp`, JSON.stringify(full, null, 2) + '\n');
  renameSync(`${base}.bin.tmp`, `${base}.bin`);
  renameSync(`${base}.json.tmp`, `${base}.json`);
  return full;
}
