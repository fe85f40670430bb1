import { LongRules } from '../engine/long/rules';
import { effectiveLongScoring } from '../engine/scoring/long';
import { ShortRules } from '../engine/short/rules';
import { LOSE_KOKS, LOSE_MARS, Probabilities, WIN, WIN_KOKS, WIN_MARS } from './probabilities';

/**
 * Points per unit stake of each kind of win: a single win (oin), a mars
 * (gammon) and the triple slot (koks / backgammon). Cubeless equity is the
 * expected points of the side to move per unit stake.
 */
export interface OutcomeValues {
  readonly single: number;
  readonly mars: number;
  readonly koks: number;
}

/** SH-SCORE-1…3, and long nardy with a koks definition (LN-SCORE-3 K3/K4): 1 / 2 / 3. */
export const STANDARD_VALUES: Readonly<OutcomeValues> = Object.freeze({ single: 1, mars: 2, koks: 3 });
/** LN-SCORE-4 default K0 (and FV-6): oin 1, mars 2, nothing triple. */
export const OIN_MARS_VALUES: Readonly<OutcomeValues> = Object.freeze({ single: 1, mars: 2, koks: 2 });
/** Gammons and backgammons count single (CUBE-5 Jacoby with a centred cube; or a 1-point race to the end). */
export const SINGLE_VALUES: Readonly<OutcomeValues> = Object.freeze({ single: 1, mars: 1, koks: 1 });

/**
 * The outcome values of a long-family rules object (LN-SCORE-3/4, FV-6, KH-4).
 * - `oinMars`: 1 / 2, and 3 in the koks slot when `koks` or `homeMars = triple`
 *   is configured;
 * - `sovietLike` (K5): 1 / 2 / 4, the koks slot holding "none off and not all home";
 * - `perChecker` (K6): the loser pays per checker left, which five
 *   probabilities cannot express; the evaluator uses 5 for a single loss
 *   (a typical race loss leaves about five checkers) and 15 for a mars.
 */
export function longOutcomeValues(rules: Pick<LongRules, 'scoring' | 'sixBlock' | 'headLimitPerTurn'>): OutcomeValues {
  const scoring = effectiveLongScoring(rules);
  switch (scoring.mode) {
    case 'oinMars':
      return scoring.koks !== 'none' || scoring.homeMars === 'triple' ? STANDARD_VALUES : OIN_MARS_VALUES;
    case 'sovietLike':
      return { single: 1, mars: 2, koks: 4 };
    case 'perChecker':
      return { single: 5, mars: 15, koks: 15 };
  }
}

/** The outcome values of a short-family rules object: SH-SCORE-1…3 or the Soviet 1/2/4/8 (§5.6, the 8 folded into the koks slot as 4 + bar). */
export function shortOutcomeValues(rules: Pick<ShortRules, 'scoring'>): OutcomeValues {
  return rules.scoring === 'soviet' ? { single: 1, mars: 2, koks: 4 } : STANDARD_VALUES;
}

/**
 * Cubeless equity of the side to move from a flat buffer of probabilities:
 * the expected points per unit stake (gnubg's "cubeless equity" for money
 * with the standard values).
 */
export function equityAt(flat: ArrayLike<number>, offset: number, values: OutcomeValues): number {
  const w = flat[offset + WIN];
  const wm = flat[offset + WIN_MARS];
  const wk = flat[offset + WIN_KOKS];
  const lm = flat[offset + LOSE_MARS];
  const lk = flat[offset + LOSE_KOKS];
  const l = 1 - w;
  return (
    values.single * (w - wm) +
    values.mars * (wm - wk) +
    values.koks * wk -
    (values.single * (l - lm) + values.mars * (lm - lk) + values.koks * lk)
  );
}

/** Cubeless equity of the side to move (expected points per unit stake). */
export function cubelessEquity(p: Probabilities, values: OutcomeValues = STANDARD_VALUES): number {
  const l = 1 - p.win;
  return (
    values.single * (p.win - p.winMars) +
    values.mars * (p.winMars - p.winKoks) +
    values.koks * p.winKoks -
    (values.single * (l - p.loseMars) + values.mars * (p.loseMars - p.loseKoks) + values.koks * p.loseKoks)
  );
}
