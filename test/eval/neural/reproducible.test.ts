import { createHash } from 'crypto';
import { existsSync, readFileSync, readdirSync } from 'fs';
import { join } from 'path';
import { LONG_PRESETS, LongRules } from '../../../src/engine/long/rules';
import { longBearoffRuleSet } from '../../../src/eval/long/evaluator';
import { LONG_WEIGHTS_VERSION } from '../../../src/eval/long/weights';
import { loadNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { DEFAULT_DATA_DIR as DATA_DIR, bearoffFileName } from '../../../src/service/analysis/data';

const NETS_DIR = join(DATA_DIR, 'nets');

/**
 * Reproducibility audit of the committed networks (docs/neural.md,
 * "Reproducibility"): every input a manifest names — the teacher, the
 * parent network, the data files training read — must be in the tree with
 * the bytes it had. The manifests do not record input hashes, so the
 * sha256 of each input file as the networks were trained is recorded here;
 * a changed input file is a new gap.
 *
 * The gaps known today are listed by name with their reason. The test
 * fails when a new gap appears and also when a listed gap is closed without
 * updating the list, so the list stays the truth.
 */
const KNOWN_UNREPRODUCIBLE: Readonly<Record<string, readonly string[]>> = {
  // The teacher is a program outside the tree (the gnubg oracle), and the
  // labels it gave are training data that was not committed.
  'backgammon.bin': ['external teacher gnubg 1.07.001 0-ply (cubeless, money), through /work/shared/oracles/gnubg GnubgPool'],
  'backgammon-race.bin': ['external teacher gnubg 1.07.001 0-ply (cubeless, money), through /work/shared/oracles/gnubg GnubgPool'],
};

/** sha256 of the input files when the committed networks were trained. */
const RECORDED_SHA256: Readonly<Record<string, string>> = {
  'data/nets/backgammon.bin': '214e460736c8443d92e6435462918f1a1c37abc619eb0815356091049cfe6c5c',
  'data/nets/long.bin': '207805f346752744ade863d786e23e280046962aa03de4be4718b2cd64c73d18',
  // The first classic network (version 7b8f1005-82308), the starting point of the others; its own
  // bootstrap teacher td-mc-8x3000-3 was never committed (the tree has td-mc-6x2000-3).
  'data/nets/start/long-v1.bin': '34fb894dc53faf1df2068e8d9f2aef7c2569e27c7aa54565682d1768eef52690',
  // The first backgammon network, kept byte for byte as the starting point of its successors (--init).
  'data/nets/start/backgammon-v1.bin': 'd009eeb20b25ef62db4aea1209e6e93f0c4ed81186c89479764c2bde1217a173',
  'data/bearoff-standard.bin.gz': 'c8614030d2dbd64601ea1b4c15a58706e78712007fdc4d7ae6fe84809ebbf062',
  'data/bearoff-exact-only.bin.gz': 'ff8b0052dc28b0b3f71875261c1d339fd69d5b98978248579eed081e9e47ffa6',
};

interface Manifest {
  readonly family: 'short' | 'long';
  readonly file: string;
  readonly training: {
    readonly command: string;
    readonly preset?: string;
    readonly heuristic?: string;
    readonly teacher?: string;
    /** A pruning network: the full network it was distilled from. */
    readonly parentFile?: string;
  };
}

/** An input of a training run: a file of the tree (with its recorded hash) or a named program or weights set. */
type Input = { kind: 'file'; path: string } | { kind: 'heuristic'; version: string } | { kind: 'external'; name: string };

const ROOT = join(DATA_DIR, '..');

function manifests(): Manifest[] {
  return readdirSync(NETS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(NETS_DIR, f), 'utf8')) as Manifest);
}

/** The inputs a manifest names: its command line's --init parent, its teacher, the bear-off database of its rules. */
function inputsOf(m: Manifest): Input[] {
  const inputs: Input[] = [];
  const init = /--init\s+(\S+)/.exec(m.training.command);
  // `--init <name>` is data/nets/<name>.bin; a name with a slash is a path from the root (readNetFiles).
  if (init) {
    const base = init[1].replace(/\.bin$/, '');
    inputs.push({ kind: 'file', path: base.includes('/') ? `${base}.bin` : `data/nets/${base}.bin` });
  }
  // A race network (`--phase race`): its games are played to their races by the committed contact network of --contact.
  if (/--phase\s+race/.test(m.training.command)) {
    const contact = (/--contact\s+(\S+)/.exec(m.training.command)?.[1] ?? 'backgammon').replace(/\.bin$/, '');
    inputs.push({ kind: 'file', path: contact.includes('/') ? `${contact}.bin` : `data/nets/${contact}.bin` });
  }
  const parent = m.training.parentFile && `data/nets/${m.training.parentFile}`;
  if (parent && !inputs.some((i) => i.kind === 'file' && i.path === parent)) inputs.push({ kind: 'file', path: parent });
  if (m.family === 'long') {
    // The v1 heuristic: the bootstrap teacher and the quick-check opponent.
    if (m.training.heuristic) inputs.push({ kind: 'heuristic', version: m.training.heuristic.split('+')[0] });
    const rules: LongRules = LONG_PRESETS[(m.training.preset ?? 'long') as keyof typeof LONG_PRESETS];
    // Self-play scores races with the race evaluator over this database.
    inputs.push({ kind: 'file', path: `data/${bearoffFileName(longBearoffRuleSet(rules))}` });
  } else {
    if (m.training.teacher) inputs.push({ kind: 'external', name: m.training.teacher });
    inputs.push({ kind: 'file', path: `data/${bearoffFileName('standard')}` });
  }
  return inputs;
}

