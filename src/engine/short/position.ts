import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { PerSide, Side, isSide, otherSide, winnerByOff } from '../side';
import {
  BOARD_LENGTH,
  CHECKERS,
  MOVER_BAR,
  MOVER_OFF,
  OPPONENT_BAR,
  OPPONENT_OFF,
  ShortBoard,
  flipBoard,
} from './board';

/**
 * A short-nardy position: whose turn it is and the board seen from that
 * side (see board.ts). Trusted: it only comes out of `parseShortPosition`,
 * `initialShortPosition`, an ID parser or a legal play.
 */
export interface ShortPosition {
  readonly turn: Side;
  /** Seen from `turn`. */
  readonly board: ShortBoard;
}

/** One side's checkers in the JSON contract, keyed by that side's own point numbers. */
export interface ShortSideJson {
  points: Record<string, number>;
  bar?: number;
  off?: number;
}

/** The JSON position of the API contract. */
export interface ShortPositionJson {
  turn: Side;
  white: ShortSideJson;
  black: ShortSideJson;
}

/** One seat's checkers in its own numbering: `points[1..24]`, bar, off. */
export interface ShortSeat {
  readonly points: Int8Array;
  readonly bar: number;
  readonly off: number;
}

/** SH-INIT-1 in a side's own numbering. */
export const SHORT_START_POINTS: Readonly<Record<number, number>> = Object.freeze({
  24: 2,
  13: 5,
  8: 3,
  6: 5,
});

/** The start of a game (SH-INIT-1) with `turn` to move. */
export function initialShortPosition(turn: Side = 'white'): ShortPosition {
  const board = new Int8Array(BOARD_LENGTH);
  for (const [p, n] of Object.entries(SHORT_START_POINTS)) {
    board[Number(p)] += n;
    board[25 - Number(p)] -= n;
  }
  return { turn, board };
}

/** One seat's checkers, in its own numbering, from a trusted position. */
export function shortSeat(position: ShortPosition, side: Side): ShortSeat {
  const b = position.turn === side ? position.board : flipBoard(position.board);
  const points = new Int8Array(25);
  for (let p = 1; p <= 24; p++) if (b[p] > 0) points[p] = b[p];
  return { points, bar: b[MOVER_BAR], off: b[MOVER_OFF] };
}

/**
 * Builds a position from both seats' own-numbered checkers. The caller has
 * checked the counts and that no point is held by both.
 */
export function positionFromSeats(turn: Side, seats: PerSide<ShortSeat>): ShortPosition {
  const mover = seats[turn];
  const opponent = seats[otherSide(turn)];
  const board = new Int8Array(BOARD_LENGTH);
  for (let p = 1; p <= 24; p++) {
    board[p] += mover.points[p];
    board[25 - p] -= opponent.points[p];
  }
  board[MOVER_BAR] = mover.bar;
  board[MOVER_OFF] = mover.off;
  board[OPPONENT_BAR] = opponent.bar;
  board[OPPONENT_OFF] = opponent.off;
  return { turn, board };
}

/**
 * Checks two seats for the invariants of every position: 15 checkers a
 * side and no point held by both (white's p is black's 25 − p).
 */
export function checkSeats(seats: PerSide<ShortSeat>, field: string): RulesError | null {
  for (const side of ['white', 'black'] as const) {
    const s = seats[side];
    let total = s.bar + s.off;
    for (let p = 1; p <= 24; p++) total += s.points[p];
    if (total !== CHECKERS) {
      return rulesError(
        'WRONG_CHECKER_COUNT',
        `${side} has ${total} checkers (points + bar + off); each side has exactly 15`,
        {
          field: `${field}.${side}`,
        },
      );
    }
  }
  for (let p = 1; p <= 24; p++) {
    if (seats.white.points[p] > 0 && seats.black.points[25 - p] > 0) {
      return rulesError(
        'POINT_HELD_BY_BOTH',
        `white's point ${p} is black's point ${25 - p}; both sides have checkers there`,
        {
          field: `${field}.black.points.${25 - p}`,
        },
      );
    }
  }
  return null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function count(value: unknown, field: string, what: string): Result<number, RulesError> {
  if (value === undefined) return ok(0);
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > CHECKERS) {
    return err(rulesError('INVALID_POSITION', `${what} must be an integer 0..15`, { field }));
  }
  return ok(value as number);
}

