import { NeuralWeights, encodeNeuralWeights, weightsHash } from '../../../src/eval/neural/format';
import { NeuralEvaluator, createNeuralEvaluator, encodingFor, loadNeuralEvaluator } from '../../../src/eval/neural/evaluator';
import { SparseInput, sparseInput, referenceForward } from '../../../src/eval/neural/network';
import { NetworkTrainer } from '../../../src/eval/neural/trainer';
import { clampInPlace, probabilitiesAt } from '../../../src/eval/probabilities';
import { createRaceEvaluator, isShortBearoff, isShortRace } from '../../../src/eval/race';
import { RACE_MODEL_INPUTS, raceNetworkEncoding, relayParameters } from '../../../src/eval/neural/race-network';
import { database, shortBoard } from '../support';
import { randomWeights } from './support';

/**
 * The backgammon race network (docs/neural.md, "Race network"): races
 * before both sides are home go to it, both home stays with the exact
 * bear-off database, contact with the contact network; the Soviet table
 * keeps the race model; it loads from its own file beside the contact one.
 */
function withRace(hidden = 8, seed = 5): NeuralWeights {
  const contact = randomWeights('short', 8, 3);
  const race = NetworkTrainer.initial({ inputs: contact.networks[0].parameters.inputs + RACE_MODEL_INPUTS, hidden }, seed).networkParameters();
  return { ...contact, networks: [...contact.networks, { name: 'race', parameters: race }] };
}

