import { join } from 'path';
import { needsDice, newLongGame, winnerOf } from '../../src/engine/long/game';
import { CLASSIC } from '../../src/engine/long/rules';
import { legalLongTurns } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { STANDARD_VALUES, longOutcomeValues } from '../../src/eval/equity';
import { NeuralEvaluator } from '../../src/eval/neural/evaluator';
import { NeuralWeights } from '../../src/eval/neural/format';
import { rawEncodingFor } from '../../src/eval/neural/raw-encoding';
import { NetworkTrainer } from '../../src/eval/neural/trainer';
import { isLongRace } from '../../src/eval/race';
import { Dataset, shuffle, trainPass, validate } from './dataset';
import { LongChooser } from './long-game';
import { DEFAULT_NET, NETS_DIR, readLongNet, readShortNet, writeNet } from './nets';
import { ShortPlayer, shortTrainingPositions } from '../../src/eval/short/self-play';

/**
 * Distils a pruning network (src/eval/neural/pruning.ts, src/eval/prune.ts)
 * from a family's committed full network:
 *
 *   npm run train:prune -- --family backgammon [--hidden 16] [--positions 300000] [--epochs 10] [--seed 1]
 *   npm run train:prune -- --family long       [--hidden 16] [--positions 300000] [--epochs 10] [--seed 1]
 *   … [--parent long | data/nets/start/long-v1] [--encoding raw|full] [--candidates 8] [--epsilon 0.05] [--lr 0.003] [--batch 64] [--out data/nets/<parent>-prune]
 *
 * Positions: seeded self-play of the full network at 0 ply (a random play
 * with probability --epsilon); at every roll up to --candidates results of
 * its legal plays, seen from the opponent on roll, contact only — the
 * positions a search's reply choice compares. Targets: the full network's
 * five probabilities of each (distillation: cross-entropy on soft
 * targets, Adam). Inputs: the raw point units (src/eval/neural/raw-encoding.ts)
 * unless --encoding full (the parent's encoding). One core, a minute or two; deterministic, so the same
 * command writes the committed files byte for byte (no date in the manifest).
 */
type Args = Record<string, string>;

function parseArgs(argv: string[]): Args {
  const args: Args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) throw new Error(`expected --name value pairs, got ${argv[i]}`);
    args[argv[i].slice(2)] = argv[i + 1];
  }
  return args;
}

