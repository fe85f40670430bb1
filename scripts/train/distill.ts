import { spawn } from 'child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { join } from 'path';
import { Dice } from '../../src/engine/dice';
import { winnerOf } from '../../src/engine/long/game';
import { LongRules } from '../../src/engine/long/rules';
import { LongState, legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { longOutcomeValues } from '../../src/eval/equity';
import { Evaluator } from '../../src/eval/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { isLongRace } from '../../src/eval/race';
import { NeuralEncoding } from '../../src/eval/neural/encoding';
import { encodingFor } from '../../src/eval/neural/evaluator';
import { decodeNeuralWeights, weightsHash } from '../../src/eval/neural/format';
import { NetworkTrainer } from '../../src/eval/neural/trainer';
import { presetRules } from '../eval/long-match';
import { Dataset, shuffle, trainPass, validate } from './dataset';
import { LongChooser, LongSelfPlay } from '../../src/eval/neural/self-play';
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
 * next round plays and labels with the network so trained.
 */



/** The seed of game `game` of a run: independent of how the games are split into chunks. */
export function gameSeed(seed: number, game: number): number {
  return (seed * 1000003 + game * 7919 + 17) >>> 0;
}

/**
 * The positions of one seeded self-play game worth labelling: every
 * contact position before a roll (nothing pending), and, with probability
 * `alt` at each such decision, the state a random other legal play would
 * have left (when it is a contact position and the opponent's roll).
 * Races are left to the race evaluator. `epsilon` is the probability of
 * playing a random legal play instead of the 0-ply choice.
 */
export function distillationPositions(
  rules: Readonly<LongRules>,
  chooser: LongChooser,
  random: SeededRandom,
  epsilon: number,
  alt: number,
): LongState[] {
  // The game flow is the reducer's, as in playTdGame (LN-START-1: the roll-off's winner rolls again).
  const game = new LongSelfPlay(rules, random.below(2) === 0 ? 'white' : 'black');
  const out: LongState[] = [];
  for (let stage = 0; stage < 5000 && !game.result; stage++) {
    const state = game.position;
    const dice: Dice | undefined = game.needsRoll ? random.dice() : undefined;
    const answer = legalLongTurns(rules as LongRules, state, dice);
    if (!answer.ok) throw new Error(`self-play: ${answer.error.code} ${answer.error.message}`);
    const turns = answer.value.turns;
    const before = state.pending.length === 0 && dice !== undefined;
    if (before && !isLongRace(state.position.board)) out.push(state);
    let k = chooser.best(state, turns);
    if (before && alt > 0 && turns.length > 1 && random.next() < alt) {
      // Another play than the chosen one: the 0-ply choice ranks these too.
      let j = random.below(turns.length - 1);
      if (j >= k) j++;
      const other = turns[j].state;
      if (other.pending.length === 0 && !winnerOf(other) && !isLongRace(other.position.board))
        out.push(other);
    }
    if (epsilon > 0 && random.next() < epsilon) k = random.below(turns.length);
    const forced = game.step(dice, turns[k]);
    // Stages the reducer played without a choice draw for exploration as any other (the seeded stream of playTdGame).
    for (let f = 0; f < forced; f++) {
      stage++;
      if (epsilon > 0 && random.next() < epsilon) random.below(1);
    }
  }
  return out;
}

/** One labelled position: a board seen from the side to move and its five probabilities at the label depth. */
export interface Label {
  readonly board: Int8Array;
  readonly probs: Float64Array;
}

/** Labels `state` for its side to move with `search` at `plies`. */
export function labelState(search: LongSearch, state: LongState, plies: number): Label {
  const p = search.evaluateState(state, plies);
  return {
    board: state.position.board.slice(),
    probs: Float64Array.from([p.win, p.winMars, p.winKoks, p.loseMars, p.loseKoks]),
  };
}

/** A label as one line of a chunk file (probabilities to 6 decimals: finer than the float32 the trainer keeps matters not). */
export function formatLabel(label: Label): string {
  return JSON.stringify({
    b: Array.from(label.board),
    p: Array.from(label.probs, (x) => Math.round(x * 1e6) / 1e6),
  });
}

/** Adds the lines of a chunk file to `data`. */
export function addLabelLines(text: string, data: Dataset): void {
  for (const line of text.split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { b: number[]; p: number[] };
    if (r.b.length !== data.boardLength || r.p.length !== 5) throw new Error('malformed label line');
    data.add(r.b, r.p);
  }
}

/** Labels games [from, to) of a run with `evaluator` (0-ply play, `plies` labels) as chunk-file text. */
export function labelGames(
  rules: Readonly<LongRules>,
  evaluator: Evaluator,
  labeller: Evaluator,
  options: { seed: number; from: number; to: number; plies: number; epsilon: number; alt: number },
): string {
  const chooser = new LongChooser(rules, evaluator);
  const search = new LongSearch(rules, labeller);
  const lines: string[] = [];
  for (let g = options.from; g < options.to; g++) {
    const random = new SeededRandom(gameSeed(options.seed, g));
    for (const state of distillationPositions(rules, chooser, random, options.epsilon, options.alt))
      lines.push(formatLabel(labelState(search, state, options.plies)));
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

/**
 * Trains `trainer` on `data` for `epochs` (the rate `lr`, halved at each
 * third of the epochs; seeded shuffles), one position in 50 held out.
 * Returns the held-out loss and cubeless equity error after each epoch.
 */
export function fitLabels(
  trainer: NetworkTrainer,
  encoding: NeuralEncoding,
  data: Dataset,
  rules: Readonly<LongRules>,
  options: { epochs: number; lr: number; batch: number; seed: number },
  report: (epoch: number, trainLoss: number, holdoutLoss: number, equityError: number) => void = () => {},
): { holdoutLoss: number; equityError: number }[] {
  const train: number[] = [];
  const holdout: number[] = [];
  for (let k = 0; k < data.count; k++) (k % 50 === 49 ? holdout : train).push(k);
  const order = Int32Array.from(train);
  const held = Int32Array.from(holdout);
  const values = longOutcomeValues(rules);
  const history: { holdoutLoss: number; equityError: number }[] = [];
  const before = validate(trainer, encoding, data, held, values);
  report(0, NaN, before.loss, before.equityError);
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    const rate = options.lr * Math.pow(0.5, Math.floor((3 * (epoch - 1)) / Math.max(3, options.epochs)));
    trainer.settings = { ...trainer.settings, learningRate: rate };
    shuffle(order, new SeededRandom(options.seed * 7919 + epoch));
    const pass = trainPass(trainer, encoding, data, order, options.batch);
    const v = validate(trainer, encoding, data, held, values);
    history.push({ holdoutLoss: v.loss, equityError: v.equityError });
    report(epoch, pass.loss, v.loss, v.equityError);
  }
  return history;
}

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
