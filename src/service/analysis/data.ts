import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { gunzipSync } from 'zlib';
import { LONG_PRESETS } from '../../engine/long/rules';
import { BearoffSource } from '../../eval/analysis';
import { BearoffRuleSet } from '../../eval/bearoff/build';
import { BearoffDatabase, SharedBearoffTables, loadBearoffDatabase } from '../../eval/bearoff/database';
import { createLongEvaluator, longBearoffRuleSet } from '../../eval/long/evaluator';
import { loadNeuralEvaluator } from '../../eval/neural/evaluator';
import { loadPruningNetwork } from '../../eval/neural/pruning';
import { PRUNING_DEFAULTS, PruningFilter, withPruning } from '../../eval/prune';
import { createShortEvaluator } from '../../eval/short/evaluator';
import { BearoffPositionsFile } from '../../eval/neural/net-checks';
import { BenchmarkDecision, parseBenchmark, parseSubmission } from '../../eval/long/benchmark';
import { Evaluator, Family } from '../../eval/evaluator';
import { EvaluatorSet } from './evaluators';

/**
 * The file side of evaluation (the evaluators in src/eval are pure and take
 * bytes): the committed one-sided bear-off databases `data/bearoff-*.bin.gz`
 * and networks `data/nets/<name>.{bin,json}` (docs/evaluation.md, docs/neural.md).
 */
export const DEFAULT_DATA_DIR = findDataDir(__dirname);

/**
 * The package's `data/` folder: three levels above this file in `src/` and
 * `dist/`, four in the benchmark build (`dist-bench/src/`).
 */
function findDataDir(from: string): string {
  const near = join(from, '..', '..', '..', 'data');
  for (const dir of [near, join(from, '..', '..', '..', '..', 'data')]) {
    if (existsSync(join(dir, 'nets'))) return dir;
  }
  return near;
}

/** The evaluator kinds the service can run (`EVALUATOR`). */
export const EVALUATOR_KINDS = ['neural', 'heuristic'] as const;
export type EvaluatorKind = (typeof EVALUATOR_KINDS)[number];

function readFile(path: string, hint: string): Buffer {
  if (!existsSync(path)) throw new Error(`${path} is missing (${hint})`);
  return readFileSync(path);
}

/** File name of a rule set's one-sided bear-off database under data/. */
export function bearoffFileName(ruleSet: BearoffRuleSet): string {
  return ruleSet === 'standard' ? 'bearoff-standard.bin.gz' : 'bearoff-exact-only.bin.gz';
}

/**
 * Reads each bear-off database once, on first use. The one reader of these
 * files: the service, the tests and the research scripts all come here.
 */
export function fileBearoffSource(dir = DEFAULT_DATA_DIR): BearoffSource {
  const cache = new Map<BearoffRuleSet, BearoffDatabase>();
  return (ruleSet) => {
    const hit = cache.get(ruleSet);
    if (hit) return hit;
    const path = join(dir, bearoffFileName(ruleSet));
    const loaded = loadBearoffDatabase(gunzipSync(readFile(path, 'npm run build:bearoff writes it')));
    if (!loaded.ok) throw new Error(`${path}: ${loaded.error.message}`);
    cache.set(ruleSet, loaded.value);
    return loaded.value;
  };
}

const BEAROFF_RULE_SETS: readonly BearoffRuleSet[] = ['standard', 'exactOnly'];

/**
 * Both bear-off databases read now and placed in shared memory, for a
 * process with worker threads: every thread reads the same tables
 * (`sharedBearoffSource`), so memory does not grow by them per worker.
 */
export function loadSharedBearoff(dir = DEFAULT_DATA_DIR): SharedBearoffTables[] {
  const files = fileBearoffSource(dir);
  return BEAROFF_RULE_SETS.map((ruleSet) => files(ruleSet).shared().tables);
}

/** A bear-off source over tables shared by another thread (`loadSharedBearoff`). */
export function sharedBearoffSource(tables: readonly SharedBearoffTables[]): BearoffSource {
  const databases = new Map<BearoffRuleSet, BearoffDatabase>(tables.map((t) => [t.ruleSet, BearoffDatabase.fromSharedTables(t)]));
  return (ruleSet) => {
    const database = databases.get(ruleSet);
    if (!database) throw new Error(`no shared bear-off database for the ${ruleSet} rule set`);
    return database;
  };
}

export interface NetFiles {
  readonly bytes: Uint8Array;
  readonly manifest: unknown;
}

function readNet(dir: string, name: string): NetFiles {
  return readNetFiles(join(dir, 'nets', name));
}

/** A network's `<base>.bin` and its manifest `<base>.json` (the one reader of these files). */
export function readNetFiles(base: string): NetFiles {
  return {
    bytes: new Uint8Array(readFile(`${base}.bin`, 'npm run train writes it')),
    manifest: JSON.parse(readFile(`${base}.json`, 'npm run train writes it').toString('utf8')) as unknown,
  };
}

/** The race network beside the network at `base` (`<base>-race.{bin,json}`, backgammon), if there is one. */
export function raceNetBeside(base: string): NetFiles | undefined {
  return existsSync(`${base}-race.bin`) ? readNetFiles(`${base}-race`) : undefined;
}