/** Why an input is not in the tree as it was, or null when it is. */
function gapOf(input: Input): string | null {
  switch (input.kind) {
    case 'file': {
      const full = join(ROOT, input.path);
      if (!existsSync(full)) return `${input.path} is missing`;
      const recorded = RECORDED_SHA256[input.path];
      if (!recorded) return `${input.path} has no recorded sha256`;
      const actual = createHash('sha256').update(readFileSync(full)).digest('hex');
      return actual === recorded ? null : `${input.path} changed (sha256 ${actual})`;
    }
    case 'heuristic':
      return input.version === LONG_WEIGHTS_VERSION ? null : `heuristic ${input.version} is not in the tree (it has ${LONG_WEIGHTS_VERSION})`;
    case 'external':
      return `external teacher ${input.name}`;
  }
}

describe('committed networks: their training inputs are in the tree', () => {
  const all = manifests();

  it('finds every committed network', () => {
    expect(all.map((m) => m.file).sort()).toEqual(
      ['backgammon-prune.bin', 'backgammon-race.bin', 'backgammon.bin', 'khachapuri.bin', 'long-prune.bin', 'long.bin'],
    );
  });

  it('the networks with a gap are exactly the known ones', () => {
    const gaps: Record<string, string[]> = {};
    for (const m of all) {
      const found = inputsOf(m).map(gapOf).filter((g): g is string => g !== null);
      if (found.length > 0) gaps[m.file] = found;
    }
    expect(gaps).toEqual(KNOWN_UNREPRODUCIBLE);
  });

  it.each([
    ['khachapuri', 'start/long-v1.bin'],
    ['long-prune', 'long.bin'],
    ['backgammon-prune', 'backgammon.bin'],
  ])('%s: its parent is the committed %s', (name, parent) => {
    const m = all.find((x) => x.file === `${name}.bin`) as Manifest;
    expect(inputsOf(m)).toContainEqual({ kind: 'file', path: `data/nets/${parent}` });
    expect(inputsOf(m).map(gapOf)).toEqual(inputsOf(m).map(() => null));
  });

  it('backgammon-race: its games were played by the committed contact network, whose bytes are recorded', () => {
    const m = all.find((x) => x.file === 'backgammon-race.bin') as Manifest;
    const contact: Input = { kind: 'file', path: 'data/nets/backgammon.bin' };
    expect(inputsOf(m)).toContainEqual(contact);
    expect(gapOf(contact)).toBeNull();
  });

  it('the kept starting networks are the bytes their manifests record, and load', () => {
    for (const name of ['long-v1', 'backgammon-v1']) {
      const m = JSON.parse(readFileSync(join(NETS_DIR, 'start', `${name}.json`), 'utf8')) as { file: string; sha256: string };
      const bytes = readFileSync(join(NETS_DIR, 'start', m.file));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(m.sha256);
      expect(m.sha256).toBe(RECORDED_SHA256[`data/nets/start/${m.file}`]);
      const loaded = loadNeuralEvaluator(new Uint8Array(bytes), JSON.parse(readFileSync(join(NETS_DIR, 'start', `${name}.json`), 'utf8')), {
        database: () => {
          throw new Error('not needed');
        },
      });
      expect(loaded.ok).toBe(true);
    }
  });

  it('a changed input file is a gap', () => {
    expect(gapOf({ kind: 'file', path: 'data/nets/khachapuri.bin' })).toBe('data/nets/khachapuri.bin has no recorded sha256');
    expect(gapOf({ kind: 'file', path: 'data/nets/missing.bin' })).toBe('data/nets/missing.bin is missing');
    expect(gapOf({ kind: 'heuristic', version: 'td-mc-8x3000-3' })).toMatch(/not in the tree/);
  });
});