function evaluator(weights: NeuralWeights, scoring: 'standard' | 'soviet' = 'standard'): NeuralEvaluator {
  const r = createNeuralEvaluator(weights, { database: () => database('standard'), scoring, raceVersion: 'test-race' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const MODEL = createRaceEvaluator({ family: 'short', database: () => database('standard'), triple: 'backgammon' });

/** The race network's own answer for `board`, from its parameters (the plain forward pass) on its inputs. */
function raceAnswer(weights: NeuralWeights, board: Int8Array) {
  const encoding = encodingFor('short', weights.encoding);
  if (!encoding) throw new Error('no encoding');
  const reads = raceNetworkEncoding(encoding, MODEL);
  const input: SparseInput = sparseInput(reads.inputs);
  reads.encode(board, input);
  const out = new Float64Array(5);
  referenceForward(weights.networks[1].parameters, input, out, 0);
  clampInPlace(out, 0);
  return probabilitiesAt(out, 0);
}

function expectClose(a: ReturnType<typeof probabilitiesAt>, b: ReturnType<typeof probabilitiesAt>): void {
  for (const k of ['win', 'winMars', 'winKoks', 'loseMars', 'loseKoks'] as const) expect(a[k]).toBeCloseTo(b[k], 7);
}

// A race with checkers outside home on both sides, a race with both sides home, and a contact position.
const RACE = shortBoard({ points: { 2: 3, 5: 4, 9: 4, 14: 2 } }, { points: { 1: 4, 4: 4, 8: 3, 11: 2 } });
const BEAROFF = shortBoard({ points: { 1: 3, 2: 3 } }, { points: { 3: 4, 5: 4 } });
const CONTACT = shortBoard({ points: { 6: 5, 8: 3, 13: 5, 24: 2 } }, { points: { 6: 5, 8: 3, 13: 5, 24: 2 } });

describe('backgammon race network', () => {
  it('takes the races before both sides are home', () => {
    expect(isShortRace(RACE) && !isShortBearoff(RACE)).toBe(true);
    const weights = withRace();
    const net = evaluator(weights);
    expectClose(net.evaluate(RACE), raceAnswer(weights, RACE));
    // The race layer is the one the evaluator uses: its answer is the evaluator's.
    expect(net.race.evaluate(RACE)).toEqual(net.evaluate(RACE));
    expect(net.version).toContain('+race-test-race');
  });

  it('reads the race model answer after the encoding, and starts as the race model (the relay units)', () => {
    const contact = randomWeights('short', 8, 3);
    const relay = relayParameters(NetworkTrainer.initial({ inputs: 210 + RACE_MODEL_INPUTS, hidden: 16 }, 9).networkParameters());
    const net = evaluator({ ...contact, networks: [...contact.networks, { name: 'race', parameters: relay }] });
    const model = MODEL.evaluate(RACE);
    const p = net.evaluate(RACE);
    for (const k of ['win', 'winMars', 'winKoks', 'loseMars', 'loseKoks'] as const) expect(Math.abs(p[k] - model[k])).toBeLessThan(2e-5);
    expect(() => relayParameters(NetworkTrainer.initial({ inputs: 215, hidden: 9 }, 1).networkParameters())).toThrow(RangeError);
  });

  it('leaves both sides home to the bear-off database, contact to the contact network', () => {
    const plain = evaluator(randomWeights('short', 8, 3));
    const net = evaluator(withRace());
    expect(isShortBearoff(BEAROFF)).toBe(true);
    expect(net.evaluate(BEAROFF)).toEqual(plain.evaluate(BEAROFF));
    expect(isShortRace(CONTACT)).toBe(false);
    expect(net.evaluate(CONTACT)).toEqual(plain.evaluate(CONTACT));
    // Without a race network the race model answers the race, and differently from a random network.
    expect(plain.evaluate(RACE)).not.toEqual(net.evaluate(RACE));
  });

  it('the Soviet table keeps the race model (the network learnt the standard gammons and backgammons)', () => {
    const soviet = evaluator(withRace(), 'soviet');
    const plainSoviet = evaluator(randomWeights('short', 8, 3), 'soviet');
    expect(soviet.evaluate(RACE)).toEqual(plainSoviet.evaluate(RACE));
    expect(soviet.version).not.toContain('+race-');
  });

  it('refuses a race network of another size, another family or twice', () => {
    const contact = randomWeights('short', 8, 3);
    const small = NetworkTrainer.initial({ inputs: 20, hidden: 4 }, 1).networkParameters();
    const wrongSize = createNeuralEvaluator(
      { ...contact, networks: [...contact.networks, { name: 'race', parameters: small }] },
      { database: () => database('standard') },
    );
    expect(wrongSize.ok).toBe(false);
    if (!wrongSize.ok) expect(wrongSize.error.message).toContain('race network has 20 inputs; it reads 215');
    const twice = withRace();
    const doubled = createNeuralEvaluator({ ...twice, networks: [...twice.networks, twice.networks[1]] }, { database: () => database('standard') });
    expect(doubled.ok).toBe(false);
    const long = randomWeights('long', 8, 3);
    const longRace = createNeuralEvaluator(
      { ...long, networks: [...long.networks, { name: 'race', parameters: long.networks[0].parameters }] },
      { database: () => database('standard') },
    );
    expect(longRace.ok).toBe(false);
    if (!longRace.ok) expect(longRace.error.message).toContain('backgammon only');
  });

  describe('from its own file beside the contact network', () => {
    const contact = randomWeights('short', 8, 3);
    const race: NeuralWeights = { ...contact, networks: [{ name: 'race', parameters: withRace().networks[1].parameters }] };
    const file = (w: NeuralWeights, name: string) => {
      const bytes = encodeNeuralWeights(w);
      const networks = w.networks.map((n) => ({ name: n.name, inputs: n.parameters.inputs, hidden: n.parameters.hidden }));
      return { bytes, manifest: { family: 'short', name, format: 1, encoding: w.encoding, version: weightsHash(bytes), file: `${name}.bin`, networks, training: {} } };
    };
    const main = file(contact, 'backgammon');
    const options = { database: () => database('standard') };

    it('loads with the race file, its version in the evaluator’s', () => {
      const raceFile = file(race, 'backgammon-race');
      const loaded = loadNeuralEvaluator(main.bytes, main.manifest, { ...options, race: raceFile });
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(loaded.value.version).toContain(`+race-${raceFile.manifest.version}`);
      expectClose(loaded.value.evaluate(RACE), raceAnswer({ ...contact, networks: [...contact.networks, race.networks[0]] }, RACE));
    });

    it('refuses a race file that is not one race network of the same encoding, or not its manifest’s bytes', () => {
      const asContact = file(contact, 'backgammon-race');
      const r1 = loadNeuralEvaluator(main.bytes, main.manifest, { ...options, race: asContact });
      expect(r1.ok).toBe(false);
      if (!r1.ok) expect(r1.error.message).toContain('one "race" network');
      const other = file({ ...race, encoding: 'short-2', networks: [{ name: 'race', parameters: NetworkTrainer.initial({ inputs: 231, hidden: 4 }, 2).networkParameters() }] }, 'backgammon-race');
      const r2 = loadNeuralEvaluator(main.bytes, main.manifest, { ...options, race: other });
      expect(r2.ok).toBe(false);
      if (!r2.ok) expect(r2.error.message).toContain('short-2');
      const raceFile = file(race, 'backgammon-race');
      const altered = Uint8Array.from(raceFile.bytes);
      altered[altered.length - 10] ^= 1;
      const r3 = loadNeuralEvaluator(main.bytes, main.manifest, { ...options, race: { bytes: altered, manifest: raceFile.manifest } });
      expect(r3.ok).toBe(false);
      if (!r3.ok) {
        expect(r3.error.field).toBe('raceNetworkWeights');
        expect(r3.error.message).toContain('checksum');
      }
    });
  });
});
