import { existsSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { NetworkTrainer, TrainerState } from '../../src/eval/neural/trainer';

/**
 * Training checkpoints: one JSON file with the trainer's parameters and
 * Adam moments (float64, base64), where the run stands, and its history.
 * Written atomically (temporary file, then rename), so a Ctrl-C during the
 * write leaves the previous checkpoint intact.
 */
export interface Checkpoint {
  readonly family: 'short' | 'long';
  /** Where the run stands (phase-specific counters: round, epoch, games, …). */
  readonly progress: Record<string, number>;
  readonly args: Record<string, string | number>;
  readonly history: Record<string, number | string>[];
  readonly trainer: TrainerState;
}

function toBase64(a: Float64Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

function fromBase64(s: string): Float64Array {
  const b = Buffer.from(s, 'base64');
  const out = new Float64Array(b.length / 8);
  new Uint8Array(out.buffer).set(b);
  return out;
}

export function saveCheckpoint(path: string, c: Checkpoint): void {
  const t = c.trainer;
  const json = JSON.stringify({
    format: 1,
    family: c.family,
    progress: c.progress,
    args: c.args,
    history: c.history,
    trainer: {
      inputs: t.inputs,
      hidden: t.hidden,
      steps: t.steps,
      parameters: toBase64(t.parameters),
      firstMoment: toBase64(t.firstMoment),
      secondMoment: toBase64(t.secondMoment),
    },
  });
  writeFileSync(`${path}.tmp`, json);
  renameSync(`${path}.tmp`, path);
}

export function loadCheckpoint(path: string): Checkpoint {
  if (!existsSync(path)) throw new Error(`no checkpoint at ${path}`);
  const raw = JSON.parse(readFileSync(path, 'utf8')) as {
    format: number;
    family: 'short' | 'long';
    progress: Record<string, number>;
    args: Record<string, string | number>;
    history: Record<string, number | string>[];
    trainer: {
      inputs: number;
      hidden: number;
      steps: number;
      parameters: string;
      firstMoment: string;
      secondMoment: string;
    };
  };
  if (raw.format !== 1) throw new Error(`${path}: unknown checkpoint format`);
  const t = raw.trainer;
  return {
    family: raw.family,
    progress: raw.progress,
    args: raw.args,
    history: raw.history,
    trainer: {
      inputs: t.inputs,
      hidden: t.hidden,
      steps: t.steps,
      parameters: fromBase64(t.parameters),
      firstMoment: fromBase64(t.firstMoment),
      secondMoment: fromBase64(t.secondMoment),
    },
  };
}

export function trainerOf(c: Checkpoint): NetworkTrainer {
  return new NetworkTrainer(c.trainer);
}
