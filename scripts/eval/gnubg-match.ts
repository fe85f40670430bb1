import { spawn } from 'child_process';
import { join } from 'path';
import { ORACLE_DIR } from './gnubg-cases';

/**
 * Backgammon matches against gnubg through the oracle's play_vs_gnubg.py
 * (../shared/oracles/gnubg/README.md), shared by the strength instrument
 * (scripts/eval/strength.ts) and the neural measurements
 * (scripts/train/measure.ts). Play is cubeless with paired dice: games 2k
 * and 2k+1 share a dice stream with the seats swapped.
 */
export type GnubgBotKind = 'net' | 'heuristic';

export function isGnubgBotKind(name: string): name is GnubgBotKind {
  return name === 'net' || name === 'heuristic';
}

const TSX = join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');

/**
 * The command line of our bot process for the harness (JSON lines on
 * stdin/stdout): `net` is scripts/train/neural-bot.ts over a committed
 * network (searched as the service searches unless `prune` is off), `heuristic` is scripts/eval/gnubg-bot.ts over the v1 evaluator.
 */
export function gnubgBotCommand(kind: GnubgBotKind, plies: number, net?: string, prune: 'on' | 'off' = 'on'): string {
  switch (kind) {
    case 'net':
      return `${TSX} ${join(__dirname, '..', 'train', 'neural-bot.ts')} --plies ${plies}${net ? ` --net ${net}` : ''}${prune === 'off' ? ' --prune off' : ''}`;
    case 'heuristic':
      return `${TSX} ${join(__dirname, 'gnubg-bot.ts')} --plies ${plies}`;
  }
}

export interface GnubgMatchOptions {
  readonly bot: string;
  readonly games: number;
  /** gnubg's search depth (0 = its static network). */
  readonly gnubgPlies: number;
  readonly workers: number;
  readonly seed: number;
}

/** The harness's JSON summary (the fields read here; it prints more). */
export interface GnubgMatchSummary {
  readonly ppg: number;
  readonly stderr: number;
  /** Standard error over pairs; null when the harness played unpaired games. */
  readonly stderrPairs: number | null;
  readonly botWins: number;
  readonly games: number;
  readonly illegal: number;
}

/** Runs play_vs_gnubg.py and returns its summary and its raw JSON output. */
export async function playVersusGnubg(
  options: GnubgMatchOptions,
): Promise<{ summary: GnubgMatchSummary; output: string }> {
  const args = [
    join(ORACLE_DIR, 'play_vs_gnubg.py'),
    '--bot',
    options.bot,
    '--games',
    String(options.games),
    '--plies',
    String(options.gnubgPlies),
    '--workers',
    String(options.workers),
    '--seed',
    String(options.seed),
    '--quiet',
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('python3', args, { cwd: ORACLE_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`play_vs_gnubg.py exited with ${code}`)),
    );
  });
  return { summary: JSON.parse(output) as GnubgMatchSummary, output: output.trim() };
}
