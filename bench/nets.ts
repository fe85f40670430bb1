import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { gunzipSync } from 'zlib';
import { CLASSIC } from '../src/engine/long/rules';
import { BearoffRuleSet } from '../src/eval/bearoff/build';
import { BearoffDatabase, loadBearoffDatabase } from '../src/eval/bearoff/database';
import { NeuralEvaluator, loadNeuralEvaluator } from '../src/eval/neural/evaluator';

/** Where `data/<parts>` is: tsx runs from bench/, the compiled bench from dist-bench/bench/; null if in neither. */
function dataPath(...parts: string[]): string | null {
  for (const root of [join(__dirname, '..'), join(__dirname, '..', '..')]) {
    const path = join(root, 'data', ...parts);
    if (existsSync(path)) return path;
  }
  return null;
}

/** The committed networks for the benchmarks (run by tsx from bench/ or compiled from dist-bench/bench/). */
export function dataFile(...parts: string[]): Buffer {
  const path = dataPath(...parts);
  if (path === null) throw new Error(`data/${parts.join('/')} not found`);
  return readFileSync(path);
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
  const race = name === 'backgammon' && dataPath('nets', `${name}-race.bin`) !== null ? files(`${name}-race`) : undefined;
  const loaded = loadNeuralEvaluator(main.bytes, main.manifest, {
    database: () => database('standard'),
    rules: name === 'long' ? CLASSIC : undefined,
    race,
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

