import { ShortScoring } from '../../engine/short/rules';
import { BearoffDatabase } from '../bearoff/database';
import { Evaluator, makeEvaluator } from '../evaluator';
import { HEADS, LinearWeights, linearEvaluatorCore, prepareLinear } from '../linear';
import { RaceEvaluator, createRaceEvaluator } from '../race';
import { ShortFeatureScratch, SHORT_FEATURES, shortFeatures } from './features';
import { shortLayers } from './terminal';
import { SHORT_CONTACT_WEIGHTS, SHORT_WEIGHTS_VERSION } from './weights';

/** Options of the backgammon evaluator. */
export interface ShortEvaluatorOptions {
  /** The standard one-sided bear-off database, asked for on the first race position (lazy loading). */
  readonly database: () => BearoffDatabase;
  /** SH-SCORE or the Soviet table (§5.6): what the koks slot means. Default standard. */
  readonly scoring?: ShortScoring;
  /** Contact weights (default: the fitted ones in weights.ts). */
  readonly weights?: LinearWeights;
  /** A version tag for custom weights. */
  readonly weightsVersion?: string;
}

/** The backgammon evaluator: exact / effective-pip race, or the linear contact heuristic. */
export interface ShortEvaluator extends Evaluator {
  readonly race: RaceEvaluator;
  /** Whether a position is evaluated by the race evaluator. */
  isRace(board: Int8Array): boolean;
}

/**
 * Creates the short-family (backgammon) evaluator: game-over boards give
 * their result; races (`isShortRace`) go to the race evaluator (exact when
 * both sides are home); every other position to the linear contact
 * heuristic (features.ts, weights fitted by scripts/train/fit-short.ts).
 */
export function createShortEvaluator(options: ShortEvaluatorOptions): ShortEvaluator {
  const scoring = options.scoring ?? 'standard';
  const race = createRaceEvaluator({
    family: 'short' as const,
    database: options.database,
    triple: scoring === 'soviet' ? 'notAllHome' : 'backgammon',
  });
  const model: LinearWeights = options.weights ?? { features: SHORT_FEATURES, weights: SHORT_CONTACT_WEIGHTS };
  if (model.features !== SHORT_FEATURES || model.weights.length !== HEADS * SHORT_FEATURES) {
    throw new RangeError(`short contact weights must have ${HEADS} × ${SHORT_FEATURES} entries`);
  }
  const scratch = new ShortFeatureScratch();
  const prepared = prepareLinear(model);
  const version = `${options.weightsVersion ?? SHORT_WEIGHTS_VERSION}+${race.version}`;
  const core = linearEvaluatorCore('short', 'short-heuristic', version, shortLayers(race, scoring), prepared, (board, features) =>
    shortFeatures(board, features, scratch),
  );
  return makeEvaluator(core);
}
