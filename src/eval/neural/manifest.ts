import { RulesError, rulesError } from '../../engine/errors';
import { Result, err, ok } from '../../engine/result';
import { Family, isFamily } from '../evaluator';

/**
 * The JSON manifest committed next to a weights file (data/nets/<name>.json):
 * what the weights are, how they were made and how strong they measured.
 * `version` is the content hash of the weights file (`weightsHash`); the
 * loader refuses bytes that do not match it, and it goes into the
 * evaluator's version (cache keys).
 */
export interface NeuralManifest {
  readonly family: Family;
  /** Evaluator name, e.g. `neural-short`. */
  readonly name: string;
  /** Binary format version (format.ts). */
  readonly format: number;
  /** Input encoding (encoding.ts), e.g. `short-1`. */
  readonly encoding: string;
  /** Content hash of the weights file. */
  readonly version: string;
  /** The weights file's name next to the manifest. */
  readonly file: string;
  readonly networks: readonly { readonly name: string; readonly inputs: number; readonly hidden: number }[];
  /** How the weights were trained (games, positions, seed, command line, date, …). */
  readonly training: Readonly<Record<string, unknown>>;
  /** Measured strength (free-form figures with their commands). */
  readonly strength?: Readonly<Record<string, unknown>>;
}

function fail(message: string): { ok: false; error: RulesError } {
  return err(rulesError('INVALID_REQUEST', `neural manifest: ${message}`, { field: 'neuralManifest' }));
}

/** Checks a parsed manifest (JSON value) field by field. */
export function parseNeuralManifest(input: unknown): Result<NeuralManifest, RulesError> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('must be an object');
  const m = input as Record<string, unknown>;
  if (!isFamily(m.family)) return fail('family must be "long" or "short"');
  for (const key of ['name', 'encoding', 'version', 'file'] as const) {
    if (typeof m[key] !== 'string' || (m[key] as string).length === 0)
      return fail(`${key} must be a non-empty string`);
  }
  if (m.format !== 1) return fail('format must be 1');
  if (!Array.isArray(m.networks) || m.networks.length === 0)
    return fail('networks must be a non-empty array');
  for (const n of m.networks as unknown[]) {
    const r = n as Record<string, unknown> | null;
    if (
      typeof r !== 'object' ||
      r === null ||
      typeof r.name !== 'string' ||
      !Number.isInteger(r.inputs) ||
      !Number.isInteger(r.hidden)
    ) {
      return fail('each network must be {name, inputs, hidden}');
    }
  }
  if (typeof m.training !== 'object' || m.training === null) return fail('training must be an object');
  if (m.strength !== undefined && (typeof m.strength !== 'object' || m.strength === null))
    return fail('strength must be an object');
  return ok(input as NeuralManifest);
}
