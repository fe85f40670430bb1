import { existsSync, renameSync, writeFileSync } from 'fs';
import { join } from 'path';
import { LongRules } from '../../src/engine/long/rules';
import { longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { NeuralEvaluator, createNeuralEvaluator, encodingFor } from '../../src/eval/neural/evaluator';
import { NeuralEncoding, inputMap } from '../../src/eval/neural/encoding';
import { NetworkParameters } from '../../src/eval/neural/network';
import { NetworkTrainer } from '../../src/eval/neural/trainer';
import { NETS_DIR, readNetFiles } from '../../src/service/analysis/nets';
import { NeuralWeights, encodeNeuralWeights, weightsHash } from '../../src/eval/neural/format';
import { NeuralManifest } from '../../src/eval/neural/manifest';
import { loadPruningNetwork } from '../../src/eval/neural/pruning';
import { PRUNING_DEFAULTS, withPruning } from '../../src/eval/prune';
import { readBearoffDatabase } from '../eval/data';

/**
 * Node-side reading and writing of the committed networks (data/nets/). The
 * readers are the service's (src/service/analysis/nets.ts); this adds the
 * writer and the training helpers around them.
 */
export { DEFAULT_NET, NETS_DIR, readLongNet, readNetFiles, readShortNet } from '../../src/service/analysis/nets';

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

/**
 * The parent's contact network as the starting parameters of a network on
 * `encoding`: the same network when the encodings agree; when `encoding`
 * extends the parent's (`extendsEncoding`), the parent's inputs keep their
 * weights and the new ones start at zero (the same function).
 */
export function startingParameters(parent: NeuralWeights, encoding: NeuralEncoding): NetworkParameters {
  const p = parent.networks[0].parameters;
  if (parent.encoding === encoding.name) return p;
  const from = encodingFor(encoding.family, parent.encoding);
  const map = from && inputMap(from, encoding);
  if (!map) throw new Error(`encoding ${encoding.name} does not extend ${parent.encoding}`);
  return NetworkTrainer.extendInputs(p, encoding.inputs, map);
}
