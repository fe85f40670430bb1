import { Dice } from '../dice';
import { RulesError } from '../errors';
import { Segment } from '../notation';
import { OptionSpec } from '../option-spec';
import { Result } from '../result';
import { CubeConfig } from '../scoring/cube';
import { CubeError } from '../scoring/cube-errors';
import { GameScore, ResignLevel, Stake } from '../scoring/score';
import type { GnubgMatchState } from '../short/gnubg-id';
import { PerSide, Side } from '../side';
import { Step } from '../step';

/** The stage being played, in JSON form (who acts, why, with which units). */
export interface StageJson {
  actor: string;
  origin: string;
  units: number[];
  headAllowance?: number | string;
  firstTurnException?: boolean;
}

/** What follows a play, in JSON form (TM-2…TM-5 for the long family). */
export interface NextJson {
  kind: string;
  actor: string | null;
  units?: number[];
  stages?: number[][];
  winner?: string;
}

/** One legal play in JSON form: its steps, notation, resulting position and what follows. */
export interface TurnJson {
  steps: Step[];
  notation: string;
  position: object;
  positionId: string;
  next: NextJson;
}

/** One legal play with the family's own resulting state `S`. */
export interface FamilyTurn<S> {
  readonly view: TurnJson;
  readonly state: S;
  readonly next: NextJson;
  readonly winner: Side | null;
  readonly stepCount: number;
}

export interface FamilyTurns<S> {
  readonly stage: StageJson;
  readonly unitsUsed: number;
  readonly turns: readonly FamilyTurn<S>[];
}

export type FamilyValidation<S> =
  | { readonly legal: true; readonly complete: true; readonly stage: StageJson; readonly turn: FamilyTurn<S> }
  | { readonly legal: true; readonly complete: false; readonly stage: StageJson; readonly remainingDice: number[] }
  | { readonly legal: false; readonly stage: StageJson; readonly error: RulesError };

/** The cube and match a request gives with its position (a gnubg Match ID or an XGID: CUBE-1, CUBE-6). */
export interface MatchContext {
  readonly cubeValue: number;
  /** `null`: centred. */
  readonly cubeOwner: Side | null;
  /** 0 = money play. */
  readonly matchLength: number;
  readonly score: PerSide<number>;
  readonly crawford: boolean;
}

/** A state read from a request, with the dice (and the cube and match) it carries, if any. */
export interface ParsedState<S> {
  readonly state: S;
  readonly dice?: Dice;
  readonly match?: MatchContext;
}

/** One seat's checkers in its own numbering (COM-2): `points[1..24]` (index 0 unused), the bar (0 in the long family), off. */
export interface SeatView {
  readonly points: ArrayLike<number>;
  readonly bar: number;
  readonly off: number;
}

/** A stage the side to move still owes before (or instead of) rolling (TM-7); `units` absent for a roll still to be made. */
export interface PendingView {
  readonly origin: 'roll' | 'reroll' | 'cascade' | 'debt';
  readonly units?: readonly number[];
  /** CG-4: the extra stage after which the cascade ends. */
  readonly last?: boolean;
}

/** A state as a board shows it, in the same form for every family. */
export interface BoardView {
  /** The side to move (or to roll). */
  readonly turn: Side;
  readonly seats: PerSide<SeatView>;
  readonly pending: readonly PendingView[];
  /** Long family: who is still to play his first roll (LN-HEAD-2, LN-HEAD-3). */
  readonly firstTurn?: PerSide<boolean>;
}

/** Where a request gives its position: JSON `position`, or `positionId` (with a gnubg `matchId` for short nardy). */
export interface StateInput {
  readonly position?: unknown;
  readonly positionId?: unknown;
  readonly matchId?: unknown;
}

export type Play = { readonly steps: readonly Step[] } | { readonly notation: string };

/** `lastRoll`: the LN-SCORE-6 last roll of the second mover after the first mover finished. */
export interface QueryOptions {
  readonly lastRoll?: boolean;
}

export type OpeningRoll = 'rerollByWinner' | 'useRollOffDice' | 'fixedFirstSeat';

export type FamilyName = 'long' | 'short';

/**
 * A game family (long nardy and its variants, or short nardy) as one
 * interface over its rules `R` and state `S`, so that the stateless
 * endpoints and the game sessions are written once. States are stored as
 * JSON (`toJson` / `fromJson`).
 */
export interface GameFamily<R, S> {
  readonly family: FamilyName;
  /** The family's rule options (`GET /v1/variants`), and the value of each in `rules`. */
  readonly options: readonly OptionSpec[];
  optionValues(rules: R): Record<string, string | number | boolean | null>;
  /** The rule that says when a game is over: all 15 borne off (LN-END-1, SH-SCORE-1). */
  readonly endRule: string;
  /**
   * A fault of notation that no position of the family can play, checked
   * before any dice are known: long nardy has no bar (LN-MOVE-2); null if none.
   */
  notationFault(segments: readonly Segment[]): RulesError | null;
  /** The state as a board shows it (diagrams). */
  board(state: S): BoardView;
  /** Backgammon: a position with its cube, match score and dice from an XGID; absent where XGIDs do not apply. */
  readXgid?(text: string): Result<ParsedState<S>, RulesError>;
  /** Backgammon: a state with its match as gnubg writes them, `PositionID:MatchID`; absent where gnubg has no IDs. */
  gnubgId?(state: S, match: GnubgMatchState): string;
  /** The variant's preset with a request's option overrides applied. */
  parseRules(base: Readonly<R>, overrides: unknown): Result<R, RulesError>;
  /** The state of a request's `position` or `positionId`, checked against the rules. */
  parseState(rules: R, input: StateInput): Result<ParsedState<S>, RulesError>;
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
  /**
   * The play of the stage when nothing can be played (ALG-8, MAX-5): the one
   * legal play, with no step; null when there is a play to choose. Refused
   * as `legal` refuses. The game flow asks it after every roll, so it builds
   * no view of the plays it does not return.
   */
  emptyPlay(rules: R, state: S, dice: Dice | undefined, options?: QueryOptions): Result<FamilyTurn<S> | null, RulesError>;
  validate(rules: R, state: S, dice: Dice | undefined, play: Play, options?: QueryOptions): Result<FamilyValidation<S>, RulesError>;
  winner(state: S): Side | null;
  score(rules: R, state: S, winner: Side, stake: Stake): Result<GameScore, CubeError>;
  resign(rules: R, state: S, resigner: Side, level: ResignLevel, stake: Stake): Result<GameScore, CubeError>;
  /** The cube options of a session; `requested` is the create request's `cube` flag. */
  cubeConfig(rules: R, requested: boolean | undefined): Result<CubeConfig, CubeError>;
  /** The rules with the cube option (LN-SCORE-5 / SH cube) switched on or off. */
  withCube(rules: R, cube: boolean): R;
  openingRoll(rules: R): OpeningRoll;
  nextGameStarter(rules: R): 'previousWinner' | 'rollOff';
  /** Long nardy's LN-SCORE-6: the side that gets a last roll after `finisher` bore off, or null. */
  lastRollRoller(rules: R, firstMover: Side, finisher: Side): Side | null;
  /** Scores the game after the last roll (LN-SCORE-6). */
  scoreLastRoll(rules: R, state: S, firstMover: Side, stake: Stake): Result<GameScore, CubeError>;
  /** The state with the other side to act (used to hand the last roll over). */
  withSideToAct(state: S, side: Side): S;
}
