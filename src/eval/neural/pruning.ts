import { RulesError, rulesError } from '../../engine/errors';
import { Result, err, ok } from '../../engine/result';
import { Family } from '../evaluator';
import { NeuralEncoding } from './encoding';
import { encodingFor } from './evaluator';
import { NeuralManifest } from './manifest';
import { NeuralNetwork } from './network';
import { rawEncodingFor } from './raw-encoding';
import { loadWeightsFile } from './weights-file';

/**
 * A pruning network (after gnubg's): a tiny network on its family's raw
 * encoding (raw-encoding.ts; a full encoding works too), distilled from one full network (scripts/train/prune.ts), that
 * a search uses only to **order** the plays of a roll, so that the full
 * network evaluates the best few instead of all of them (src/eval/prune.ts).
 * Its numbers never reach an answer.
 *
 * Stored like the full networks (format.ts, one `contact` network) with a
 * manifest whose `training.parent` is the content hash of the full network
 * it was distilled from: a pruning network orders plays the way its parent
 * would, and is refused beside any other.
 */
export interface PruningNetwork {
  readonly family: Family;
  readonly encoding: NeuralEncoding;
  readonly network: NeuralNetwork;
  /** Content hash of the weights file (its manifest's `version`). */
  readonly version: string;
  /** Content hash of the full network it was distilled from. */
  readonly parent: string;
}

function failure(message: string): { ok: false; error: RulesError } {
  return err(rulesError('INVALID_REQUEST', `pruning network: ${message}`, { field: 'pruningNetwork' }));
}

/**
 * Loads a committed pruning network (data/nets/<name>-prune.{bin,json},
 * read by the caller): the bytes must be the file the manifest describes,
 * with one `contact` network on a known encoding of its family, and the
 * manifest must name its parent.
 */
export function loadPruningNetwork(
  bytes: Uint8Array,
  manifest: unknown,
): Result<PruningNetwork & { readonly manifest: NeuralManifest }, RulesError> {
  return loadWeightsFile(bytes, manifest, 'pruning network', 'pruningNetwork', ({ manifest: m, weights: w }) => {
    const parent = m.training.parent;
    if (typeof parent !== 'string' || parent.length === 0) return failure('the manifest names no parent network (training.parent)');
    const encoding = rawEncodingFor(w.family, w.encoding) ?? encodingFor(w.family, w.encoding);
    if (!encoding) return failure(`unknown encoding "${w.encoding}" for family ${w.family}`);
    if (w.networks.length !== 1 || w.networks[0].name !== 'contact') return failure('one "contact" network expected');
    const parameters = w.networks[0].parameters;
    if (parameters.inputs !== encoding.inputs)
      return failure(`${parameters.inputs} inputs; encoding ${encoding.name} has ${encoding.inputs}`);
    return ok({
      family: w.family,
      encoding,
      network: new NeuralNetwork(parameters),
      version: m.version,
      parent,
    });
  });
}
