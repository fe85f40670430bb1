import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { loadNeuralEvaluator } from '../../../src/eval/neural/evaluator';

/*
 * Smoke test of the training pipeline (`npm run train`): a few seeded TD
 * games of long nardy with a tiny network, stopped and resumed from its
 * checkpoint, give exactly the network of an uninterrupted run, and the
 * written files load as an evaluator.
 */

const ROOT = resolve(__dirname, '../../..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const COMMON = ['--family', 'long', '--bootstrap', '0', '--hidden', '8', '--batch-games', '10', '--check-every', '10', '--check-games', '2', '--seed', '3'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'nardy-train-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function train(extra: string[]): string {
  const run = spawnSync(TSX, [join(ROOT, 'scripts', 'train', 'train.ts'), ...COMMON, ...extra], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`train exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  return run.stdout;
}

function manifestOf(base: string): { version: string; training: { tdGames: number; history: unknown[] } } {
  return JSON.parse(readFileSync(`${base}.json`, 'utf8')) as { version: string; training: { tdGames: number; history: unknown[] } };
}

describe('npm run train (long nardy, smoke)', () => {
  it('resumes from its checkpoint to exactly the network of an uninterrupted run', () => {
    const resumed = join(dir, 'resumed');
    const straight = join(dir, 'straight');
    train(['--games', '20', '--out', resumed, '--work', join(dir, 'work-a')]);
    const log = train(['--games', '40', '--out', resumed, '--work', join(dir, 'work-a'), '--resume', join(dir, 'work-a', 'long-long-seed3.ckpt.json')]);
    expect(log).toMatch(/resumed .*20 TD games/);
    train(['--games', '40', '--out', straight, '--work', join(dir, 'work-b')]);
    const a = manifestOf(resumed);
    const b = manifestOf(straight);
    expect(a.training.tdGames).toBe(40);
    expect(a.version).toBe(b.version);
    expect(readFileSync(`${resumed}.bin`).equals(readFileSync(`${straight}.bin`))).toBe(true);
    expect(a.training.history).toHaveLength(4);

    // The files load as an evaluator (the race evaluator's database is not needed for the start).
    const loaded = loadNeuralEvaluator(new Uint8Array(readFileSync(`${resumed}.bin`)), JSON.parse(readFileSync(`${resumed}.json`, 'utf8')), {
      database: () => {
        throw new Error('no race position here');
      },
    });
    expect(loaded.ok).toBe(true);
    if (loaded.ok) {
      const board = new Int8Array(26);
      board[24] = 15; // the mover's head
      board[12] = -15; // the opponent's head is the mover's 12 (COM-5)
      const p = loaded.value.evaluate(board);
      expect(p.win).toBeGreaterThan(0);
      expect(p.win).toBeLessThan(1);
    }
  });
});
