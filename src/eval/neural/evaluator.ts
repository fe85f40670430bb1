import { RulesError, rulesError } from '../../engine/errors';
import { LongRules, CLASSIC } from '../../engine/long/rules';
import { Result, err, ok } from '../../engine/result';
import { effectiveLongScoring } from '../../engine/scoring/long';
import { ShortScoring } from '../../engine/short/rules';
import { BearoffDatabase } from '../bearoff/database';
import { Evaluator, Family, FamilyLayers, layeredEvaluateInto, makeEvaluator } from '../evaluator';
import { longLayers, longTripleMeasure } from '../long/terminal';
import { RaceEvaluator, TripleMeasure, createRaceEvaluator } from '../race';
import { RACE_MODEL_INPUTS, withRaceNetwork } from './race-network';
import { shortLayers } from '../short/terminal';
import { NeuralEncoding, encodingIn } from './encoding';
import { NeuralWeights } from './format';
import { createLongEncoding, createLongEncoding2 } from './long-encoding';
import { NeuralManifest } from './manifest';
import { NeuralNetwork, SparseInput } from './network';
import { createShortEncoding, createShortEncoding2 } from './short-encoding';
import { checkedWeightsFile, loadWeightsFile } from './weights-file';

/** The input encoding of a family and version name (encoding.ts); null if unknown. */
export function encodingFor(family: Family, name: string): NeuralEncoding | null {
  return encodingIn(
    {
      'short-1': { family: 'short', create: createShortEncoding },
      'short-2': { family: 'short', create: createShortEncoding2 },
      'long-1': { family: 'long', create: createLongEncoding },
      'long-2': { family: 'long', create: createLongEncoding2 },
    },
    family,
    name,
  );
}

/** A family's terminal results and race model; `measure` names their scoring in the version; `koks` false: no triple result. */
interface Layers {
  readonly layers: FamilyLayers<RaceEvaluator>;
  readonly measure: string;
  readonly koks: boolean;
}

/** Each family's layers under the network, from the evaluator's options (its scoring or rules). */
const FAMILY_LAYERS: Readonly<Record<Family, (options: NeuralEvaluatorOptions) => Layers>> = {
  short: (options) => {
    const scoring: ShortScoring = options.scoring ?? 'standard';
    const triple: TripleMeasure = scoring === 'soviet' ? 'notAllHome' : 'backgammon';
    return { layers: shortLayers(createRaceEvaluator({ family: 'short', database: options.database, triple }), scoring), measure: scoring, koks: true };
  },
  long: (options) => {
    const triple: TripleMeasure = longTripleMeasure(effectiveLongScoring(options.rules ?? CLASSIC));
    return { layers: longLayers(createRaceEvaluator({ family: 'long', database: options.database, triple }), triple), measure: triple, koks: triple !== 'none' };
  },
};

/** Options of a neural evaluator. */
export interface NeuralEvaluatorOptions {
  /**
   * The one-sided bear-off database of the rules' bear-off rule set
   * (`longBearoffRuleSet(rules)` for the long family, `standard` for
   * backgammon), asked for on the first race position (lazy loading).
   */
  readonly database: () => BearoffDatabase;
  /** Long family: the rules, for mars / koks (terminal.ts) and the race's koks slot. Default classic. */
  readonly rules?: Readonly<LongRules>;
  /** Backgammon: SH-SCORE (default) or the Soviet table. */
  readonly scoring?: ShortScoring;
  /** A name for `Evaluator.name` (default `neural-<family>`). */
  readonly name?: string;
  /** The version for cache keys: the weights' content hash (`weightsHash`) unless given. */
  readonly version?: string;
  /** The version of the weights' `race` network, when they have one (its file's content hash). */
  readonly raceVersion?: string;
}

/** A neural evaluator: the `Evaluator` of its family plus what it is made of. */
export interface NeuralEvaluator extends Evaluator {
  readonly race: RaceEvaluator;
  readonly contact: NeuralNetwork;
  readonly encoding: NeuralEncoding;
  /** Whether a position goes to the race evaluator instead of the network. */
  isRace(board: Int8Array): boolean;
}

/**
 * Creates a neural evaluator from decoded weights. Positions are sent to:
 * - the final result, when a side has borne off all 15;
 * - the race evaluator of src/eval/race.ts (exact from the one-sided bear-off
 *   database when both sides are home), when no contact is left
 *   (`isShortRace` / `isLongRace`);
 * - otherwise the `contact` network on the family's encoding.
 *
 * The network's five sigmoids are then put in order (`clampInPlace`:
 * `winKoks ≤ winMars ≤ win`, `loseKoks ≤ loseMars ≤ 1 − win`); when the
 * rules have no triple result (long nardy K0, the default) the koks slots
 * are 0. Allocation-free per evaluation; not re-entrant (scratch buffers).
 */
