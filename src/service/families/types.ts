import { Dice } from '../../engine/dice';
import { RulesError } from '../../engine/errors';
import { Result } from '../../engine/result';
import { CubeConfig } from '../../engine/scoring/cube';
import { CubeError } from '../../engine/scoring/cube-errors';
import { GameScore, ResignLevel, Stake } from '../../engine/scoring/score';
import { Side } from '../../engine/side';
import { Step } from '../../engine/step';
import { NextView, StageView, TurnView } from '../views';

/**
 * What the service layer needs of a game family (long nardy and its
 * variants, or short nardy), so that the stateless endpoints and the game
 * sessions are written once. `S` is the family's state; it is stored as JSON.
 */
export interface FamilyTurn<S> {
  readonly view: TurnView;
  readonly state: S;
  readonly next: NextView;
  readonly winner: Side | null;
  readonly stepCount: number;
}

export interface FamilyTurns<S> {
  readonly stage: StageView;
  readonly unitsUsed: number;
  readonly turns: readonly FamilyTurn<S>[];
}

export type FamilyValidation<S> =
  | { readonly legal: true; readonly complete: true; readonly stage: StageView; readonly turn: FamilyTurn<S> }
  | { readonly legal: true; readonly complete: false; readonly stage: StageView; readonly remainingDice: number[] }
  | { readonly legal: false; readonly stage: StageView; readonly error: RulesError };

/** A state read from a request, with the dice it carries (a gnubg Match ID), if any. */
export interface ParsedState<S> {
  readonly state: S;
  readonly dice?: Dice;
}

export type Play = { readonly steps: readonly Step[] } | { readonly notation: string };

/** `lastRoll`: the LN-SCORE-6 last roll of the second mover after the first mover finished. */
export interface QueryOptions {
  readonly lastRoll?: boolean;
}

export type OpeningRoll = 'rerollByWinner' | 'useRollOffDice' | 'fixedFirstSeat';

export interface SessionFamily<R, S> {
  readonly family: 'long' | 'short';
  /** The start of a game with `firstMover` to move. */
  initial(rules: R, firstMover: Side): S;
  toJson(state: S): unknown;
  fromJson(rules: R, json: unknown): S;
  /** The JSON position of the API (with pending stages where the family has them). */
  positionView(state: S): object;
  positionId(state: S): string;
  /** The side to act next in this state. */
  sideToAct(state: S): Side;
  /** Does the side to act roll now (true), or play known units (false)? */
  needsDice(state: S): boolean;
  legal(rules: R, state: S, dice: Dice | undefined, options?: QueryOptions): Result<FamilyTurns<S>, RulesError>;
  validate(rules: R, state: S, dice: Dice | undefined, play: Play, options?: QueryOptions): Result<FamilyValidation<S>, RulesError>;
  winner(state: S): Side | null;
  score(rules: R, state: S, winner: Side, stake: Stake): Result<GameScore, CubeError>;
  resign(rules: R, state: S, resigner: Side, level: ResignLevel, stake: Stake): Result<GameScore, CubeError>;
  /** The cube options of a session; `requested` is the create request's `cube` flag. */
  cubeConfig(rules: R, requested: boolean | undefined): Result<CubeConfig, CubeError>;
  openingRoll(rules: R): OpeningRoll;
  nextGameStarter(rules: R): 'previousWinner' | 'rollOff';
  /** Long nardy's LN-SCORE-6: the side that gets a last roll after `finisher` bore off, or null. */
  lastRollRoller(rules: R, firstMover: Side, finisher: Side): Side | null;
  /** Scores the game after the last roll (LN-SCORE-6). */
  scoreLastRoll(rules: R, state: S, firstMover: Side, stake: Stake): Result<GameScore, CubeError>;
  /** The state with the other side to act (used to hand the last roll over). */
  withSideToAct(state: S, side: Side): S;
}
