import { execFileSync, spawn } from 'child_process';
import { createHash } from 'crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync } from 'fs';
import { basename, join } from 'path';
import { createInterface } from 'readline';
import { LongRules } from '../../src/engine/long/rules';
import { needsDice, newLongGame, winnerOf } from '../../src/engine/long/game';
import { LongState, legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { STANDARD_VALUES, longOutcomeValues } from '../../src/eval/equity';
import { createLongEvaluator, longBearoffRuleSet } from '../../src/eval/long/evaluator';
import { LongSearch } from '../../src/eval/long/search';
import { createRaceEvaluator, isLongRace } from '../../src/eval/race';
import { raceNetworkEncoding, relayParameters } from '../../src/eval/neural/race-network';
import { NeuralEncoding } from '../../src/eval/neural/encoding';
import { encodingFor } from '../../src/eval/neural/evaluator';
import { NeuralWeights, decodeNeuralWeights, weightsHash } from '../../src/eval/neural/format';
import { NetworkTrainer } from '../../src/eval/neural/trainer';
import { readBearoffDatabase } from '../eval/data';
import { ORACLE_DIR } from '../eval/gnubg-cases';
import { evaluatorBot, playPairedGame, presetRules, summarise } from '../../src/eval/long/self-play';
import { searchBot } from '../eval/long-match';
import { Args, log, number, parseArgs, weightsOf } from './cli';
import { Checkpoint, loadCheckpoint, saveCheckpoint } from './checkpoint';
import { Dataset, rankAgreement, shuffle, trainPass, trainRankPass, validate } from './dataset';
import { LongChooser, playTdGame } from './long-game';
import { evaluatorOf, readNetFiles, startingParameters, writeNet } from './nets';
import {
  GroupedPosition,
  ShortPlayer,
  TrainingPhase,
  createPrimerEvaluator,
  playShortPairedGame,
  shortTrainingGroups,
  shortTrainingPositions,
} from '../../src/eval/short/self-play';

/**
 * Trains the neural evaluators (docs/neural.md).
 *
 *   npm run train -- --family backgammon [--rounds 2] [--positions 300000] [--epochs 8] [--workers 16] [--seed 1] [--encoding short-1|short-2] [--init <net>]
 *   npm run train -- --family backgammon --phase race --top 4 [--contact backgammon] …   (the race network, data/nets/backgammon-race)
 *   npm run train -- --family long [--preset long] [--games 20000] [--bootstrap 100000 | --init long] [--lambda 0.7] [--target-plies 0|1] [--seed 1]
 *   … [--hidden 128] [--lr 0.001] [--batch 64] [--resume <checkpoint>] [--out data/nets/<name>] [--work /tmp/nardy-train]
 *
 * Backgammon — supervised by gnubg (the teacher): each round plays seeded
 * self-play games (round 1 with a hand-set primer evaluator,
 * `createPrimerEvaluator` in src/eval/short/self-play.ts, which only steers
 * play towards ordinary positions; later rounds with the network being
 * trained; a random play with probability --epsilon), labels up to --candidates results of
 * every roll with gnubg's --teacher-plies (default 0) probabilities
 * (scripts/train/gnubg_label.py over the oracle's GnubgPool; cached in
 * --work, resumed where it stopped), then trains on the labels of all rounds
 * so far for --epochs (cross-entropy on the five outputs, Adam). --init
 * starts from a committed network (e.g. data/nets/start/backgammon-v1): round
 * 1 plays with it instead of the primer, and training starts from its
 * weights, widened with zero weights when --encoding extends its encoding.
 *
 * Long family — no teacher: optional bootstrap on the v1 heuristic's 0-ply
 * evaluations of positions from its own self-play (or --init from committed
 * weights), then TD(λ) self-play at 0 ply (λ-returns,
 * src/eval/neural/training.ts), --batch-games games per update pass.
 * --init with a larger --hidden widens the parent first (new units with zero
 * output weights: the same function). --target-plies 1 bootstraps each
 * contact position from its 1-ply value (the mean over the 21 rolls) instead
 * of the value after the roll that came.
 *
 * Strength checks: after every backgammon round, paired games against the
 * primer at 0 ply; every --check-every long games, paired games against the
 * v1 heuristic at 0 ply. The net and its manifest are
 * written to --out. Ctrl-C / SIGTERM saves a checkpoint (also saved at
 * every epoch / check) and stops; --resume continues from it.
 */

const ROOT = join(__dirname, '..', '..');
let stopping = false;
process.on('SIGINT', () => {
  if (stopping) process.exit(130);
  stopping = true;
  console.log('\nstopping: saving a checkpoint at the next batch boundary (Ctrl-C again to abort)');
});
process.on('SIGTERM', () => {
  stopping = true;
});

/** Lets the event loop run (signal handlers included) between slices of synchronous work. */
function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * One epoch over `order` in slices of whole batches, yielding to the event
 * loop between slices so that Ctrl-C / SIGTERM are seen; stops early when
 * `stopping` is set. Returns the mean loss and the samples seen.
 */
/**
 * One epoch in slices of `batch × 256` entries of `order`, letting signal
 * handlers run between slices; `pass` trains one slice.
 */
async function trainEpoch(
  order: Int32Array,
  batch: number,
  pass: (slice: Int32Array) => { loss: number; samples: number },
): Promise<{ loss: number; samples: number }> {
  const slice = batch * 256;
  let loss = 0;
  let samples = 0;
  for (let from = 0; from < order.length && !stopping; from += slice) {
    const done = pass(order.subarray(from, from + slice));
    loss += done.loss * done.samples;
    samples += done.samples;
    await yieldToEvents();
  }
  return { loss: loss / Math.max(1, samples), samples };
}



/**
 * The teacher a backgammon network learnt from, as its manifest records it:
 * gnubg's version (the labels depend on it) and the oracle that drove it.
 */
function gnubgTeacher(plies: readonly number[]): string {
  let version = 'unknown version';
  try {
    const out = execFileSync('gnubg', ['--version'], { encoding: 'utf8', env: { ...process.env, PATH: `${process.env.PATH}:/usr/games` } });
    version = /GNU Backgammon (\S+)/.exec(out)?.[1] ?? version;
  } catch {
    // No gnubg here (a run that only read cached labels): the version stays unknown.
  }
  const depth = [...new Set(plies)].map((p) => `${p}-ply`).join(' and ');
  return `gnubg ${version} ${depth} (cubeless, money), through ${ORACLE_DIR} GnubgPool`;
}

function commandLine(): string {
  return `npm run train -- ${process.argv.slice(2).join(' ')}`;
}


/** Counts the lines of a file (0 if it does not exist). */
function lineCount(path: string): number {
  if (!existsSync(path)) return 0;
  const text = readFileSync(path, 'utf8');
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * Labels `total` positions of `source` with gnubg into `path`, appending
 * after the lines already there (the source is deterministic, so a stopped
 * run resumes by skipping them).
 */
async function labelWithGnubg(
  path: string,
  source: Generator<Int8Array | GroupedPosition>,
  total: number,
  workers: number,
  plies: number,
): Promise<void> {
  const done = lineCount(path);
  if (done >= total) return;
  for (let i = 0; i < done; i++) source.next();
  log(`labelling ${total - done} positions with gnubg ${plies}-ply (${workers} processes) -> ${path}`);
  const child = spawn(
    'python3',
    [join(__dirname, 'gnubg_label.py'), '--workers', String(workers), '--plies', String(plies)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const out = createWriteStream(path, { flags: 'a' });
  let received = done;
  const started = Date.now();
  const finished = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      out.write(line + '\n');
      received++;
      if (received % 20000 === 0)
        log(
          `  ${received}/${total} labelled, ${((received - done) / ((Date.now() - started) / 1000)).toFixed(0)} positions/s`,
        );
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 || stopping ? resolve() : reject(new Error(`gnubg_label.py exited with ${code}`)),
    );
  });
  for (let i = done; i < total && !stopping; i++) {
    const item = source.next().value as Int8Array | GroupedPosition;
    const line = item instanceof Int8Array ? { b: Array.from(item) } : { b: Array.from(item.board), g: item.group };
    if (!child.stdin.write(JSON.stringify(line) + '\n'))
      await new Promise((r) => child.stdin.once('drain', r));
  }
  child.stdin.end();
  await finished;
  await new Promise<void>((r) => out.end(r));
  if (stopping) throw new Error('stopped while labelling; run again with the same arguments to resume it');
}

/** What a run read from a label file: its name, the positions, and the sha256 of those lines. */
interface LabelFileRecord {
  readonly file: string;
  readonly positions: number;
  readonly sha256: string;
}

/**
 * Adds (the first `limit` lines of) a label file to `data`; its groups ("g",
 * the roll of a candidate) get numbers after those already there. Returns
 * the record the manifest keeps, so that a rebuild can check its labels.
 */
async function readLabels(path: string, data: Dataset, limit = Infinity): Promise<LabelFileRecord> {
  const lines = createInterface({ input: createReadStream(path) });
  const hash = createHash('sha256');
  let read = 0;
  let next = data.count > 0 ? Math.max(0, data.groups[data.count - 1] + 1) : 0;
  let last: number | undefined;
  for await (const line of lines) {
    if (!line) continue;
    if (read >= limit) break;
    read++;
    hash.update(line + '\n');
    const r = JSON.parse(line) as { b: number[]; g?: number; p: number[] };
    let group = -1;
    if (r.g !== undefined) {
      if (r.g !== last) next++;
      last = r.g;
      group = next - 1;
    }
    data.add(r.b, r.p, 0, group);
  }
  return { file: basename(path), positions: read, sha256: hash.digest('hex') };
}

function splitHoldout(n: number, every: number): { train: Int32Array; holdout: Int32Array } {
  const train: number[] = [];
  const holdout: number[] = [];
  for (let k = 0; k < n; k++) (k % every === every - 1 ? holdout : train).push(k);
  return { train: Int32Array.from(train), holdout: Int32Array.from(holdout) };
}

/** Learning rate of an epoch: the base rate, halved at each third of the schedule. */
function epochRate(base: number, epoch: number, epochs: number): number {
  return base * Math.pow(0.5, Math.floor((3 * (epoch - 1)) / Math.max(3, epochs)));
}

/** The contact network's weights with `trainer`'s network beside it as the race network. */
function contactWithRace(contact: NeuralWeights, trainer: NetworkTrainer): NeuralWeights {
  return { ...contact, networks: [...contact.networks, { name: 'race', parameters: trainer.networkParameters() }] };
}

function fail(message: string): never {
  throw new Error(message);
}

/** A committed backgammon network to start from (`--init`), or the contact network of a race network: its weights and version. */
function shortParent(init: string): { weights: NeuralWeights; version: string } {
  const { bytes } = readNetFiles(init);
  const decoded = decodeNeuralWeights(bytes);
  if (!decoded.ok) throw new Error(decoded.error.message);
  if (decoded.value.family !== 'short') throw new Error(`${init} is not a backgammon network`);
  return { weights: decoded.value, version: weightsHash(bytes) };
}


async function trainBackgammon(args: Args): Promise<void> {
  const seed = number(args, 'seed', 1);
  const rounds = number(args, 'rounds', 2);
  const positions = number(args, 'positions', 300000);
  const epochs = number(args, 'epochs', 8);
  const workers = number(args, 'workers', 16);
  const epsilon = number(args, 'epsilon', 0.1);
  const candidates = number(args, 'candidates', 6);
  const hidden = number(args, 'hidden', 128);
  const batch = number(args, 'batch', 64);
  const lr = number(args, 'lr', 1e-3);
  const checkGames = number(args, 'check-games', 400);
  const teacherPlies = number(args, 'teacher-plies', 0);
  // --top K: each roll's candidates are the policy's K best plays, then random others (grouped by roll);
  // --rank-weight w: a ranking loss on the equities within a roll's group beside the cross-entropy.
  const top = number(args, 'top', 0);
  const rankWeight = number(args, 'rank-weight', 0);
  // --refine-positions N: after the rounds, one more round on the first N positions of round 1's stream
  // labelled by gnubg at --refine-plies (a deeper teacher), --refine-epochs at --refine-lr.
  const refinePositions = number(args, 'refine-positions', 0);
  const refinePlies = number(args, 'refine-plies', 2);
  const refineEpochs = number(args, 'refine-epochs', 3);
  const refineLr = number(args, 'refine-lr', 3e-4);
  // --phase race: the race network (races before both sides are home), played to its races by the
  // committed contact network of --contact (default backgammon, data/nets/backgammon); labels of race positions only.
  const phase: TrainingPhase = args.phase === undefined || args.phase === 'contact' ? 'contact' : args.phase === 'race' ? 'race' : fail('--phase is contact or race');
  const contactNet = phase === 'race' ? shortParent(args.contact ?? 'backgammon') : null;
  if (contactNet && (top <= 0 || args.init || refinePositions > 0)) throw new Error('--phase race needs --top and takes no --init or --refine-positions');
  const work = args.work ?? '/tmp/nardy-train';
  const out = args.out ?? join(ROOT, 'data', 'nets', phase === 'race' ? 'backgammon-race' : 'backgammon');
  const checkpointPath = args.checkpoint ?? join(work, `backgammon${phase === 'race' ? '-race' : ''}-seed${seed}-h${hidden}.ckpt.json`);
  mkdirSync(work, { recursive: true });
  const encodingName = args.encoding ?? contactNet?.weights.encoding ?? 'short-1';
  const encoding = encodingFor('short', encodingName);
  if (!encoding) throw new Error(`unknown backgammon encoding ${encodingName}`);
  if (contactNet && contactNet.weights.encoding !== encoding.name) throw new Error(`the race network takes the contact network's encoding, ${contactNet.weights.encoding}`);
  // What the network reads: the encoding, and for the race network the race model's answer after it (src/eval/neural/race-network.ts).
  const reads = contactNet
    ? raceNetworkEncoding(encoding, createRaceEvaluator({ family: 'short', database: () => readBearoffDatabase('standard'), triple: 'backgammon' }))
    : encoding;
  const init = args.init;
  // The fixed quick-check opponent, and round 1's policy without --init: a hand-set primer (src/eval/short/self-play.ts).
  const primer = createPrimerEvaluator();
  // --init: round 1 plays with the parent network (its own encoding), and training starts from its weights.
  const parent = init ? shortParent(init) : null;

  let trainer: NetworkTrainer;
  let progress = { round: 1, epoch: 0 };
  let history: Record<string, number | string>[] = [];
  if (args.resume) {
    const c = loadCheckpoint(args.resume);
    trainer = new NetworkTrainer(c.trainer);
    progress = { round: c.progress.round, epoch: c.progress.epoch };
    history = c.history;
    log(`resumed ${args.resume}: round ${progress.round}, epoch ${progress.epoch} done`);
  } else if (parent) {
    trainer = NetworkTrainer.fromParameters(startingParameters(parent.weights, encoding));
    log(`starting from ${init} (${parent.version}, encoding ${parent.weights.encoding} -> ${encoding.name})`);
  } else if (contactNet) {
    // The race network starts as the race model (its relay units) and learns the model's errors.
    trainer = NetworkTrainer.fromParameters(relayParameters(NetworkTrainer.initial({ inputs: reads.inputs, hidden }, seed).networkParameters()));
  } else {
    trainer = NetworkTrainer.initial({ inputs: encoding.inputs, hidden }, seed);
  }
  // Round 1's positions come from the primer or the --init parent; later rounds' from this run's networks
  // (their size, encoding, ranking weight and the parent are in the name).
  const parentTag = init
    ? `-from-${init.replace(/\.bin$/, '').replace(/[^A-Za-z0-9_.-]+/g, '_')}`
    : contactNet
      ? `-race-with-${contactNet.version}`
      : '';
  const labelFile = (round: number, plies = teacherPlies): string =>
    join(
      work,
      `short-labels-r${round}-seed${seed}-p${plies}${parentTag}${round > 1 && hidden !== 128 ? `-h${hidden}` : ''}${round > 1 && init ? `-${encoding.name}` : ''}${top > 0 ? `-top${top}-c${candidates}` : ''}${round > 1 && rankWeight > 0 ? `-rank${rankWeight}` : ''}.jsonl`,
    );
  const save = (): void =>
    saveCheckpoint(checkpointPath, {
      family: 'short',
      progress,
      args: { ...args },
      history,
      trainer: trainer.state(),
    } satisfies Checkpoint);

  const lastRound = refinePositions > 0 ? rounds + 1 : rounds;
  let readLabelRecords: LabelFileRecord[] = [];
  for (let round = progress.round; round <= lastRound; round++) {
    // The refining round relabels the start of round 1's stream with the deeper teacher.
    const refining = round > rounds;
    const stream = refining ? 1 : round;
    const labelPath = refining ? labelFile(1, refinePlies) : labelFile(round);
    // Round 1 plays with a hand-set primer; later rounds with the network as trained so far. Race:
    // the contact network throughout, in races the race model in round 1, then the race network.
    const policy = contactNet
      ? evaluatorOf(stream === 1 ? contactNet.weights : contactWithRace(contactNet.weights, trainer))
      : stream === 1
        ? parent
          ? evaluatorOf(parent.weights)
          : primer
        : evaluatorOf(weightsOf('short', encoding, trainer));
    await labelWithGnubg(
      labelPath,
      top > 0
        ? shortTrainingGroups(new ShortPlayer(policy), seed * 1000 + stream, epsilon, candidates, top, phase)
        : shortTrainingPositions(new ShortPlayer(policy), seed * 1000 + stream, epsilon, candidates),
      refining ? refinePositions : positions,
      workers,
      refining ? refinePlies : teacherPlies,
    );
    const data = new Dataset(28, (refining ? refinePositions : positions * round) + 1024);
    const labelFiles: LabelFileRecord[] = [];
    if (refining) labelFiles.push(await readLabels(labelPath, data, refinePositions));
    else {
      for (let r = 1; r <= round; r++) labelFiles.push(await readLabels(labelFile(r), data));
      for (const extra of (args.labels ?? '').split(',').filter((s) => s)) labelFiles.push(await readLabels(extra, data));
    }
    // The files of the rounds before a refining round are recorded with the network those rounds wrote.
    if (refining) labelFiles.unshift(...readLabelRecords);
    readLabelRecords = labelFiles;
    const roundEpochs = refining ? refineEpochs : epochs;
    const roundLr = refining ? refineLr : lr;
    // Labels grouped by roll (--top): whole groups are trained and held out (every 50th roll's
    // candidates), and the held-out rolls measure how often the network picks the teacher's best.
    const runs = data.groups.subarray(0, data.count).some((g) => g >= 0) ? data.runs() : null;
    const split = runs ? splitHoldout(runs.length - 1, 50) : splitHoldout(data.count, 50);
    const positionsOf = (order: Int32Array): Int32Array => {
      if (!runs) return order;
      const out: number[] = [];
      for (const r of order) for (let k = runs[r]; k < runs[r + 1]; k++) out.push(k);
      return Int32Array.from(out);
    };
    const train = split.train;
    const holdout = positionsOf(split.holdout);
    const ranking = (): string => {
      if (!runs) return '';
      const a = rankAgreement(trainer, reads, data, runs, split.holdout, STANDARD_VALUES);
      return `, held-out rolls: best play the teacher's ${(100 * a.same).toFixed(1)} % of ${a.groups}, equity lost ${a.loss.toFixed(4)}`;
    };
    log(`round ${round}: ${positionsOf(train).length} training positions, ${holdout.length} held out`);
    if (parent && round === 1 && progress.epoch === 0) {
      // The starting point on the same held-out labels, for comparison with the epochs below.
      const v = validate(trainer, reads, data, holdout, STANDARD_VALUES);
      log(`round 1 before training (${init}): held-out loss ${v.loss.toFixed(4)}, equity error ${v.equityError.toFixed(4)}${ranking()}`);
    }
    for (let epoch = round === progress.round ? progress.epoch + 1 : 1; epoch <= roundEpochs; epoch++) {
      trainer.settings = { ...trainer.settings, learningRate: epochRate(roundLr, epoch, roundEpochs) };
      shuffle(train, new SeededRandom(seed * 7919 + round * 131 + epoch));
      const started = Date.now();
      // With groups, `train` holds run numbers: whole rolls, with the ranking loss of --rank-weight.
      const pass = await trainEpoch(train, batch, (slice) =>
        runs
          ? trainRankPass(trainer, reads, data, runs, slice, batch, STANDARD_VALUES, rankWeight)
          : trainPass(trainer, reads, data, slice, batch),
      );
      const seconds = (Date.now() - started) / 1000;
      if (stopping) {
        // The partial epoch is discarded on resume only in the sense that it is redone from its start.
        save();
        log(
          `checkpoint saved to ${checkpointPath} (round ${round}, epoch ${epoch - 1} complete); resume with --resume ${checkpointPath}`,
        );
        return;
      }
      const v = validate(trainer, reads, data, holdout, STANDARD_VALUES);
      progress = { round, epoch };
      history.push({
        round,
        epoch,
        positions: pass.samples,
        trainLoss: +pass.loss.toFixed(5),
        holdoutLoss: +v.loss.toFixed(5),
        holdoutEquityError: +v.equityError.toFixed(4),
      });
      log(
        `round ${round}${refining ? ` (gnubg ${refinePlies}-ply labels)` : ''} epoch ${epoch}/${roundEpochs}: lr ${trainer.settings.learningRate.toExponential(1)}, train loss ${pass.loss.toFixed(4)}, ` +
          `held-out loss ${v.loss.toFixed(4)}, equity error ${v.equityError.toFixed(4)}${ranking()}, ${(pass.samples / seconds).toFixed(0)} positions/s`,
      );
      save();
    }
    if (contactNet) history.push({ round, labelledPositions: data.count });
    else {
      // Quick strength: paired games against the primer at 0 ply (a race network's games are mostly the contact network's: none).
      const net = new ShortPlayer(evaluatorOf(weightsOf('short', encoding, trainer)));
      const base = new ShortPlayer(primer);
      const started = Date.now();
      const points: number[] = [];
      for (let g = 0; g < checkGames; g++) points.push(playShortPairedGame(net, base, 9001 + round, g));
      const ppg = points.reduce((s, p) => s + p, 0) / Math.max(1, points.length);
      log(
        `round ${round}: net@0 vs primer@0 over ${checkGames} paired games: ${ppg >= 0 ? '+' : ''}${ppg.toFixed(3)} ppg (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
      history.push({ round, labelledPositions: data.count, checkVsPrimerPpg: +ppg.toFixed(3), checkGames });
    }
    const manifest = writeNet(out, weightsOf('short', encoding, trainer, contactNet ? 'race' : 'contact'), {
      name: contactNet ? 'neural-short-race' : 'neural-short',
      training: {
        method:
          (contactNet
            ? `the race network (races before both sides are home), with data/nets/backgammon's contact network ${contactNet.version} playing the games to their races; `
            : '') +
          `${init ? `started from ${init} (${parent?.version}), then ` : ''}supervised on gnubg ${teacherPlies}-ply labels, ` +
          `${Math.min(round, rounds)} round(s) of self-play positions (DAgger-style)` +
          (top > 0 ? `, each roll's ${top} best plays and random others up to ${candidates}` : '') +
          (rankWeight > 0 ? `, with a ranking loss (weight ${rankWeight}) on the equities of one roll's results` : '') +
          (refining ? `; then ${roundEpochs} epochs on the first ${refinePositions} positions labelled by gnubg ${refinePlies}-ply` : ''),
        teacher: gnubgTeacher(refining ? [teacherPlies, refinePlies] : [teacherPlies]),
        labelledPositions: data.count,
        labelFiles,
        rounds: round,
        epochsPerRound: epochs,
        hidden: trainer.hidden,
        seed,
        command: commandLine(),
        date: new Date().toISOString().slice(0, 10),
        history,
      },
    });
    log(`wrote ${out}.bin (${manifest.version})`);
    progress = { round: round + 1, epoch: 0 };
    save();
  }
}

