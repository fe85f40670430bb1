import { existsSync, readFileSync } from 'fs';
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

function hasDataFile(...parts: string[]): boolean {
  return [join(__dirname, '..'), join(__dirname, '..', '..')].some((root) => existsSync(join(root, 'data', ...parts)));
}

export function database(ruleSet: BearoffRuleSet): BearoffDatabase {
  const loaded = loadBearoffDatabase(
    gunzipSync(dataFile(ruleSet === 'standard' ? 'bearoff-standard.bin.gz' : 'bearoff-exact-only.bin.gz')),
  );
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

/** A committed network by name, as the service loads it (with its race network `<name>-race`, where there is one). */
export function net(name: string): NeuralEvaluator {
  const files = (n: string) => ({
    bytes: new Uint8Array(dataFile('nets', `${n}.bin`)),
    manifest: JSON.parse(dataFile('nets', `${n}.json`).toString('utf8')) as unknown,
  });
  const main = files(name);
  const race = name === 'backgammon' && hasDataFile('nets', `${name}-race.bin`) ? files(`${name}-race`) : undefined;
  const loaded = loadNeuralEvaluator(main.bytes, main.manifest, {
    database: () => database('standard'),
    rules: name === 'long' ? CLASSIC : undefined,
    race,
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

