import { spawn } from 'child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { join } from 'path';
import { addLabelLines, fitLabels, labelGames } from '../../src/eval/neural/distill';
import { encodingFor } from '../../src/eval/neural/evaluator';
import { decodeNeuralWeights, weightsHash } from '../../src/eval/neural/format';
import { NetworkTrainer } from '../../src/eval/neural/trainer';
import { presetRules } from '../../src/eval/long/self-play';
import { Dataset } from './dataset';
import { Args, log, number, parseArgs, weightsOf } from './cli';
import { asServed, readLongNet, readNetFiles, startingParameters, writeNet } from './nets';

/**
 * Search distillation for the long family (docs/neural.md): the 0-ply
 * network is trained, supervised, towards its own deeper search.
 *
 *   npx tsx scripts/train/distill.ts --init long [--preset long] [--games 4000] [--plies 1]
 *     [--epsilon 0.05] [--alt 0.5] [--rounds 1] [--epochs 4] [--lr 1e-4] [--batch 64]
 *     [--workers 2] [--chunk 100] [--seed 1] [--encoding long-1] [--out /tmp/nardy-distill/long] [--work /tmp/nardy-distill]
 *
 * --encoding long-2 trains a long-2 network from a long-1 parent (its new
 * inputs start at zero weight: the parent's function) on the same labels.
 * Each round plays --games seeded self-play games with the current network
 * at 0 ply (a random play with probability --epsilon), and takes every
 * contact position before a roll, plus, with probability --alt at each
 * decision, the position one random other legal play would have left (the
 * positions the 0-ply choice compares). Each position is labelled with the
 * current network's value at --plies (1: the mean over the 21 rolls of the
 * best 0-ply reply; 2 with the committed pruning network as the service
 * searches). Labelling runs in --workers child processes over chunks of
 * --chunk games; a chunk's labels depend only on the seed, its games and
 * the network, so the result does not depend on the worker count, and a
 * stopped run resumes at the chunks already written to --work.
 *
 * The network is then trained from its current weights on the labels of
 * all rounds so far (cross-entropy on the five outputs, Adam, the rate
 * halved at each third of --epochs), one position in 50 held out. The
 * next round plays and labels with the network so trained. The self-play,
 * labelling and fit are src/eval/neural/distill.ts.
 */

