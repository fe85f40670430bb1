import { finishedGameInto } from '../probabilities';
import { FamilyLayers } from '../evaluator';
import { longLossCounts } from '../../engine/long/board';
import { TripleMeasure, lossKind } from '../../engine/scoring/loss';
import { RaceEvaluator, isLongRace } from '../race';

export { longTripleMeasure } from '../../engine/scoring/loss';

/**
 * The kind of loss on a finished long-family board, of the side to move
 * (`moverLost`) or of the opponent, as the scoring core's `lossKind` reads
 * it: 1 oin (LN-SCORE-1), 2 mars (none borne off, LN-SCORE-2), 3 the triple
 * slot of `triple` (K1…K5).
 */
export function longLoserKind(board: Int8Array, moverLost: boolean, triple: TripleMeasure): 1 | 2 | 3 {
  return lossKind(longLossCounts(board, moverLost), triple);
}

/** If a side has borne off all 15 (LN-END-1), writes the result for the side to move and returns true. */
export function longTerminalInto(board: Int8Array, out: Float64Array, offset: number, triple: TripleMeasure): boolean {
  return finishedGameInto(board, 25, longLoserKind, triple, out, offset);
}

/** The layers of a long-family evaluator before its contact model: terminal results with `triple`, then `race`. */
export function longLayers(race: RaceEvaluator, triple: TripleMeasure): FamilyLayers<RaceEvaluator> {
  return { terminalInto: (board, out, offset) => longTerminalInto(board, out, offset, triple), isRace: isLongRace, race };
}