/** Bootstrap positions for the long family: the v1 heuristic's self-play, labelled by its 0-ply evaluation. */
function longBootstrapData(rules: Readonly<LongRules>, count: number, seed: number): Dataset {
  const heuristic = createLongEvaluator({
    rules,
    database: () => readBearoffDatabase(longBearoffRuleSet(rules)),
  });
  const chooser = new LongChooser(rules, heuristic);
  const data = new Dataset(26, count + 1024);
  const random = new SeededRandom(seed);
  const probs = new Float64Array(5);
  while (data.count < count) {
    let state: LongState = newLongGame(rules as LongRules, random.below(2) === 0 ? 'white' : 'black');
    for (let stage = 0; stage < 4000 && data.count < count; stage++) {
      if (winnerOf(state)) break;
      const dice = needsDice(state) ? random.dice() : undefined;
      const answer = legalLongTurns(rules as LongRules, state, dice);
      if (!answer.ok) throw new Error(answer.error.message);
      const turns = answer.value.turns;
      if (state.pending.length === 0 && !isLongRace(state.position.board)) {
        heuristic.evaluateInto(state.position.board, probs, 0);
        data.add(state.position.board, probs);
      }
      const k = random.next() < 0.1 ? random.below(turns.length) : chooser.best(state, turns);
      state = turns[k].state;
    }
  }
  return data;
}