/** Runs `tsx distill.ts label …` children over the chunks not yet in `work`, `workers` at a time. */
async function labelChunks(
  chunks: { from: number; to: number; path: string }[],
  childArgs: (from: number, to: number, path: string) => string[],
  workers: number,
): Promise<void> {
  const tsx = join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
  const todo = chunks.filter((c) => !existsSync(c.path));
  let next = 0;
  let done = chunks.length - todo.length;
  const started = Date.now();
  const run = async (): Promise<void> => {
    while (next < todo.length) {
      const c = todo[next++];
      await new Promise<void>((resolve, reject) => {
        const child = spawn(tsx, [__filename, ...childArgs(c.from, c.to, c.path)], { stdio: 'inherit' });
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve() : reject(new Error(`labeller exited with ${code}`)),
        );
      });
      done++;
      log(
        `  chunk ${done}/${chunks.length} (games ${c.from}..${c.to}) labelled, ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, run));
}

/** Child: labels one chunk of games into a file (written atomically). */
function labelChild(args: Args): void {
  const rules = presetRules(args.preset ?? 'long');
  const plies = number(args, 'plies', 1);
  const net = readLongNet(rules, args.net);
  // The service searches 2 plies with the pruning network when one exists; 1 ply has nothing to prune.
  const labeller = plies >= 2 ? asServed(net, args['prune-as'] ?? 'long') : net;
  const text = labelGames(rules, net, labeller, {
    seed: number(args, 'seed', 1),
    from: number(args, 'from', 0),
    to: number(args, 'to', 0),
    plies,
    epsilon: number(args, 'epsilon', 0.05),
    alt: number(args, 'alt', 0.5),
  });
  writeFileSync(`${args.file}.tmp`, text);
  renameSync(`${args.file}.tmp`, args.file);
}

async function distill(args: Args): Promise<void> {
  const preset = args.preset ?? 'long';
  const rules = presetRules(preset);
  const init = args.init ?? 'long';
  const games = number(args, 'games', 4000);
  const plies = number(args, 'plies', 1);
  const epsilon = number(args, 'epsilon', 0.05);
  const alt = number(args, 'alt', 0.5);
  const rounds = number(args, 'rounds', 1);
  const epochs = number(args, 'epochs', 4);
  const lr = number(args, 'lr', 1e-4);
  const batch = number(args, 'batch', 64);
  const workers = number(args, 'workers', 2);
  const chunk = number(args, 'chunk', 100);
  const seed = number(args, 'seed', 1);
  const work = args.work ?? '/tmp/nardy-distill';
  const out = args.out ?? join(work, preset === 'long' ? 'long' : `long-${preset}`);
  if (plies !== 1 && plies !== 2) throw new Error('--plies must be 1 or 2');
  mkdirSync(work, { recursive: true });
  const encoding = encodingFor('long', args.encoding ?? 'long-1');
  if (!encoding) throw new Error(`unknown long encoding ${args.encoding}`);
  const { bytes } = readNetFiles(init);
  const decoded = decodeNeuralWeights(bytes);
  if (!decoded.ok) throw new Error(decoded.error.message);
  const parent = encodingFor('long', decoded.value.encoding);
  if (!parent) throw new Error(`${init} uses encoding ${decoded.value.encoding}`);
  // A wider encoding than the parent's (long-1 → long-2): the parent's function, the new inputs' weights zero.
  const trainer = NetworkTrainer.fromParameters(startingParameters(decoded.value, encoding));
  log(
    `starting from ${init} (${weightsHash(bytes)}, ${parent.name}${parent.name !== encoding.name ? ` → ${encoding.name}` : ''})`,
  );
  const data = new Dataset(26, 1 << 16);
  const history: Record<string, number | string>[] = [];
  // The network that plays and labels round r: the parent, then each round's result (as a file the children read).
  let player = init;
  for (let round = 1; round <= rounds; round++) {
    const playerHash = weightsHash(readNetFiles(player).bytes).slice(0, 12);
    const roundSeed = seed * 1000 + round;
    const chunks: { from: number; to: number; path: string }[] = [];
    for (let from = 0; from < games; from += chunk) {
      const to = Math.min(games, from + chunk);
      chunks.push({
        from,
        to,
        path: join(
          work,
          `labels-${preset}-${playerHash}-p${plies}-e${epsilon}-a${alt}-s${roundSeed}-g${from}-${to}.jsonl`,
        ),
      });
    }
    log(`round ${round}: ${games} games with ${player} at 0 ply, ${plies}-ply labels (${workers} workers)`);
    await labelChunks(
      chunks,
      (from, to, path) => [
        'label',
        '--preset',
        preset,
        '--net',
        player,
        '--plies',
        String(plies),
        '--seed',
        String(roundSeed),
        '--from',
        String(from),
        '--to',
        String(to),
        '--epsilon',
        String(epsilon),
        '--alt',
        String(alt),
        '--file',
        path,
      ],
      workers,
    );
    for (const c of chunks) addLabelLines(readFileSync(c.path, 'utf8'), data);
    log(`round ${round}: ${data.count} labelled positions in all`);
    fitLabels(
      trainer,
      encoding,
      data,
      rules,
      { epochs, lr, batch, seed: seed * 31 + round },
      (epoch, trainLoss, loss, error) => {
        log(
          `round ${round} epoch ${epoch}/${epochs}: train loss ${trainLoss.toFixed(4)}, held-out loss ${loss.toFixed(4)}, equity error ${error.toFixed(4)}`,
        );
        history.push({
          round,
          epoch,
          positions: data.count,
          holdoutLoss: +loss.toFixed(5),
          holdoutEquityError: +error.toFixed(4),
        });
      },
    );
    const target = round === rounds ? out : join(work, `round-${round}-s${seed}`);
    const manifest = writeNet(target, weightsOf('long', encoding, trainer), {
      name: preset === 'long' ? 'neural-long' : `neural-long-${preset}`,
      training: {
        method: `started from ${init}, then ${round} round(s) of search distillation: 0-ply self-play positions labelled by the network's own ${plies}-ply values, supervised`,
        preset,
        games,
        plies,
        epsilon,
        alt,
        rounds: round,
        epochs,
        lr,
        labelledPositions: data.count,
        hidden: trainer.hidden,
        seed,
        command: `npx tsx scripts/train/distill.ts ${process.argv.slice(2).join(' ')}`,
        date: new Date().toISOString().slice(0, 10),
        history,
      },
    });
    log(`wrote ${target}.bin (${manifest.version})`);
    player = target;
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'label') labelChild(parseArgs(rest));
  else await distill(parseArgs(process.argv.slice(2)));
}

if (require.main === module)
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exitCode = 1;
  });
