import { Dice } from '../../engine/dice';
import { winnerOf } from '../../engine/long/game';
import { LongRules } from '../../engine/long/rules';
import { LongState, legalLongTurns } from '../../engine/long/turn';
import { SeededRandom } from '../../engine/random';
import { longOutcomeValues } from '../equity';
import { Evaluator } from '../evaluator';
import { LongSearch } from '../long/search';
import { isLongRace } from '../race';
import { Dataset, shuffle, trainPass, validate } from './dataset';
import { NeuralEncoding } from './encoding';
import { LongChooser, LongSelfPlay } from './self-play';
import { NetworkTrainer } from './trainer';

/*
 * Search distillation for the long family (docs/neural.md): the positions
 * of seeded self-play, labelled by a deeper search, and the supervised fit
 * of the 0-ply network to those labels. The command line, its child
 * processes and its files are scripts/train/distill.ts.
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
