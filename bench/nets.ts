import { readFileSync } from 'fs';
import { join } from 'path';
import { gunzipSync } from 'zlib';
import { CLASSIC } from '../src/engine/long/rules';
import { BearoffRuleSet } from '../src/eval/bearoff/build';
import { BearoffDatabase, loadBearoffDatabase } from '../src/eval/bearoff/database';
import { NeuralEvaluator, loadNeuralEvaluator } from '../src/eval/neural/evaluator';

/** The committed networks for the benchmarks (run by tsx from bench/ or compiled from dist-bench/bench/). */
export function dataFile(...parts: string[]): Buffer {
  for (const root of [join(__dirname, '..'), join(__dirname, '..', '..')]) {
    try {
      return readFileSync(join(root, 'data', ...parts));
    } catch {
      // tsx runs from bench/, the compiled bench from dist-bench/bench/
    }
  }
  throw new Error(`data/${parts.join('/')} not found`);
}

export function database(ruleSet: BearoffRuleSet): BearoffDatabase {
  const loaded = loadBearoffDatabase(
    gunzipSync(dataFile(ruleSet === 'standard' ? 'bearoff-standard.bin.gz' : 'bearoff-exact-only.bin.gz')),
  );
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

export function net(name: string): NeuralEvaluator {
  const bytes = new Uint8Array(dataFile('nets', `${name}.bin`));
  const manifest = JSON.parse(dataFile('nets', `${name}.json`).toString('utf8')) as unknown;
  const loaded = loadNeuralEvaluator(bytes, manifest, {
    database: () => database('standard'),
    rules: name === 'long' ? CLASSIC : undefined,
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

