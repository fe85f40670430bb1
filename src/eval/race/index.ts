import { BearoffDatabase } from '../bearoff/database';
import { MAX_ROLLS } from '../bearoff/build';
import { Evaluator, Family, makeEvaluator } from '../evaluator';
import { LONG_LAYOUT, isLongRace } from './long';
import { DEFAULT_RACE_MODEL, RaceModel, SideRace, SideRaceCache, TripleMeasure, combine, sideDistributions } from './model';
import { SHORT_LAYOUT, firstRollOffChance, isShortRace } from './short';

export { effectivePips, writeCrossing, writeEffectiveCrossing, writeReach } from './crossing';
export { isLongBearoff, isLongRace } from './long';
export { DEFAULT_RACE_MODEL } from './model';
export type { RaceModel, TripleMeasure } from './model';
export { firstRollOffChance, isShortBearoff, isShortRace } from './short';

/*
 * Race evaluation (no contact left) for both families.
 *
 * In a race the two sides no longer affect each other, so each side's
 * future is a one-sided problem: how many rolls it needs to bear off all
 * checkers (N), to bear off the first one (F, for mars / gammon), and — for
 * the triple results — to bring every checker home (S) or to get every
 * checker out of the winner's home (K, backgammon). With the side to move
 * rolling first:
 *
 *   win      = Σn P(Nm = n) · P(No ≥ n)
 *   winMars  = Σn P(Nm = n) · P(Fo ≥ n)          (the opponent has had n−1 rolls)
 *   loseMars = Σn P(No = n) · P(Fm ≥ n + 1)      (the mover has had n rolls)
 *
 * and the triple slots alike with the measure the scoring asks for. When all
 * of a side's checkers are home, N and F come exactly from the one-sided
 * bear-off database. Otherwise the side must first carry X pips across into
 * home; the crossing is modelled as a renewal of dice pips (`crossing`), the
 * checkers still outside are put on the 6-point for the database look-up,
 * and N = crossing + N(home with them on the 6-point). docs/evaluation.md
 * describes the model and its measured error.
 */

/** Options of a race evaluator. */
export interface RaceEvaluatorOptions {
  readonly family: Family;
  /**
   * The one-sided database of the bear-off rule set in force, asked for on
   * the first race evaluation (so a caller can load it lazily).
   */
  readonly database: () => BearoffDatabase;
  readonly triple: TripleMeasure;
  readonly model?: RaceModel;
}

/** A race evaluator: `evaluateInto` assumes `isShortRace` / `isLongRace` holds. */
export interface RaceEvaluator extends Evaluator {
  /** Whether `board` is a race of this family. */
  isRace(board: Int8Array): boolean;
  /** Expected rolls the side to move (`mover`) or the opponent still needs to bear off all checkers. */
  expectedRolls(board: Int8Array, mover: boolean): number;
}

/** Each family's race: its board layout, its race test, the first-roll bear-off chance (the search knows the backgammon moves only) and its letter in the version. */
const RACE_FAMILIES = {
  long: { layout: LONG_LAYOUT, firstRoll: null, isRace: isLongRace, tag: 'l' },
  short: { layout: SHORT_LAYOUT, firstRoll: firstRollOffChance, isRace: isShortRace, tag: 's' },
} as const satisfies Record<Family, unknown>;

/**
 * Creates the exact / effective-pip race evaluator of a family (see the top
 * of this file). Allocation-free per call.
 */
export function createRaceEvaluator(options: RaceEvaluatorOptions): RaceEvaluator {
  const { layout, firstRoll, isRace, tag } = RACE_FAMILIES[options.family];
  const model = options.model ?? DEFAULT_RACE_MODEL;
  const triple = options.triple;
  const expected = new SideRace();
  const tails: Float64Array[] = [];
  for (let i = 0; i < 7; i++) tails.push(new Float64Array(MAX_ROLLS));
  let db: BearoffDatabase | null = null;
  const database = (): BearoffDatabase => (db ??= options.database());
  const sides = new SideRaceCache(4, (side) => sideDistributions(side, database(), triple, model, firstRoll));
  const core = {
    family: options.family,
    name: `race-${options.family}`,
    // 2: the backgammon race takes its first-roll bear-off chance exactly (`firstRollOffChance`).
    version: `${firstRoll ? 2 : 1}.${model.perCheckerOutside}.${model.overshootCredit}.${model.marsPerCheckerOutside}.${model.marsOvershootCredit}.${model.marsMinimumPerChecker}.${triple}.${tag}`,
    isRace,
    evaluateInto(board: Int8Array, out: Float64Array, offset: number): void {
      const mover = sides.side(board, layout, true, null);
      const opponent = sides.side(board, layout, false, mover);
      combine(mover, opponent, triple, tails, out, offset);
    },
    expectedRolls(board: Int8Array, isMover: boolean): number {
      const side = expected;
      side.read(board, layout, isMover);
      sideDistributions(side, database(), 'none', model, null);
      let mean = 0;
      for (let k = 0; k < MAX_ROLLS; k++) mean += k * side.off[k];
      return mean;
    },
  };
  return makeEvaluator(core);
}
