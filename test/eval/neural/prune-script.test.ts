import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { loadPruningNetwork } from '../../../src/eval/neural/pruning';
import { readNetFiles } from '../../../src/service/analysis/nets';

/*
 * Smoke test of the pruning-network distillation (`npm run train:prune`):
 * the same seeded command writes the same bytes twice, and the files load
 * as a pruning network of the committed backgammon network.
 */

const ROOT = resolve(__dirname, '../../..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'nardy-prune-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function distil(out: string): void {
  const args = ['--family', 'backgammon', '--positions', '1500', '--epochs', '2', '--hidden', '4', '--seed', '5', '--out', out];
  const run = spawnSync(TSX, [join(ROOT, 'scripts', 'train', 'prune.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`train:prune exited ${run.status}: ${run.stderr.slice(0, 500)}`);
}

describe('npm run train:prune (smoke)', () => {
  it('is deterministic and writes a loadable pruning network of the committed parent', () => {
    distil(join(dir, 'a'));
    distil(join(dir, 'b'));
    const bytes = readFileSync(join(dir, 'a.bin'));
    expect(bytes.equals(readFileSync(join(dir, 'b.bin')))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')) as { training: { parent: string } };
    const loaded = loadPruningNetwork(new Uint8Array(bytes), manifest);
    expect(loaded.ok).toBe(true);
    if (loaded.ok) {
      expect(loaded.value.encoding.name).toBe('short-raw-1');
      expect(loaded.value.network.hidden).toBe(4);
    }
    expect(manifest.training.parent).toBe((readNetFiles('backgammon').manifest as { version: string }).version);
  });
});
