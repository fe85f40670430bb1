import { RulesError, rulesError } from '../../engine/errors';
import { Result, err, ok } from '../../engine/result';
import { Family, isFamily } from '../evaluator';
import { NETWORK_OUTPUTS, NetworkParameters, parameterCount } from './network';

/*
 * Binary format of a family's trained networks (data/nets/*.bin), all
 * numbers little-endian:
 *
 *   magic "NRDYNN" (6 bytes) · format u16 = 1 · header length u32 ·
 *   header: UTF-8 JSON {"family", "encoding", "networks": [{"name", "inputs", "hidden"}]} ·
 *   zero padding to a multiple of 4 ·
 *   per network, float32: inputWeights (input-major), hiddenBias, outputWeights (output-major), outputBias ·
 *   checksum u32: FNV-1a of every byte before it.
 *
 * The weights are our own numbers from scripts/train/train.ts. The loader
 * checks every size and the checksum, so a truncated or altered file is
 * refused with a message instead of evaluating garbage.
 */
const MAGIC = 'NRDYNN';
/** The format version this module reads and writes. */
export const NEURAL_FORMAT_VERSION = 1;
const PREAMBLE = 12;

/** Network names and what they evaluate: `race` the races before both sides are home (backgammon). */
export type NetworkName = 'contact' | 'crashed' | 'race';

/** One network of a weights file. */
export interface NamedNetwork {
  readonly name: NetworkName;
  readonly parameters: NetworkParameters;
}

/** The decoded content of a weights file. */
export interface NeuralWeights {
  readonly family: Family;
  /** Name of the input encoding the networks were trained with (encoding.ts). */
  readonly encoding: string;
  readonly networks: readonly NamedNetwork[];
}

interface HeaderNetwork {
  name: string;
  inputs: number;
  hidden: number;
}

/** Module-local alias: a global lookup per call is slow in sandboxed VMs (jest: about 40 times slower in this loop). */
const imul = Math.imul;

/** FNV-1a, 32 bits, over `bytes[from, to)`. */
export function fnv1a(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= bytes[i];
    h = imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The content hash of a weights file: its version string in manifests and
 * cache keys (`fnv1a` of the whole file, then its length).
 */
export function weightsHash(bytes: Uint8Array): string {
  return `${fnv1a(bytes).toString(16).padStart(8, '0')}-${bytes.length}`;
}

/** Writes networks in the binary format. */
export function encodeNeuralWeights(weights: NeuralWeights): Uint8Array {
  const header = JSON.stringify({
    family: weights.family,
    encoding: weights.encoding,
    networks: weights.networks.map((n) => ({
      name: n.name,
      inputs: n.parameters.inputs,
      hidden: n.parameters.hidden,
    })),
  });
  const headerBytes = new TextEncoder().encode(header);
  const start = Math.ceil((PREAMBLE + headerBytes.length) / 4) * 4;
  const floats = weights.networks.reduce((s, n) => s + parameterCount(n.parameters), 0);
  const bytes = new Uint8Array(start + 4 * floats + 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < MAGIC.length; i++) bytes[i] = MAGIC.charCodeAt(i);
  view.setUint16(6, NEURAL_FORMAT_VERSION, true);
  view.setUint32(8, headerBytes.length, true);
  bytes.set(headerBytes, PREAMBLE);
  let at = start;
  for (const n of weights.networks) {
    const p = n.parameters;
    for (const array of [p.inputWeights, p.hiddenBias, p.outputWeights, p.outputBias]) {
      for (let i = 0; i < array.length; i++, at += 4) view.setFloat32(at, array[i], true);
    }
  }
  view.setUint32(at, fnv1a(bytes, 0, at), true);
  return bytes;
}

function fail(message: string): { ok: false; error: RulesError } {
  return err(rulesError('INVALID_REQUEST', `neural weights: ${message}`, { field: 'neuralWeights' }));
}

function isHeaderNetwork(x: unknown): x is HeaderNetwork {
  if (typeof x !== 'object' || x === null) return false;
  const n = x as Record<string, unknown>;
  return (
    typeof n.name === 'string' &&
    Number.isInteger(n.inputs) &&
    Number.isInteger(n.hidden) &&
    (n.inputs as number) > 0 &&
    (n.hidden as number) > 0
  );
}

/** Reads a weights file (raw bytes, as written by `encodeNeuralWeights`). */
export function decodeNeuralWeights(bytes: Uint8Array): Result<NeuralWeights, RulesError> {
  if (bytes.length < PREAMBLE + 4) return fail('file too short');
  for (let i = 0; i < MAGIC.length; i++)
    if (bytes[i] !== MAGIC.charCodeAt(i)) return fail('not a neural weights file (bad magic)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = view.getUint16(6, true);
  if (format !== NEURAL_FORMAT_VERSION) return fail(`unsupported format version ${format}`);
  const headerLength = view.getUint32(8, true);
  if (PREAMBLE + headerLength + 4 > bytes.length) return fail('truncated header');
  const stored = view.getUint32(bytes.length - 4, true);
  if (fnv1a(bytes, 0, bytes.length - 4) !== stored)
    return fail('checksum mismatch (corrupt or truncated file)');
  let header: unknown;
  try {
    header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREAMBLE, PREAMBLE + headerLength)),
    );
  } catch {
    return fail('header is not valid JSON');
  }
  if (typeof header !== 'object' || header === null) return fail('header is not an object');
  const h = header as Record<string, unknown>;
  if (!isFamily(h.family)) return fail('header.family must be "long" or "short"');
  if (typeof h.encoding !== 'string') return fail('header.encoding must be a string');
  if (!Array.isArray(h.networks) || h.networks.length === 0 || !h.networks.every(isHeaderNetwork))
    return fail('header.networks must list {name, inputs, hidden}');
  const list = h.networks as HeaderNetwork[];
  let at = Math.ceil((PREAMBLE + headerLength) / 4) * 4;
  const need = list.reduce((s, n) => s + 4 * parameterCount(n), 0);
  if (at + need + 4 !== bytes.length)
    return fail(`expected ${at + need + 4} bytes for the listed networks, found ${bytes.length}`);
  const networks: NamedNetwork[] = [];
  for (const n of list) {
    if (n.name !== 'contact' && n.name !== 'crashed' && n.name !== 'race') return fail(`unknown network "${n.name}"`);
    if (networks.some((m) => m.name === n.name)) return fail(`network "${n.name}" listed twice`);
    const read = (length: number): Float32Array => {
      const a = new Float32Array(length);
      for (let i = 0; i < length; i++, at += 4) a[i] = view.getFloat32(at, true);
      return a;
    };
    const parameters = {
      inputs: n.inputs,
      hidden: n.hidden,
      inputWeights: read(n.inputs * n.hidden),
      hiddenBias: read(n.hidden),
      outputWeights: read(NETWORK_OUTPUTS * n.hidden),
      outputBias: read(NETWORK_OUTPUTS),
    };
    for (const a of [
      parameters.inputWeights,
      parameters.hiddenBias,
      parameters.outputWeights,
      parameters.outputBias,
    ]) {
      for (let i = 0; i < a.length; i++)
        if (!Number.isFinite(a[i])) return fail(`network "${n.name}" holds a non-finite weight`);
    }
    networks.push({ name: n.name, parameters });
  }
  return ok({ family: h.family, encoding: h.encoding, networks });
}
