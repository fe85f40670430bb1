import { LongScoring } from '../../engine/long/rules';
import { finishedGameInto } from '../probabilities';
import { FamilyLayers } from '../evaluator';
import { RaceEvaluator, TripleMeasure, isLongRace } from '../race';

function otherPoint(p: number): number {
  return p <= 12 ? p + 12 : p - 12;
}

/**
 * The triple (koks-slot) result in force under a long-family scoring
 * (LN-SCORE-3/4); the first that applies when several are configured.
 */
export function longTripleMeasure(scoring: Readonly<LongScoring>): TripleMeasure {
  if (scoring.mode === 'sovietLike') return 'notAllHome';
  if (scoring.koks === 'startQuarter') return 'startQuarter';
  if (scoring.koks === 'noneInHome') return 'noneInHome';
  if (scoring.homeMars === 'triple') return 'allHome';
  return 'none';
}

/**
 * The kind of loss on a finished long-family board, of the side to move
 * (`moverLost`) or of the opponent: 1 oin (LN-SCORE-1), 2 mars (none borne
 * off, LN-SCORE-2), 3 the triple slot of `triple` (K1…K5).
 */
export function longLoserKind(board: Int8Array, moverLost: boolean, triple: TripleMeasure): 1 | 2 | 3 {
  const off = moverLost ? board[0] : board[25];
  if (off > 0) return 1;
  if (triple === 'none') return 2;
  // The loser's checkers by his own point.
  let inHome = 0;
  let inStartQuarter = 0;
  let onBoard = 0;
  for (let p = 1; p <= 24; p++) {
    const n = moverLost ? board[p] : -board[p];
    if (n <= 0) continue;
    const own = moverLost ? p : otherPoint(p);
    onBoard += n;
    if (own <= 6) inHome += n;
    if (own >= 19) inStartQuarter += n;
  }
  switch (triple) {
    case 'startQuarter':
    case 'backgammon':
      return inStartQuarter > 0 ? 3 : 2;
    case 'noneInHome':
      return inHome === 0 ? 3 : 2;
    case 'allHome':
      return inHome === onBoard ? 3 : 2;
    case 'notAllHome':
      return inHome < onBoard ? 3 : 2;
  }
}

/** If a side has borne off all 15 (LN-END-1), writes the result for the side to move and returns true. */
export function longTerminalInto(board: Int8Array, out: Float64Array, offset: number, triple: TripleMeasure): boolean {
  return finishedGameInto(board, 25, longLoserKind, triple, out, offset);
}

/** The layers of a long-family evaluator before its contact model: terminal results with `triple`, then `race`. */
export function longLayers(race: RaceEvaluator, triple: TripleMeasure): FamilyLayers<RaceEvaluator> {
  return { terminalInto: (board, out, offset) => longTerminalInto(board, out, offset, triple), isRace: isLongRace, race };
}