async function trainLong(args: Args): Promise<void> {
  const seed = number(args, 'seed', 1);
  const preset = args.preset ?? 'long';
  const rules = presetRules(preset);
  const games = number(args, 'games', 20000);
  const init = args.init;
  const bootstrap = init ? 0 : number(args, 'bootstrap', 100000);
  const bootstrapEpochs = number(args, 'bootstrap-epochs', 4);
  const lambda = number(args, 'lambda', 0.7);
  const batchGames = number(args, 'batch-games', 50);
  const checkEvery = number(args, 'check-every', 2000);
  const checkGames = number(args, 'check-games', 200);
  const hidden = number(args, 'hidden', 96);
  const batch = number(args, 'batch', 64);
  const lr = number(args, 'lr', 1e-3);
  const tdRate = number(args, 'td-lr', 3e-4);
  const epsilon = number(args, 'epsilon', 0);
  // 1: each contact position's TD bootstrap is its 1-ply value (long-game.ts, playTdGame).
  const targetPlies = number(args, 'target-plies', 0);
  if (targetPlies !== 0 && targetPlies !== 1) throw new Error('--target-plies must be 0 or 1');
  const work = args.work ?? '/tmp/nardy-train';
  const out = args.out ?? join(ROOT, 'data', 'nets', preset === 'long' ? 'long' : `long-${preset}`);
  const checkpointPath = args.checkpoint ?? join(work, `long-${preset}-seed${seed}.ckpt.json`);
  mkdirSync(work, { recursive: true });
  const encoding = encodingFor('long', 'long-1') as NeuralEncoding;
  const values = longOutcomeValues(rules);
  // K0 has no koks: train those two outputs towards 0 all the same (targets are 0), so nothing is masked.
  let trainer: NetworkTrainer;
  let progress = { phase: 0, epoch: 0, games: 0 };
  let history: Record<string, number | string>[] = [];
  if (args.resume) {
    const c = loadCheckpoint(args.resume);
    trainer = new NetworkTrainer(c.trainer);
    progress = { phase: c.progress.phase, epoch: c.progress.epoch, games: c.progress.games };
    history = c.history;
    log(
      `resumed ${args.resume}: phase ${progress.phase}, epoch ${progress.epoch}, ${progress.games} TD games`,
    );
  } else if (init) {
    // Start TD from committed weights (e.g. the classic net for a variant), without a bootstrap.
    const { bytes } = readNetFiles(init);
    const decoded = decodeNeuralWeights(bytes);
    if (!decoded.ok) throw new Error(decoded.error.message);
    if (decoded.value.encoding !== encoding.name)
      throw new Error(`${init} uses encoding ${decoded.value.encoding}`);
    const start = decoded.value.networks[0].parameters;
    // --hidden above the parent's: the parent's function with new units of zero output weight.
    const wider = args.hidden !== undefined && hidden > start.hidden;
    trainer = NetworkTrainer.fromParameters(wider ? NetworkTrainer.widen(start, hidden, seed) : start);
    progress = { phase: 1, epoch: 0, games: 0 };
    log(`starting from ${init} (${weightsHash(bytes)}, ${start.hidden} hidden${wider ? `, widened to ${hidden}` : ''})`);
  } else {
    trainer = NetworkTrainer.initial({ inputs: encoding.inputs, hidden }, seed);
  }
  const save = (): void =>
    saveCheckpoint(checkpointPath, {
      family: 'long',
      progress,
      args: { ...args },
      history,
      trainer: trainer.state(),
    } satisfies Checkpoint);
  const baseline = searchBot(rules, 0);
  // The v1 heuristic is the bootstrap teacher and the quick-check opponent: record which weights it had.
  const heuristicVersion = createLongEvaluator({
    rules,
    database: () => readBearoffDatabase(longBearoffRuleSet(rules)),
  }).version;
  const check = (label: string): number => {
    const bot = evaluatorBot(rules, evaluatorOf(weightsOf('long', encoding, trainer), rules), 0, 'net');
    const records = [];
    const started = Date.now();
    for (let g = 0; g < checkGames; g++) records.push(playPairedGame(rules, bot, baseline, 4242, g));
    const s = summarise(records);
    log(
      `${label}: net@0 vs heuristic@0, ${checkGames} paired games: ${s.ppg >= 0 ? '+' : ''}${s.ppg.toFixed(3)} ppg ± ${s.stderrPairs.toFixed(3)} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    return s.ppg;
  };
  const writeOut = (): void => {
    const manifest = writeNet(out, weightsOf('long', encoding, trainer), {
      name: preset === 'long' ? 'neural-long' : `neural-long-${preset}`,
      training: {
        method: `${init ? `started from ${init}, then ` : ''}${bootstrap > 0 ? `bootstrap on the v1 heuristic's 0-ply evaluations (${bootstrap} positions), then ` : ''}TD(${lambda}) self-play at 0 ply${targetPlies === 1 ? ', 1-ply bootstrap values' : ''}`,
        preset,
        heuristic: heuristicVersion,
        tdGames: progress.games,
        hidden: trainer.hidden,
        lambda,
        ...(targetPlies === 1 ? { targetPlies } : {}),
        seed,
        command: commandLine(),
        date: new Date().toISOString().slice(0, 10),
        history,
      },
    });
    log(`wrote ${out}.bin (${manifest.version})`);
  };

  if (progress.phase === 0 && bootstrap > 0) {
    const started = Date.now();
    const data = longBootstrapData(rules, bootstrap, seed * 31 + 7);
    log(
      `bootstrap: ${data.count} heuristic-labelled positions in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    const { train, holdout } = splitHoldout(data.count, 50);
    for (let epoch = progress.epoch + 1; epoch <= bootstrapEpochs; epoch++) {
      trainer.settings = { ...trainer.settings, learningRate: epochRate(lr, epoch, bootstrapEpochs) };
      shuffle(train, new SeededRandom(seed * 7919 + epoch));
      const t0 = Date.now();
      const pass = await trainEpoch(train, batch, (slice) => trainPass(trainer, encoding, data, slice, batch));
      if (stopping) {
        save();
        log(`checkpoint saved to ${checkpointPath}; resume with --resume ${checkpointPath}`);
        return;
      }
      const v = validate(trainer, encoding, data, holdout, values);
      progress = { phase: 0, epoch, games: 0 };
      log(
        `bootstrap epoch ${epoch}/${bootstrapEpochs}: train loss ${pass.loss.toFixed(4)}, held-out loss ${v.loss.toFixed(4)}, equity error ${v.equityError.toFixed(4)}, ${(pass.samples / ((Date.now() - t0) / 1000)).toFixed(0)} positions/s`,
      );
      save();
    }
    history.push({ games: 0, checkVsHeuristicPpg: +check('after bootstrap').toFixed(3), checkGames });
  }
  progress = { phase: 1, epoch: 0, games: progress.phase === 1 ? progress.games : 0 };
  trainer.settings = { ...trainer.settings, learningRate: tdRate };
  let windowStarted = Date.now();
  let windowGames = 0;
  let windowLoss = 0;
  let windowSamples = 0;
  while (progress.games < games) {
    const current = evaluatorOf(weightsOf('long', encoding, trainer), rules);
    const chooser = new LongChooser(rules, current);
    const lookahead = targetPlies === 1 ? new LongSearch(rules, current) : undefined;
    const data = new Dataset(26, batchGames * 120);
    const first = progress.games;
    const last = Math.min(games, first + batchGames);
    for (let g = first; g < last; g++) {
      const game = playTdGame(
        rules,
        chooser,
        new SeededRandom((seed * 1000003 + g * 7907) >>> 0),
        lambda,
        epsilon,
        lookahead,
      );
      for (let i = 0; i < game.positions; i++)
        data.add(game.boards.subarray(26 * i, 26 * i + 26), game.targets, 5 * i);
    }
    const order = Int32Array.from({ length: data.count }, (_, k) => k);
    shuffle(order, new SeededRandom(seed * 17 + first));
    const pass = trainPass(trainer, encoding, data, order, batch);
    progress = { phase: 1, epoch: 0, games: last };
    await yieldToEvents();
    windowGames += last - first;
    windowLoss += pass.loss * pass.samples;
    windowSamples += pass.samples;
    if (windowGames >= 500 || progress.games >= games) {
      const seconds = (Date.now() - windowStarted) / 1000;
      log(
        `TD games ${progress.games}/${games}: ${(windowGames / seconds).toFixed(1)} games/s, loss ${(windowLoss / windowSamples).toFixed(4)} (${(windowSamples / windowGames).toFixed(0)} positions/game)`,
      );
      windowStarted = Date.now();
      windowGames = 0;
      windowLoss = 0;
      windowSamples = 0;
    }
    if (progress.games % checkEvery === 0 || progress.games >= games) {
      history.push({
        games: progress.games,
        checkVsHeuristicPpg: +check(`after ${progress.games} TD games`).toFixed(3),
        checkGames,
      });
      writeOut();
      save();
      windowStarted = Date.now();
    }
    if (stopping) {
      save();
      log(
        `checkpoint saved to ${checkpointPath} (${progress.games} TD games); resume with --resume ${checkpointPath}`,
      );
      return;
    }
  }
  save();
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const family = args.family;
  if (family === 'backgammon' || family === 'short') await trainBackgammon(args);
  else if (family === 'long') await trainLong(args);
  else {
    console.error('usage: npm run train -- --family backgammon|long [options] (see scripts/train/train.ts)');
    process.exitCode = 2;
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
