import { LongScoring } from '../long/rules';
import { LoserCheckers, checkersOn } from './loser';

/*
 * The one place that classifies a lost game on the single / gammon /
 * triple ladder (oin / mars / koks, §5.7). The scoring ladders of both
 * families (./long.ts, ./short.ts), the evaluators' terminal results, the
 * match-file replay and the training loops all read a loss through
 * `lossKind`; they differ only in how they count the loser's checkers.
 */

/**
 * Which none-off loss counts in the triple slot:
 * - `none`: no triple (LN-SCORE-4 default K0, FV-6);
 * - `backgammon`: SH-SCORE-3, a checker on the bar or in the winner's home (the loser's own 19..24);
 * - `startQuarter`: LN-SCORE-3 K3, a checker on own 19..24 (the long family has no bar);
 * - `noneInHome`: LN-SCORE-3 K4, nothing on own 1..6;
 * - `allHome`: LN-SCORE-3 K1/K2 home mars, every checker home;
 * - `notAllHome`: K5 / §5.6 Soviet 4 (and 8), a checker outside home or on the bar.
 */
export type TripleMeasure = 'none' | 'backgammon' | 'startQuarter' | 'noneInHome' | 'allHome' | 'notAllHome';

/** 1 single (oin, LN-SCORE-1, SH-SCORE-1), 2 gammon (mars: none borne off, LN-SCORE-2, SH-SCORE-2), 3 the triple slot. */
export type LossKind = 1 | 2 | 3;

/** The loser's checkers counted by where the ladder looks, in his own numbering (COM-2). */
export interface LossCounts {
  /** Borne off. */
  readonly off: number;
  /** On the bar (short nardy only). */
  readonly bar: number;
  /** On own 1..6 (home). */
  readonly home: number;
  /** On own 7..24 (on the board outside home). */
  readonly outside: number;
  /** On own 19..24 (the starting quarter; the winner's home in short nardy, GEO-S1). */
  readonly startQuarter: number;
}

/** The kind of a loss: single when the loser bore off a checker, else gammon or, when `triple` holds, the triple slot. */
export function lossKind(loser: LossCounts, triple: TripleMeasure): LossKind {
  if (loser.off > 0) return 1;
  switch (triple) {
    case 'none':
      return 2;
    case 'backgammon':
    case 'startQuarter':
      return loser.bar + loser.startQuarter > 0 ? 3 : 2;
    case 'noneInHome':
      return loser.home === 0 ? 3 : 2;
    case 'allHome':
      return loser.outside + loser.bar === 0 ? 3 : 2;
    case 'notAllHome':
      return loser.outside + loser.bar > 0 ? 3 : 2;
  }
}

/** The counts of a checked loser description. */
export function lossCounts(loser: LoserCheckers): LossCounts {
  return {
    off: loser.off,
    bar: loser.bar,
    home: checkersOn(loser, 1, 6),
    outside: checkersOn(loser, 7, 24),
    startQuarter: checkersOn(loser, 19, 24),
  };
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
