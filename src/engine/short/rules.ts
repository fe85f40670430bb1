/**
 * Rule options of short nardy / backgammon (SPEC §5, §6 A1) and its presets.
 *
 * Movement is the same in every preset (SH-MOVE, SH-BAR, SH-OFF, MAX-*);
 * the options cover who starts, how a game is scored and the doubling
 * cube. A preset is plain data: one `ShortRules` object.
 */

import type { ShortCubeOptions } from '../scoring/cube';

/** SH-START-1 (A1). */
export type ShortOpeningRoll = 'useRollOffDice' | 'rerollByWinner' | 'fixedFirstSeat';
/** SH-START-2. */
export type ShortNextGameStarter = 'rollOff' | 'previousWinner';
/** SH-SCORE-1…3 (`standard`) or the Soviet 1/2/4/8 table of §5.6. */
export type ShortScoring = 'standard' | 'soviet';

/** The options of a game; the cube options (CUBE-1…5) are `ShortCubeOptions`. */
export interface ShortRules extends ShortCubeOptions {
  readonly family: 'short';
  /** SH-START-1: how the first mover of a game is found and what he plays. */
  readonly openingRoll: ShortOpeningRoll;
  /** SH-START-2: who starts the next game of a match. */
  readonly nextGameStarter: ShortNextGameStarter;
  /** SH-SCORE-1…3 or §5.6. */
  readonly scoring: ShortScoring;
  /** CUBE-6: the Crawford rule in matches. */
  readonly crawford: boolean;
}

export type ShortPresetName = 'backgammon' | 'short-soviet';

/** Backgammon with the standard rules (SPEC §5, preset `short.standard`). */
export const SHORT_STANDARD: Readonly<ShortRules> = Object.freeze({
  family: 'short',
  openingRoll: 'useRollOffDice',
  nextGameStarter: 'rollOff',
  scoring: 'standard',
  cube: true,
  jacoby: false,
  beaver: false,
  raccoon: false,
  automaticDoubles: 0,
  cubeCap: null,
  crawford: true,
} as ShortRules);

/** The presets of the short family. */
export const SHORT_PRESETS: Readonly<Record<ShortPresetName, Readonly<ShortRules>>> = Object.freeze({
  backgammon: SHORT_STANDARD,
  // Source 001 (SH-START-1 `fixedFirstSeat`: White starts; §5.6 scoring; no cube).
  'short-soviet': Object.freeze({
    ...SHORT_STANDARD,
    openingRoll: 'fixedFirstSeat',
    scoring: 'soviet',
    cube: false,
  } as ShortRules),
});
