import { RulesError, rulesError } from '../../engine/errors';
import { Result, err, ok } from '../../engine/result';
import { NeuralWeights, decodeNeuralWeights, weightsHash } from './format';
import { NeuralManifest, parseNeuralManifest } from './manifest';

/**
 * A committed weights file read against its manifest: the manifest is well
 * formed, the bytes decode (sizes, checksum), they are the file the
 * manifest describes (its `version` is their content hash) and the family
 * agrees. `what` names the kind of file in messages, `field` in errors.
 */
export function checkedWeightsFile(
  bytes: Uint8Array,
  manifest: unknown,
  what: string,
  field: string,
): Result<{ readonly manifest: NeuralManifest; readonly weights: NeuralWeights }, RulesError> {
  const parsed = parseNeuralManifest(manifest);
  if (!parsed.ok) return parsed;
  const m = parsed.value;
  const decoded = decodeNeuralWeights(bytes);
  if (!decoded.ok) return decoded;
  const w = decoded.value;
  const fail = (message: string) => err(rulesError('INVALID_REQUEST', `${what}: ${message}`, { field }));
  const hash = weightsHash(bytes);
  if (hash !== m.version) return fail(`the bytes (${hash}) are not the file the manifest describes (${m.version})`);
  if (w.family !== m.family) return fail(`family ${w.family} in the file, ${m.family} in the manifest`);
  return ok({ manifest: m, weights: w });
}

/** The checked contents of a weights file. */
export interface WeightsFile {
  readonly manifest: NeuralManifest;
  readonly weights: NeuralWeights;
}

/**
 * Loads a weights file as `T`: checks it (`checkedWeightsFile`), lets `build`
 * check what its kind needs and make the value, and attaches the manifest.
 */
export function loadWeightsFile<T extends object>(
  bytes: Uint8Array,
  manifest: unknown,
  what: string,
  field: string,
  build: (file: WeightsFile) => Result<T, RulesError>,
): Result<T & { readonly manifest: NeuralManifest }, RulesError> {
  const checked = checkedWeightsFile(bytes, manifest, what, field);
  if (!checked.ok) return checked;
  const built = build(checked.value);
  return built.ok ? ok(Object.assign(built.value, { manifest: checked.value.manifest })) : built;
}