export function createNeuralEvaluator(
  weights: NeuralWeights,
  options: NeuralEvaluatorOptions,
): Result<NeuralEvaluator, RulesError> {
  const family = weights.family;
  const encoding = encodingFor(family, weights.encoding);
  if (!encoding) return failure(`unknown encoding "${weights.encoding}" for family ${family}`);
  const contactWeights = weights.networks.find((n) => n.name === 'contact');
  if (!contactWeights) return failure('no "contact" network');
  const raceWeights = weights.networks.find((n) => n.name === 'race');
  const unknown = weights.networks.find((n) => n.name !== 'contact' && n.name !== 'race');
  if (unknown || weights.networks.length !== (raceWeights ? 2 : 1))
    return failure('the networks are one "contact" network and at most one "race" network');
  if (raceWeights && family !== 'short') return failure('a "race" network is for backgammon only');
  for (const n of weights.networks) {
    // The race network reads the encoding's inputs and then the race model's answer (race-network.ts).
    const expected = encoding.inputs + (n.name === 'race' ? RACE_MODEL_INPUTS : 0);
    if (n.parameters.inputs !== expected)
      return failure(`the ${n.name} network has ${n.parameters.inputs} inputs; it reads ${expected} (encoding ${encoding.name})`);
  }
  const contact = new NeuralNetwork(contactWeights.parameters);
  const input: SparseInput = contact.inputBuffer();
  const kernelEncoding = encoding.kernel;
  const version = options.version ?? 'unversioned';
  const name = options.name ?? `neural-${family}`;
  const { layers, measure, koks } = FAMILY_LAYERS[family](options);
  // The race network is trained on gnubg's standard scoring: under the Soviet table the race model keeps races.
  const raceNetwork = raceWeights && (options.scoring ?? 'standard') === 'standard' ? raceWeights.parameters : null;
  const race = raceNetwork ? withRaceNetwork(layers.race, raceNetwork, encoding, options.raceVersion ?? 'unversioned') : layers.race;
  const layered: FamilyLayers<RaceEvaluator> = { ...layers, race };
  const core = {
    family,
    name,
    version: `${version}+${measure}+${race.version}`,
    race,
    contact,
    encoding,
    isRace: layers.isRace,
    evaluateInto: layeredEvaluateInto(layered, (board, out, offset) => {
      // In one call to the WebAssembly kernel where it has the encoding; else encoded here (the same inputs).
      if (kernelEncoding === undefined || !contact.forwardShortBoard(board, kernelEncoding, out, offset)) {
        encoding.encode(board, input);
        contact.forward(input, out, offset);
      }
      if (!koks) {
        // K0: no triple result exists (LN-SCORE-4).
        out[offset + 2] = 0;
        out[offset + 4] = 0;
      }
    }),
  };
  return ok(makeEvaluator(core));
}

function failure(message: string): { ok: false; error: RulesError } {
  return err(rulesError('INVALID_REQUEST', `neural weights: ${message}`, { field: 'neuralWeights' }));
}

/**
 * Loads a committed network: `bytes` is the content of the weights file
 * (data/nets/<name>.bin, read by the caller — the core does no I/O) and
 * `manifest` its parsed JSON manifest (data/nets/<name>.json). Checks that
 * the bytes are intact, that they are the file the manifest describes (its
 * `version` is the content hash) and that family, encoding and sizes agree.
 * The evaluator's version is the manifest's, so cache keys change with the
 * weights.
 */
export function loadNeuralEvaluator(
  bytes: Uint8Array,
  manifest: unknown,
  options: NeuralEvaluatorOptions & { readonly race?: { readonly bytes: Uint8Array; readonly manifest: unknown } },
): Result<NeuralEvaluator & { readonly manifest: NeuralManifest }, RulesError> {
  return loadWeightsFile(bytes, manifest, 'neural weights', 'neuralWeights', ({ manifest: m, weights: w }) => {
    const mismatch = fileMismatch(m, w);
    if (mismatch) return failure(mismatch);
    const { race: raceFile, ...rest } = options;
    let networks = w.networks;
    let raceVersion: string | undefined;
    if (raceFile) {
      // A race network comes in its own file (its own training command), beside the contact network's.
      const raceFailure = (message: string) => err(rulesError('INVALID_REQUEST', `race network weights: ${message}`, { field: 'raceNetworkWeights' }));
      const race = checkedWeightsFile(raceFile.bytes, raceFile.manifest, 'race network weights', 'raceNetworkWeights');
      if (!race.ok) return raceFailure(race.error.message.replace(/^race network weights: /, ''));
      const r = race.value;
      const wrong = fileMismatch(r.manifest, r.weights);
      if (wrong) return raceFailure(wrong);
      if (r.weights.networks.length !== 1 || r.weights.networks[0].name !== 'race') return raceFailure('its file holds one "race" network');
      if (r.weights.family !== w.family || r.weights.encoding !== w.encoding)
        return raceFailure(`${r.weights.family} ${r.weights.encoding}, the contact network's ${w.family} ${w.encoding}`);
      networks = [...networks, ...r.weights.networks];
      raceVersion = r.manifest.version;
    }
    return createNeuralEvaluator({ ...w, networks }, { ...rest, name: rest.name ?? m.name, version: rest.version ?? m.version, raceVersion });
  });
}

/** What a weights file and its manifest disagree on (encoding, the networks and their sizes), or null. */
function fileMismatch(m: NeuralManifest, w: NeuralWeights): string | null {
  if (w.encoding !== m.encoding) return `encoding ${w.encoding} in the file, ${m.encoding} in the manifest`;
  const listed = m.networks.map((n) => `${n.name}:${n.inputs}x${n.hidden}`).join(',');
  const stored = w.networks.map((n) => `${n.name}:${n.parameters.inputs}x${n.parameters.hidden}`).join(',');
  return listed === stored ? null : `networks ${stored} in the file, ${listed} in the manifest`;
}