function parseSeat(input: unknown, field: string): Result<ShortSeat, RulesError> {
  if (!isPlainObject(input))
    return err(rulesError('INVALID_POSITION', `${field} must be an object`, { field }));
  for (const key of Object.keys(input)) {
    if (key !== 'points' && key !== 'bar' && key !== 'off') {
      return err(rulesError('UNKNOWN_FIELD', `unknown field ${field}.${key}`, { field: `${field}.${key}` }));
    }
  }
  const pointsInput = input.points;
  if (!isPlainObject(pointsInput)) {
    return err(
      rulesError('INVALID_POSITION', `${field}.points must be an object keyed by point 1..24`, {
        field: `${field}.points`,
      }),
    );
  }
  const points = new Int8Array(25);
  for (const [key, value] of Object.entries(pointsInput)) {
    const f = `${field}.points.${key}`;
    if (!/^(?:[1-9]|1\d|2[0-4])$/.test(key)) {
      return err(
        rulesError('INVALID_POSITION', "point keys must be integers 1..24 in the side's own numbering", {
          field: f,
        }),
      );
    }
    const n = count(value, f, 'a point count');
    if (!n.ok) return n;
    points[Number(key)] = n.value;
  }
  const bar = count(input.bar, `${field}.bar`, 'bar');
  if (!bar.ok) return bar;
  const off = count(input.off, `${field}.off`, 'off');
  if (!off.ok) return off;
  return ok({ points, bar: bar.value, off: off.value });
}

/**
 * JSON position → trusted position, or the first thing wrong with it
 * (an input may be illegal; a position is not). Each side is keyed by its own point numbers (COM-5:
 * white's p is black's 25 − p); `bar` and `off` default to 0.
 */
export function parseShortPosition(input: unknown, field = 'position'): Result<ShortPosition, RulesError> {
  if (!isPlainObject(input))
    return err(rulesError('INVALID_POSITION', `${field} must be an object`, { field }));
  for (const key of Object.keys(input)) {
    if (key !== 'turn' && key !== 'white' && key !== 'black') {
      return err(rulesError('UNKNOWN_FIELD', `unknown field ${field}.${key}`, { field: `${field}.${key}` }));
    }
  }
  if (!isSide(input.turn)) {
    return err(
      rulesError('INVALID_POSITION', `${field}.turn must be "white" or "black"`, { field: `${field}.turn` }),
    );
  }
  const white = parseSeat(input.white, `${field}.white`);
  if (!white.ok) return white;
  const black = parseSeat(input.black, `${field}.black`);
  if (!black.ok) return black;
  const seats = { white: white.value, black: black.value };
  const problem = checkSeats(seats, field);
  if (problem) return err(problem);
  return ok(positionFromSeats(input.turn, seats));
}

function seatJson(seat: ShortSeat): Required<ShortSideJson> {
  const points: Record<string, number> = {};
  for (let p = 24; p >= 1; p--) if (seat.points[p] > 0) points[String(p)] = seat.points[p];
  return { points, bar: seat.bar, off: seat.off };
}

/** Trusted position → the JSON of the contract; points listed from 24 down, `bar` and `off` always present. */
export function makeShortPositionJson(position: ShortPosition): {
  turn: Side;
  white: Required<ShortSideJson>;
  black: Required<ShortSideJson>;
} {
  return {
    turn: position.turn,
    white: seatJson(shortSeat(position, 'white')),
    black: seatJson(shortSeat(position, 'black')),
  };
}

/** Has either side borne off all 15? Returns the winner or null. */
export function shortWinner(position: ShortPosition): Side | null {
  return winnerByOff(position.turn, position.board[MOVER_OFF], position.board[OPPONENT_OFF], CHECKERS);
}

/** The same physical position with `turn` to move. */
export function withShortTurn(position: ShortPosition, turn: Side): ShortPosition {
  if (turn === position.turn) return position;
  return { turn, board: flipBoard(position.board) };
}