/**
 * The trained networks (the default): `data/nets/backgammon` for
 * short nardy (with its race network `backgammon-race` where there is one), `data/nets/<preset>` for a long-family preset that has its
 * own network (khachapuri) and `data/nets/long` for the rest, with the
 * exact bear-off databases taking over in races. A network with a pruning
 * network beside it (`<name>-prune`, src/eval/prune.ts) gets it attached
 * with its family's filter of `pruning` (by default `PRUNING_DEFAULTS`:
 * backgammon only, where it pays; `FULL_WIDTH` scores every reply with the
 * full network). Files are read once, at `preload` or on first
 * use; a missing or corrupt file throws with its path.
 */
export function neuralEvaluators(
  dir = DEFAULT_DATA_DIR,
  bearoff: BearoffSource = fileBearoffSource(dir),
  pruning: Readonly<Record<Family, PruningFilter | null>> = PRUNING_DEFAULTS,
): EvaluatorSet {
  const nets = new Map<string, NetFiles>();
  const net = (name: string): NetFiles => {
    let files = nets.get(name);
    if (!files) {
      files = readNet(dir, name);
      nets.set(name, files);
    }
    return files;
  };
  /** Whether `data/nets/<name>.bin` is there. */
  const present = (name: string): boolean => existsSync(join(dir, 'nets', `${name}.bin`));
  const ownNet = (preset: string): boolean => /^[a-z-]+$/.test(preset) && present(preset);
  const load = (name: string, options: Parameters<typeof loadNeuralEvaluator>[2]): Evaluator => {
    const files = net(name);
    // A race network beside it (`<name>-race`, backgammon): races before the bear-off go to it.
    const race = present(`${name}-race`) ? net(`${name}-race`) : undefined;
    const loaded = loadNeuralEvaluator(files.bytes, files.manifest, { ...options, race });
    if (!loaded.ok) throw new Error(`${join(dir, 'nets', name)}: ${loaded.error.message}`);
    const filter = pruning[loaded.value.family];
    if (filter === null || !present(`${name}-prune`)) return loaded.value;
    const pruner = net(`${name}-prune`);
    const network = loadPruningNetwork(pruner.bytes, pruner.manifest);
    const pruned = network.ok ? withPruning(loaded.value, network.value, filter) : network;
    if (!pruned.ok) throw new Error(`${join(dir, 'nets', `${name}-prune`)}: ${pruned.error.message}`);
    return pruned.value;
  };
  return {
    kind: 'neural',
    short: (rules) => load('backgammon', { database: () => bearoff('standard'), scoring: rules.scoring }),
    // A preset trained on its own (docs/neural.md) has data/nets/<preset>.bin; the others use the classic net.
    long: (rules, preset) =>
      load(ownNet(preset) ? preset : 'long', { rules, database: () => bearoff(longBearoffRuleSet(rules)) }),
    preload() {
      net('backgammon');
      if (present('backgammon-race')) net('backgammon-race');
      net('long');
      for (const preset of Object.keys(LONG_PRESETS)) if (ownNet(preset)) net(preset);
    },
  };
}

/** The v1 heuristic evaluators: linear contact evaluators and the same exact races. */
export function heuristicEvaluators(dir = DEFAULT_DATA_DIR, bearoff: BearoffSource = fileBearoffSource(dir)): EvaluatorSet {
  return {
    kind: 'heuristic',
    short: (rules) => createShortEvaluator({ database: () => bearoff('standard'), scoring: rules.scoring }),
    long: (rules) => createLongEvaluator({ rules, database: () => bearoff(longBearoffRuleSet(rules)) }),
  };
}

/** The evaluator set of a kind. */
export function evaluatorsOf(kind: EvaluatorKind, dir = DEFAULT_DATA_DIR, bearoff: BearoffSource = fileBearoffSource(dir)): EvaluatorSet {
  return kind === 'neural' ? neuralEvaluators(dir, bearoff) : heuristicEvaluators(dir, bearoff);
}

/** The committed bear-off positions of the networks' yardstick (scripts/eval/bearoff-positions.ts writes them). */
export const BEAROFF_POSITIONS_FILE = join(DEFAULT_DATA_DIR, 'benchmarks', 'bearoff-positions.json');

export function readBearoffPositions(path = BEAROFF_POSITIONS_FILE): BearoffPositionsFile {
  return JSON.parse(readFile(path, 'npx tsx scripts/eval/bearoff-positions.ts writes it').toString('utf8')) as BearoffPositionsFile;
}

/** The committed long-nardy benchmark (scripts/eval/long-benchmark.ts writes it; docs/strength.md). */
export const LONG_BENCHMARK_FILE = join(DEFAULT_DATA_DIR, 'benchmarks', 'long-classic.jsonl');

/** The decisions of a long-nardy benchmark file (none if it does not exist). */
export function readBenchmark(path = LONG_BENCHMARK_FILE): BenchmarkDecision[] {
  return existsSync(path) ? parseBenchmark(readFileSync(path, 'utf8')) : [];
}

/**
 * An outside engine's choices on the benchmark (README, "For outside
 * engines"), by decision id; a line that is not one throws with the path
 * and its line number.
 */
export function readSubmission(path: string): Map<number, string> {
  return parseSubmission(readFileSync(path, 'utf8'), path);
}
