/**
 * Rule options of the long-nardy family (SPEC §2, §3.8, §6) and the presets.
 *
 * A preset is plain data: one `LongRules` object. Variants differ only by
 * these options plus the few hooks the options switch on (Fevga's runner and
 * starting quarter, exact-only bear-off, home-move bans, the Khachapuri
 * start). Defaults are the spec's recommended values (shown in bold there).
 */

/** LN-HEAD-2. */
export type FirstTurnHeadException = 'conditional' | 'fixedDoubles' | 'anyDouble' | 'none';
/** LN-HEAD-1, KH-2, FV-2. */
export type HeadLimit = 1 | 'unlimited' | 'fevgaRunner';
/** LN-BLOCK-3, LN-BLOCK-5; `fevgaRules` = FV-3…FV-5 instead of the block rule. */
export type SixBlockRule = 'needOpponentAhead' | 'needOpponentInHome' | 'forbidden' | 'allowed' | 'fevgaRules';
/** LN-BLOCK-4 (`endOfTurn` is checked at the end of every stage, §3.8). */
export type SixBlockTiming = 'endOfTurn' | 'everyStep';
/** CR-1, GS-1, §3.8. */
export type DoublesRule = 'standard' | 'cascade' | 'rerollIfFull';
/** CR-2, GS-2, FG-2, TM-3. */
export type UnplayedDoubles = 'forfeit' | 'toOpponent' | 'toOpponentIfStarted';
/** CR-5, CG-4, FG-3. */
export type CascadeStop = 'immediately' | 'afterOneMoreStage' | 'never';
/** LN-OFF-3 vs CR-4 / CG-5. */
export type BearOffRule = 'standard' | 'exactOnly';
/** CR-4 (A10). */
export type HomeMoves = 'allowed' | 'forbiddenWhenAllHome' | 'forbiddenAlways';
/** TM-4 (`asStage` is accepted as a synonym of `presetRule`). */
export type DebtHeadAllowance = 'one' | 'presetRule';
/** TM-4, A13. */
export type DebtContinuation = 'stopAtFirstIncompleteStage' | 'skipToNextStage';
/** LN-START-2. */
export type OpeningRoll = 'rerollByWinner' | 'useRollOffDice' | 'fixedFirstSeat';
/** LN-START-3. */
export type NextGameStarter = 'previousWinner' | 'rollOff';
/** LN-INIT-1, KH-1. */
export type InitialPosition = 'head15' | 'khachapuri';
/** LN-SCORE-4 / FV-6. */
export type LongScoringMode = 'oinMars' | 'sovietLike' | 'perChecker';
export type KoksRule = 'none' | 'startQuarter' | 'noneInHome';
export type HomeMarsRule = 'asMars' | 'triple';
/** LN-SCORE-6. */
export type LastRoll = 'none' | 'drawIfCompletes';

export interface LongScoring {
  mode: LongScoringMode;
  koks: KoksRule;
  homeMars: HomeMarsRule;
}

export interface LongRules {
  readonly family: 'long';
  initialPosition: InitialPosition;
  headLimitPerTurn: HeadLimit;
  firstTurnHeadException: FirstTurnHeadException;
  sixBlock: SixBlockRule;
  sixBlockTiming: SixBlockTiming;
  doubles: DoublesRule;
  unplayedDoubles: UnplayedDoubles;
  cascadeStopWhenAllHome: CascadeStop;
  /** International Gul bara: the cascade starts with the player's N-th roll (§3.10). */
  cascadeFromTurn: number;
  bearOff: BearOffRule;
  homeMoves: HomeMoves;
  debtHeadAllowance: DebtHeadAllowance;
  debtContinuation: DebtContinuation;
  openingRoll: OpeningRoll;
  nextGameStarter: NextGameStarter;
  scoring: LongScoring;
  /** LN-SCORE-5: the doubling cube is off unless enabled (never in Fevga, CUBE-7). */
  cube: boolean;
  lastRoll: LastRoll;
}

export type LongPresetName =
  | 'long'
  | 'nardgammon'
  | 'crazy'
  | 'gulbar'
  | 'crazy-gulbar'
  | 'khachapuri'
  | 'fevga'
  | 'giul'
  | 'gulbara-intl';

/** Long nardy classic, SPEC §2 (preset `long.classic`). */
export const CLASSIC: Readonly<LongRules> = Object.freeze({
  family: 'long',
  initialPosition: 'head15',
  headLimitPerTurn: 1,
  firstTurnHeadException: 'conditional',
  sixBlock: 'needOpponentAhead',
  sixBlockTiming: 'endOfTurn',
  doubles: 'standard',
  unplayedDoubles: 'forfeit',
  cascadeStopWhenAllHome: 'immediately',
  cascadeFromTurn: 1,
  bearOff: 'standard',
  homeMoves: 'allowed',
  debtHeadAllowance: 'one',
  debtContinuation: 'stopAtFirstIncompleteStage',
  openingRoll: 'rerollByWinner',
  nextGameStarter: 'previousWinner',
  scoring: Object.freeze({ mode: 'oinMars', koks: 'none', homeMars: 'asMars' }) as LongScoring,
  cube: false,
  lastRoll: 'none',
} as LongRules);

function preset(overrides: Partial<LongRules>): Readonly<LongRules> {
  return Object.freeze({ ...CLASSIC, ...overrides, family: 'long' } as LongRules);
}

/** The table of SPEC §3.8 (plus the optional §3.10 preset). */
export const LONG_PRESETS: Readonly<Record<LongPresetName, Readonly<LongRules>>> = Object.freeze({
  long: CLASSIC,
  // NG-1
  nardgammon: preset({ sixBlockTiming: 'everyStep' }),
  // CR-1…CR-6
  crazy: preset({
    doubles: 'cascade',
    unplayedDoubles: 'forfeit',
    cascadeStopWhenAllHome: 'immediately',
    bearOff: 'exactOnly',
    homeMoves: 'forbiddenWhenAllHome',
  }),
  // GS-1…GS-3
  gulbar: preset({ doubles: 'rerollIfFull', unplayedDoubles: 'toOpponent' }),
  // CG-1…CG-6
  'crazy-gulbar': preset({
    doubles: 'cascade',
    unplayedDoubles: 'toOpponent',
    cascadeStopWhenAllHome: 'afterOneMoreStage',
    bearOff: 'exactOnly',
    homeMoves: 'forbiddenWhenAllHome',
  }),
  // KH-1…KH-4
  khachapuri: preset({
    initialPosition: 'khachapuri',
    headLimitPerTurn: 'unlimited',
    firstTurnHeadException: 'none',
    doubles: 'rerollIfFull',
    unplayedDoubles: 'toOpponent',
    scoring: { mode: 'perChecker', koks: 'none', homeMars: 'asMars' },
  }),
  // FV-1…FV-7
  fevga: preset({
    headLimitPerTurn: 'fevgaRunner',
    firstTurnHeadException: 'none',
    sixBlock: 'fevgaRules',
  }),
  // FG-1…FG-3
  giul: preset({
    headLimitPerTurn: 'fevgaRunner',
    firstTurnHeadException: 'none',
    sixBlock: 'fevgaRules',
    doubles: 'cascade',
    unplayedDoubles: 'toOpponentIfStarted',
    cascadeStopWhenAllHome: 'immediately',
  }),
  // §3.10 (optional)
  'gulbara-intl': preset({
    doubles: 'cascade',
    cascadeFromTurn: 4,
    unplayedDoubles: 'forfeit',
    cascadeStopWhenAllHome: 'never',
  }),
});
