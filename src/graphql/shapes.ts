import { Float, Int } from 'type-graphql';
import { fields, objectType, perSideType } from './build';

/* Shapes that several GraphQL answer types share, written once. */

export const Pips = perSideType('Pips', Int);

export const Probabilities = objectType(
  'Probabilities',
  { win: Float, winMars: Float, winKoks: Float, loseMars: Float, loseKoks: Float },
  'Outcome probabilities of one side.',
);

/** The fields of a rollout estimate: probabilities, their standard errors, equity, trials, how it stopped. */
export const ROLLOUT_ESTIMATE = fields({
  probabilities: Probabilities,
  standardErrors: Probabilities,
  equity: Float,
  equityStandardError: Float,
  trials: Int,
  truncatedTrials: Int,
  stoppedBy: String,
});
