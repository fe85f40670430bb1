import { LongRules } from '../../engine/long/rules';
import { effectiveLongScoring } from '../../engine/scoring/long';
import { BearoffRuleSet } from '../bearoff/build';
import { BearoffDatabase } from '../bearoff/database';
import { Evaluator, makeEvaluator } from '../evaluator';
import { HEADS, LinearWeights, linearEvaluatorCore, prepareLinear } from '../linear';
import { RaceEvaluator, TripleMeasure, createRaceEvaluator } from '../race';
import { LongFeatureScratch, LONG_FEATURES, longFeatures } from './features';
import { longLayers, longTripleMeasure } from './terminal';
import { LONG_CONTACT_WEIGHTS, LONG_WEIGHTS_VERSION } from './weights';

/** The bear-off rule set of a long-family rules object (LN-OFF-3 vs CR-4 / CG-5). */
export function longBearoffRuleSet(rules: Pick<LongRules, 'bearOff'>): BearoffRuleSet {
  return rules.bearOff === 'exactOnly' ? 'exactOnly' : 'standard';
}

/** Options of the long-family evaluator. */
export interface LongEvaluatorOptions {
  readonly rules: Readonly<LongRules>;
  /**
   * The one-sided database of `longBearoffRuleSet(rules)`, asked for on the
   * first race position (lazy loading).
   */
  readonly database: () => BearoffDatabase;
  /** Contact weights (default: the trained ones in weights.ts). */
  readonly weights?: LinearWeights;
  readonly weightsVersion?: string;
}

/** The long-family evaluator. */
export interface LongEvaluator extends Evaluator {
  readonly race: RaceEvaluator;
  /** What the koks slot means under these rules. */
  readonly triple: TripleMeasure;
  isRace(board: Int8Array): boolean;
}

/**
 * Creates the long-family evaluator for a rules object: finished boards
 * give their result; races (`isLongRace`: each side's checkers all on its
 * own 1..12) go to the race evaluator with the bear-off database of the
 * rule set; other positions to the linear contact heuristic
 * (features.ts; weights trained by scripts/train/train-long.ts on classic
 * self-play and used for every preset).
 *
 * The board is seen from the side to move before it rolls, with no stage
 * pending: cascades, debts and re-rolls are the search's business
 * (search.ts). Mars / koks follow the rules' scoring (terminal.ts); for
 * K0, the default, `winKoks = loseKoks = 0`.
 */
export function createLongEvaluator(options: LongEvaluatorOptions): LongEvaluator {
  const scoring = effectiveLongScoring(options.rules);
  const triple = longTripleMeasure(scoring);
  const race = createRaceEvaluator({ family: 'long', database: options.database, triple });
  const model: LinearWeights = options.weights ?? { features: LONG_FEATURES, weights: LONG_CONTACT_WEIGHTS };
  if (model.features !== LONG_FEATURES || model.weights.length !== HEADS * LONG_FEATURES) {
    throw new RangeError(`long contact weights must have ${HEADS} × ${LONG_FEATURES} entries`);
  }
  const scratch = new LongFeatureScratch();
  const prepared = prepareLinear(model, [true, true, triple !== 'none', true, triple !== 'none']);
  const version = `${options.weightsVersion ?? LONG_WEIGHTS_VERSION}+${race.version}`;
  const core = linearEvaluatorCore('long', 'long-heuristic', version, longLayers(race, triple), prepared, (board, features) =>
    longFeatures(board, features, scratch),
  );
  return makeEvaluator({ ...core, triple });
}
