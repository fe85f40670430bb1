import { winnerOf } from '../../../src/engine/long/game';
import { CLASSIC } from '../../../src/engine/long/rules';
import { SeededRandom } from '../../../src/engine/random';
import { LongSearch } from '../../../src/eval/long/search';
import { isLongRace } from '../../../src/eval/race';
import { createNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { createLongEncoding, createLongEncoding2 } from '../../../src/eval/neural/long-encoding';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';
import { Dataset } from '../../../src/eval/neural/dataset';
import { inputMap } from '../../../src/eval/neural/encoding';
import {
  addLabelLines,
  distillationPositions,
  fitLabels,
  formatLabel,
  gameSeed,
  labelGames,
  labelState,
} from '../../../src/eval/neural/distill';
import { LongChooser, playTdGame } from '../../../src/eval/neural/self-play';
import { database } from '../support';
import { longPositions } from './support';

const encoding = createLongEncoding();

/** A small seeded network (untrained: the pipeline's mechanics do not need a strong one). */
function smallNet(seed: number) {
  const trainer = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 8 }, seed);
  const made = createNeuralEvaluator(
    {
      family: 'long',
      encoding: encoding.name,
      networks: [{ name: 'contact', parameters: trainer.networkParameters() }],
    },
    { rules: CLASSIC, database: () => database('standard') },
  );
  if (!made.ok) throw new Error(made.error.message);
  return made.value;
}

const net = smallNet(3);

describe('search distillation (src/eval/neural/distill.ts)', () => {
  it('game seeds depend on the run seed and the game only', () => {
    expect(gameSeed(1, 5)).toBe(gameSeed(1, 5));
    expect(new Set([gameSeed(1, 0), gameSeed(1, 1), gameSeed(2, 0), gameSeed(2, 1)]).size).toBe(4);
  });

  it('collects contact positions before a roll, reproducibly; without extras they are the self-play game’s', () => {
    const chooser = new LongChooser(CLASSIC, net);
    const plain = distillationPositions(CLASSIC, chooser, new SeededRandom(11), 0, 0);
    expect(plain.length).toBeGreaterThan(10);
    for (const s of plain) {
      expect(s.pending).toHaveLength(0);
      expect(winnerOf(s)).toBeFalsy();
      expect(isLongRace(s.position.board)).toBe(false);
    }
    // The same game as the TD self-play with the same seed: its contact positions before a roll.
    const td = playTdGame(CLASSIC, chooser, new SeededRandom(11), 0.7);
    expect(plain.length).toBe(td.positions);
    plain.forEach((s, i) =>
      expect(Array.from(s.position.board)).toEqual(Array.from(td.boards.subarray(26 * i, 26 * i + 26))),
    );
    // Alternatives add positions (the same game: the extra draws come after the choice).
    const again = distillationPositions(CLASSIC, chooser, new SeededRandom(11), 0, 0.5);
    const twice = distillationPositions(CLASSIC, chooser, new SeededRandom(11), 0, 0.5);
    expect(again.length).toBeGreaterThan(plain.length);
    expect(again.map((s) => Array.from(s.position.board))).toEqual(
      twice.map((s) => Array.from(s.position.board)),
    );
  });

  it('labels a position with the search value for its side to move', () => {
    const search = new LongSearch(CLASSIC, net);
    const state = distillationPositions(CLASSIC, new LongChooser(CLASSIC, net), new SeededRandom(4), 0, 0)[6];
    const label = labelState(search, state, 1);
    const p = new LongSearch(CLASSIC, net).evaluateState(state, 1);
    expect(Array.from(label.probs)).toEqual([p.win, p.winMars, p.winKoks, p.loseMars, p.loseKoks]);
    // The 1-ply value is not the 0-ply one (else there would be nothing to distil).
    expect(net.evaluate(state.position.board).win).not.toBeCloseTo(p.win, 6);
  });

  it('label lines round-trip to 1e-6 and chunks concatenate to the whole run', () => {
    // 0 plies (the network's own value) keeps this fast; the depth is the search's business, tested above.
    const options = { seed: 7, plies: 0, epsilon: 0.1, alt: 0.3 };
    const whole = labelGames(CLASSIC, net, net, { ...options, from: 0, to: 2 });
    const split =
      labelGames(CLASSIC, net, net, { ...options, from: 0, to: 1 }) +
      labelGames(CLASSIC, net, net, { ...options, from: 1, to: 2 });
    expect(split).toBe(whole);
    const data = new Dataset(26);
    addLabelLines(whole, data);
    expect(data.count).toBe(whole.trim().split('\n').length);
    const first = JSON.parse(whole.split('\n')[0]) as { b: number[]; p: number[] };
    expect(Array.from(data.board(0))).toEqual(first.b);
    const search = new LongSearch(CLASSIC, net);
    const state = distillationPositions(
      CLASSIC,
      new LongChooser(CLASSIC, net),
      new SeededRandom(gameSeed(7, 0)),
      0.1,
      0.3,
    )[0];
    const exact = labelState(search, state, 0);
    expect(JSON.parse(formatLabel(exact))).toEqual(first);
    for (let i = 0; i < 5; i++) expect(Math.abs(data.targets[i] - exact.probs[i])).toBeLessThan(2e-6);
    expect(() => addLabelLines('{"b":[1,2],"p":[0,0,0,0,0]}\n', new Dataset(26))).toThrow('malformed');
  });

  it('fitting moves the network towards the labels, deterministically', () => {
    const text = labelGames(CLASSIC, net, net, { seed: 2, plies: 0, epsilon: 0, alt: 0.5, from: 0, to: 2 });
    const run = () => {
      const data = new Dataset(26);
      addLabelLines(text, data);
      const trainer = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 8 }, 5);
      const losses: number[] = [];
      const history = fitLabels(
        trainer,
        encoding,
        data,
        CLASSIC,
        { epochs: 3, lr: 3e-3, batch: 16, seed: 1 },
        (_epoch, _train, loss) => losses.push(loss),
      );
      return { losses, history, weights: trainer.parameters.slice() };
    };
    const a = run();
    expect(a.losses).toHaveLength(4);
    expect(a.losses[3]).toBeLessThan(a.losses[0]);
    expect(a.history).toHaveLength(3);
    expect(Array.from(run().weights)).toEqual(Array.from(a.weights));
  });

  it('extends a long-1 network to long-2 without changing what it computes', () => {
    const v2 = createLongEncoding2();
    const parameters = NetworkTrainer.initial({ inputs: encoding.inputs, hidden: 8 }, 9).networkParameters();
    const map = inputMap(encoding, v2);
    expect(map).not.toBeNull();
    const wider = NetworkTrainer.extendInputs(parameters, v2.inputs, map!);
    expect(wider.inputs).toBe(v2.inputs);
    expect(inputMap(v2, encoding)).toBeNull();
    const make = (name: string, p: typeof parameters) => {
      const made = createNeuralEvaluator(
        { family: 'long', encoding: name, networks: [{ name: 'contact', parameters: p }] },
        { rules: CLASSIC, database: () => database('standard') },
      );
      if (!made.ok) throw new Error(made.error.message);
      return made.value;
    };
    const a = make('long-1', parameters);
    const b = make('long-2', wider);
    for (const state of longPositions('long', 21, 25)) {
      const pa = a.evaluate(state.position.board);
      const pb = b.evaluate(state.position.board);
      expect(pb.win).toBeCloseTo(pa.win, 9);
      expect(pb.winMars).toBeCloseTo(pa.winMars, 9);
      expect(pb.loseMars).toBeCloseTo(pa.loseMars, 9);
    }
  });
});
