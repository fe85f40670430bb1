import { NeuralEncoding } from '../../src/eval/neural/encoding';
import { NetworkName, NeuralWeights } from '../../src/eval/neural/format';
import { NetworkTrainer } from '../../src/eval/neural/trainer';

/* The command line and output shared by the training scripts. */

/** `--name value` options; a bare `--flag` is 'true'. */
export type Args = Record<string, string>;

export function parseArgs(argv: string[]): Args {
  const args: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) args[a.slice(2)] = 'true';
    else {
      args[a.slice(2)] = next;
      i++;
    }
  }
  return args;
}

/** The number given as --name, or `fallback`. */
export function number(args: Args, name: string, fallback: number): number {
  const v = args[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
  return n;
}

/** A line of progress with the time of day. */
export function log(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** The trained network (the contact one unless `name` says otherwise) as weights to write. */
export function weightsOf(
  family: 'short' | 'long',
  encoding: NeuralEncoding,
  trainer: NetworkTrainer,
  name: NetworkName = 'contact',
): NeuralWeights {
  return {
    family,
    encoding: encoding.name,
    networks: [{ name, parameters: trainer.networkParameters() }],
  };
}
