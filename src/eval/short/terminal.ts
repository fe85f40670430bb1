import { lossKind } from '../../engine/scoring/loss';
import { shortLossCounts } from '../../engine/short/board';
import { ShortScoring } from '../../engine/short/rules';
import { FamilyLayers } from '../evaluator';
import { finishedGameInto } from '../probabilities';
import { RaceEvaluator, isShortRace } from '../race';

/**
 * If a side has borne off all 15, writes the final result as probabilities
 * of the side to move and returns true (`shortLoserKind` gives the kind).
 */
export function shortTerminalInto(board: Int8Array, out: Float64Array, offset: number, scoring: ShortScoring = 'standard'): boolean {
  return finishedGameInto(board, 27, shortLoserKind, scoring, out, offset);
}

/**
 * The kind of loss, on a finished board, of the side to move (`moverLost`)
 * or of the opponent, as the scoring core's `lossKind` reads it: 1 single
 * (SH-SCORE-1), 2 gammon (none borne off, SH-SCORE-2), 3 the triple slot —
 * backgammon (SH-SCORE-3: also a checker on the bar or in the winner's home,
 * the loser's own 19..24), or under the Soviet table (§5.6) the 4-point loss
 * (a checker outside home or on the bar; the 8-point bar case shares the slot).
 * The board is the mover's: the opponent's own point p is the mover's 25 − p.
 */
export function shortLoserKind(board: Int8Array, moverLost: boolean, scoring: ShortScoring = 'standard'): 1 | 2 | 3 {
  return lossKind(shortLossCounts(board, moverLost), scoring === 'soviet' ? 'notAllHome' : 'backgammon');
}

/** The layers of a short-family evaluator before its contact model: terminal results under `scoring`, then `race`. */
export function shortLayers(race: RaceEvaluator, scoring: ShortScoring): FamilyLayers<RaceEvaluator> {
  return { terminalInto: (board, out, offset) => shortTerminalInto(board, out, offset, scoring), isRace: isShortRace, race };
}