/** Up to `candidates` contact results of every roll of seeded 0-ply self-play of classic long nardy, opponent on roll. */
function* longPositions(full: NeuralEvaluator, seed: number, epsilon: number, candidates: number): Generator<Int8Array> {
  const random = new SeededRandom(seed);
  const chooser = new LongChooser(CLASSIC, full);
  const order: number[] = [];
  for (;;) {
    let state = newLongGame(CLASSIC, random.below(2) === 0 ? 'white' : 'black');
    for (let stages = 0; stages < 5000 && !winnerOf(state); stages++) {
      const dice = needsDice(state) ? random.dice() : undefined;
      const answer = legalLongTurns(CLASSIC, state, dice);
      if (!answer.ok) throw new Error(`self-play: ${answer.error.code} ${answer.error.message}`);
      const turns = answer.value.turns;
      const mover = state.position.turn;
      order.length = 0;
      for (let k = 0; k < turns.length; k++) order.push(k);
      for (let i = 0; i < Math.min(candidates, turns.length); i++) {
        const j = i + random.below(turns.length - i);
        [order[i], order[j]] = [order[j], order[i]];
        const next = turns[order[i]].state;
        if (next.pending.length > 0 || next.position.turn === mover || winnerOf(next) || isLongRace(next.position.board)) continue;
        yield next.position.board.slice();
      }
      const k = random.next() < epsilon ? random.below(turns.length) : chooser.best(state, turns);
      state = turns[k].state;
    }
  }
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const family = args.family === 'long' ? 'long' : args.family === 'backgammon' ? 'short' : null;
  if (!family) throw new Error('--family backgammon | long');
  const hidden = Number(args.hidden ?? 16);
  const positions = Number(args.positions ?? 300000);
  const epochs = Number(args.epochs ?? 10);
  const seed = Number(args.seed ?? 1);
  const candidates = Number(args.candidates ?? 8);
  const epsilon = Number(args.epsilon ?? 0.05);
  const learningRate = Number(args.lr ?? 0.003);
  const batch = Number(args.batch ?? 64);
  // --parent: a network under data/nets/ by name, or a path with a slash (readNetFiles); default the family's.
  const parentName = args.parent ?? DEFAULT_NET[family];
  const out = args.out ?? join(NETS_DIR, `${DEFAULT_NET[family]}-prune`);
  const full = family === 'short' ? readShortNet(parentName) : readLongNet(CLASSIC, parentName);
  const parent = full.version.split('+')[0];
  const values = family === 'short' ? STANDARD_VALUES : longOutcomeValues(CLASSIC);
  const started = Date.now();

  // Positions and the full network's targets.
  const data = new Dataset(family === 'short' ? 28 : 26, positions);
  const source =
    family === 'short'
      ? shortTrainingPositions(new ShortPlayer(full), seed, epsilon, candidates)
      : longPositions(full, seed, epsilon, candidates);
  const target = new Float64Array(5);
  for (const board of source) {
    full.evaluateInto(board, target, 0);
    data.add(board, target);
    if (data.count >= positions) break;
  }
  console.log(`${data.count} positions labelled by ${parentName} (${parent}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Every 20th position is held out.
  const train: number[] = [];
  const holdout: number[] = [];
  for (let k = 0; k < data.count; k++) (k % 20 === 19 ? holdout : train).push(k);
  const order = Int32Array.from(train);
  const held = Int32Array.from(holdout);
  // The raw point units by default (raw-encoding.ts: cheap to compute), or the parent's own encoding.
  const encoding = args.encoding === 'full' ? full.encoding : rawEncodingFor(family, `${family}-raw-1`);
  if (!encoding) throw new Error(`no raw encoding for ${family}`);
  const trainer = NetworkTrainer.initial({ inputs: encoding.inputs, hidden }, seed, 60, {
    learningRate,
    beta1: 0.9,
    beta2: 0.999,
    epsilon: 1e-8,
    l2: 0,
  });
  const random = new SeededRandom(seed + 1);
  const history: Record<string, number>[] = [];
  for (let epoch = 1; epoch <= epochs; epoch++) {
    // The last epochs at a lower rate settle the weights.
    trainer.settings = { ...trainer.settings, learningRate: epoch > epochs - 2 ? learningRate / 4 : learningRate };
    shuffle(order, random);
    const pass = trainPass(trainer, encoding, data, order, batch);
    const check = validate(trainer, encoding, data, held, values);
    const row = {
      epoch,
      trainLoss: Number(pass.loss.toFixed(5)),
      holdoutLoss: Number(check.loss.toFixed(5)),
      holdoutEquityError: Number(check.equityError.toFixed(4)),
    };
    history.push(row);
    console.log(JSON.stringify(row));
  }

  const weights: NeuralWeights = {
    family,
    encoding: encoding.name,
    networks: [{ name: 'contact', parameters: trainer.networkParameters() }],
  };
  const command = `npm run train:prune -- ${process.argv.slice(2).join(' ')}`;
  const manifest = writeNet(out, weights, {
    name: `prune-${family}`,
    training: {
      method: 'distilled from the parent network: cross-entropy on its five probabilities, Adam',
      parent,
      parentFile: `${parentName.replace(/\.bin$/, '').replace(/^data\/nets\//, '')}.bin`,
      positions: data.count,
      positionSource: `seeded 0-ply self-play of the parent, up to ${candidates} results of every roll (opponent on roll, contact), random play with probability ${epsilon}`,
      hidden,
      epochs,
      learningRate,
      batch,
      seed,
      command,
      history,
    },
  });
  console.log(`wrote ${out}.bin (${manifest.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
