import { CubeConfig, CubeState } from '../../engine/scoring/cube';
import { MatchState } from '../../engine/scoring/match';
import { GameScore } from '../../engine/scoring/score';
import { Side } from '../../engine/side';
import { GameEvent, GameEventType } from '../../engine/game';

/**
 * A game session as stored (JSON). The record is the single source of
 * truth; every action is a pure transition from one record to the next,
 * saved with compare-and-set. The seed of the game in progress is secret
 * until the game ends (docs/fairness.md).
 */
export type SessionAction = 'roll' | 'play' | 'respond' | 'next-game';

export interface Expects {
  seat: Side;
  action: SessionAction;
}

export interface RollRecord {
  index: number;
  dice: [number, number];
  purpose: 'roll-off' | 'roll' | 'last-roll';
  by: Side | null;
}

export interface GameRound {
  number: number;
  /** Hex; revealed in views only once the game is over. */
  seed: string;
  commitment: string;
  rolls: RollRecord[];
  firstMover: Side | null;
  /** The family state (JSON). */
  state: unknown;
  /** The roll being played, if any. */
  dice: [number, number] | null;
  /** Set while the second mover plays his last roll (LN-SCORE-6). */
  lastRoll: boolean;
  /** No play has been made yet in this game (CUBE-2: no double during the opening move). */
  opening: boolean;
  cube: CubeState | null;
  result: GameScore | null;
}

export type EventType = GameEventType;

/** An event of the reducer as the history keeps it: numbered and timed. */
export interface HistoryEvent extends GameEvent {
  n: number;
  at: string;
}

export interface SessionRecord {
  schema: 1;
  id: string;
  variant: string;
  family: 'long' | 'short';
  /** The effective rules (preset + overrides). */
  rules: unknown;
  createdAt: string;
  seats: { white: { tokenHash: string }; black: { tokenHash: string } };
  cubeConfig: CubeConfig;
  match: MatchState | null;
  status: 'playing' | 'finished';
  expects: Expects | null;
  game: GameRound;
  /** Earlier games of a match, for the fairness record. */
  finishedGames: { number: number; seed: string; commitment: string; rolls: RollRecord[]; result: GameScore | null }[];
  /** Events recorded so far; the events themselves are kept apart, appended atomically with each save. */
  events: number;
}
