import { RulesErrorCode } from '../errors';
import { Play } from '../family/types';
import { CubeActionType, CubeConfig, CubeState } from '../scoring/cube';
import { CubeErrorCode } from '../scoring/cube-errors';
import { MatchState } from '../scoring/match';
import { GameScore, ResignLevel } from '../scoring/score';
import { Side } from '../side';
import { Step } from '../step';

/**
 * What the game waits for: `roll-off` (either seat sends the opening dice,
 * LN-START-1, SH-START-1), `roll` (the seat on roll rolls or doubles),
 * `play`, `respond` (the doubled seat answers, CUBE-3) or `next-game`
 * (either seat starts the next game of a match; `seat` names the previous
 * winner, who starts under LN-START-3).
 */
export type ExpectedAction = 'roll-off' | 'roll' | 'play' | 'respond' | 'next-game';

export interface Expects {
  readonly seat: Side;
  readonly action: ExpectedAction;
}

/** The game being played: everything that is reset when the next game of a match starts. */
export interface GameRoundState {
  /** 1 for the first game of a match, counting up. */
  readonly number: number;
  /** Decided by the rules or the roll-off; null until then. */
  readonly firstMover: Side | null;
  /** The family's JSON position with its turn-model fields (pending stages, rolls played: TM-7). */
  readonly position: unknown;
  /** The roll being played, if any. */
  readonly dice: readonly [number, number] | null;
  /** Set while the second mover plays his last roll (LN-SCORE-6). */
  readonly lastRoll: boolean;
  /** No play has been made yet in this game (CUBE-2: no double during the opening move). */
  readonly opening: boolean;
  /** The cube, or null when the game is played without it (LN-SCORE-5, CUBE-7). */
  readonly cube: CubeState | null;
  /** The score of the game once it is over. */
  readonly result: GameScore | null;
}

/**
 * The whole state of a game or match as plain JSON: the variant and its
 * effective rules, the cube options, the match score with its Crawford
 * state, and the game in progress. `applyAction` trusts it (it made it);
 * `parseGameState` checks one read from outside.
 */
export interface GameState {
  readonly variant: string;
  /** The effective rules: the variant's preset with the overrides applied (COM-1). */
  readonly rules: unknown;
  readonly cubeConfig: CubeConfig;
  readonly match: MatchState | null;
  readonly status: 'playing' | 'finished';
  readonly expects: Expects | null;
  readonly game: GameRoundState;
}

/** Every action a seat can send, in the order the allowed lists give them. */
export const GAME_ACTION_NAMES = ['roll-off', 'roll', 'play', 'double', 'take', 'drop', 'beaver', 'raccoon', 'resign', 'next-game'] as const;
export type GameActionName = (typeof GAME_ACTION_NAMES)[number];

/** One action; dice are data (the caller rolls them). */
export type GameAction =
  | { readonly type: 'roll-off'; readonly dice: readonly [number, number] }
  | { readonly type: 'roll'; readonly dice: readonly [number, number] }
  | { readonly type: 'play'; readonly play: Play }
  | { readonly type: CubeActionType }
  | { readonly type: 'resign'; readonly level: ResignLevel }
  | { readonly type: 'next-game' };

export type AllowedActions = Record<Side, GameActionName[]>;

export type GameEventType =
  | 'roll-off'
  | 'roll'
  | 'play'
  | 'no-play'
  | 'double'
  | 'take'
  | 'drop'
  | 'beaver'
  | 'raccoon'
  | 'resign'
  | 'game-over'
  | 'next-game';

/** What happened, in order: the history of a game is the list of its events. */
export interface GameEvent {
  readonly game: number;
  readonly type: GameEventType;
  /** Who acted; null for the roll-off. */
  readonly seat: Side | null;
  readonly dice?: [number, number];
  readonly steps?: Step[];
  readonly notation?: string;
  readonly positionId?: string;
  readonly cubeValue?: number;
  readonly result?: GameScore;
}

/** An action applied: the new state, what happened, and what each seat may do next. */
export interface Applied {
  readonly state: GameState;
  readonly events: GameEvent[];
  readonly expects: Expects | null;
  readonly allowed: AllowedActions;
}

/** Refusals of the game flow itself, beside the rules core's and the cube's. */
export const GAME_FLOW_ERROR_CODES = ['NOT_YOUR_TURN', 'ACTION_NOT_EXPECTED', 'GAME_FINISHED', 'ILLEGAL_PLAY', 'INCOMPLETE_PLAY'] as const;
export type GameFlowErrorCode = (typeof GAME_FLOW_ERROR_CODES)[number];

/** A play the rules forbid: the rules core's verdict. */
export interface Violation {
  readonly code: RulesErrorCode;
  readonly message: string;
  readonly stepIndex?: number;
  readonly rule?: string;
}

/**
 * A refused action, with who refused it: the game flow (`game`: a seat or
 * an action out of turn, a play that breaks a rule or stops short), the
 * rules core (`rules`: dice or a play that does not read) or the cube and
 * scoring core (`cube`). Nothing changes.
 */
export interface GameError {
  readonly by: 'game' | 'rules' | 'cube';
  readonly code: GameFlowErrorCode | RulesErrorCode | CubeErrorCode;
  readonly message: string;
  readonly field?: string;
  readonly rule?: string;
  readonly stepIndex?: number;
  /** NOT_YOUR_TURN, ACTION_NOT_EXPECTED: who must do what. */
  readonly expects?: Expects;
  /** ILLEGAL_PLAY: the rule the play breaks. */
  readonly violation?: Violation;
  /** INCOMPLETE_PLAY: the dice still to play. */
  readonly remainingDice?: number[];
}
