import { CLASSIC } from '../../../src/engine/long/rules';
import { createNeuralEvaluator, loadNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { decodeNeuralWeights, encodeNeuralWeights, weightsHash } from '../../../src/eval/neural/format';
import { NeuralManifest } from '../../../src/eval/neural/manifest';
import { database } from '../support';
import { randomWeights, shortPositions } from './support';

function manifestOf(bytes: Uint8Array, family: 'short' | 'long'): NeuralManifest {
  return {
    family,
    name: `neural-${family}`,
    format: 1,
    encoding: family === 'short' ? 'short-1' : 'long-1',
    version: weightsHash(bytes),
    file: 'x.bin',
    networks: [{ name: 'contact', inputs: family === 'short' ? 210 : 208, hidden: 8 }],
    training: {},
  };
}

describe('neural weights format', () => {
  const weights = randomWeights('short');
  const bytes = encodeNeuralWeights(weights);

  it('round-trips the weights exactly (float32)', () => {
    const decoded = decodeNeuralWeights(bytes);
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(decoded.value.family).toBe('short');
    expect(decoded.value.encoding).toBe('short-1');
    const a = weights.networks[0].parameters;
    const b = decoded.value.networks[0].parameters;
    expect(b.inputs).toBe(a.inputs);
    expect(b.hidden).toBe(a.hidden);
    expect(Array.from(b.inputWeights)).toEqual(Array.from(a.inputWeights));
    expect(Array.from(b.hiddenBias)).toEqual(Array.from(a.hiddenBias));
    expect(Array.from(b.outputWeights)).toEqual(Array.from(a.outputWeights));
    expect(Array.from(b.outputBias)).toEqual(Array.from(a.outputBias));
    // Writing again gives the same bytes, hence the same version.
    expect(weightsHash(encodeNeuralWeights(decoded.value))).toBe(weightsHash(bytes));
  });

  it('evaluates the same from the loaded bytes as from the weights', () => {
    const options = { database: () => database('standard') };
    const loaded = loadNeuralEvaluator(bytes, manifestOf(bytes, 'short'), options);
    const direct = createNeuralEvaluator(weights, options);
    if (!loaded.ok || !direct.ok) throw new Error('load failed');
    expect(loaded.value.version).toContain(weightsHash(bytes));
    for (const board of shortPositions(2, 20))
      expect(loaded.value.evaluate(board)).toEqual(direct.value.evaluate(board));
  });

  it.each([
    ['an empty file', new Uint8Array(0), /too short/],
    ['bad magic', Uint8Array.from(bytes, (b, i) => (i === 0 ? 0x41 : b)), /bad magic/],
    ['a changed weight', Uint8Array.from(bytes, (b, i) => (i === 500 ? b ^ 0x10 : b)), /checksum/],
    ['a truncated file', bytes.slice(0, bytes.length - 100), /checksum/],
    ['an unknown format version', Uint8Array.from(bytes, (b, i) => (i === 6 ? 9 : b)), /format version 9/],
  ])('rejects %s with a clear error', (_name, corrupt, message) => {
    const r = decodeNeuralWeights(corrupt);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('INVALID_REQUEST');
      expect(r.error.message).toMatch(/^neural weights: /);
      expect(r.error.message).toMatch(message);
    }
  });

  it('refuses bytes that are not the file of the manifest, and a bad manifest', () => {
    const other = encodeNeuralWeights(randomWeights('short', 8, 99));
    const options = { database: () => database('standard') };
    const r = loadNeuralEvaluator(other, manifestOf(bytes, 'short'), options);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/not the file the manifest describes/);
    const bad = loadNeuralEvaluator(bytes, { ...manifestOf(bytes, 'short'), family: 'chess' }, options);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/^neural manifest: family/);
    const wrongFamily = loadNeuralEvaluator(
      bytes,
      { ...manifestOf(bytes, 'long') },
      { ...options, rules: CLASSIC },
    );
    expect(wrongFamily.ok).toBe(false);
  });

  it('refuses weights whose sizes do not fit the encoding', () => {
    const w = randomWeights('long');
    const r = createNeuralEvaluator(
      { ...w, encoding: 'short-1', family: 'short' },
      { database: () => database('standard') },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/contact network has 208 inputs; it reads 210 \(encoding short-1\)/);
  });
});
