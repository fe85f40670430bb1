import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { PerSide, Side, isSide, otherSide, winnerByOff } from '../side';
import { BOARD_LENGTH, CHECKERS, HEAD, LongBoard, MOVER_OFF, OPPONENT_OFF, flipBoard, otherPoint } from './board';
import { InitialPosition } from './rules';

/**
 * A long-family position: the board seen from the side to move, whose turn
 * it is, and per-player first-turn flags (LN-HEAD-3). Trusted: it only comes
 * out of `parseLongPosition`, `initialLongPosition` or a legal play.
 */
export interface LongPosition {
  readonly turn: Side;
  /** Seen from `turn` (see board.ts). */
  readonly board: LongBoard;
  /** Whether each player is still to play his first roll of the game (LN-HEAD-3, TM-6). */
  readonly firstTurn: Readonly<PerSide<boolean>>;
}

/** One side's checkers in the JSON contract: keyed by that side's own point numbers. */
export interface SideCheckersJson {
  points: Record<string, number>;
  off?: number;
}

/** The JSON position of the API contract (README "Position"). */
export interface LongPositionJson {
  turn: Side;
  white: SideCheckersJson;
  black: SideCheckersJson;
  firstTurn?: Partial<PerSide<boolean>>;
}

/** LN-INIT-1 / KH-1 in the side's own numbering. */
export function initialPoints(layout: InitialPosition): Record<number, number> {
  return layout === 'khachapuri' ? { 24: 4, 6: 11 } : { 24: 15 };
}

/** The start of a game, `turn` to move first, both on their first turn. */
export function initialLongPosition(layout: InitialPosition, turn: Side = 'white'): LongPosition {
  const board = new Int8Array(BOARD_LENGTH);
  for (const [p, n] of Object.entries(initialPoints(layout))) {
    board[Number(p)] += n;
    board[otherPoint(Number(p))] -= n;
  }
  return { turn, board, firstTurn: { white: true, black: true } };
}

/** Own-numbered counts of one seat, 1..24, plus its borne-off count. */
export interface SeatCheckers {
  points: Int8Array; // index 1..24, own numbering
  off: number;
}

/** Both seats' checkers in their own numbering, from a trusted position. */
export function seatCheckers(position: LongPosition, side: Side): SeatCheckers {
  const b = position.turn === side ? position.board : flipBoard(position.board);
  const points = new Int8Array(25);
  for (let p = 1; p <= 24; p++) if (b[p] > 0) points[p] = b[p];
  return { points, off: b[MOVER_OFF] };
}

/** Builds a position from both seats' own-numbered checkers (already validated). */
export function positionFromSeats(
  turn: Side,
  seats: PerSide<SeatCheckers>,
  firstTurn: PerSide<boolean>,
): LongPosition {
  const mover = seats[turn];
  const opponent = seats[otherSide(turn)];
  const board = new Int8Array(BOARD_LENGTH);
  for (let p = 1; p <= 24; p++) {
    board[p] += mover.points[p];
    board[otherPoint(p)] -= opponent.points[p];
  }
  board[MOVER_OFF] = mover.off;
  board[OPPONENT_OFF] = opponent.off;
  return { turn, board, firstTurn: { white: firstTurn.white, black: firstTurn.black } };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseSeat(input: unknown, field: string): Result<SeatCheckers, RulesError> {
  if (!isPlainObject(input)) return err(rulesError('INVALID_POSITION', `${field} must be an object`, { field }));
  for (const key of Object.keys(input)) {
    if (key !== 'points' && key !== 'off') {
      return err(rulesError('UNKNOWN_FIELD', `unknown field ${field}.${key}`, { field: `${field}.${key}` }));
    }
  }
  const pointsInput = input.points;
  if (!isPlainObject(pointsInput)) {
    return err(rulesError('INVALID_POSITION', `${field}.points must be an object keyed by point 1..24`, { field: `${field}.points` }));
  }
  const points = new Int8Array(25);
  let total = 0;
  for (const [key, value] of Object.entries(pointsInput)) {
    const f = `${field}.points.${key}`;
    if (!/^(?:[1-9]|1\d|2[0-4])$/.test(key)) {
      return err(rulesError('INVALID_POSITION', `point keys must be integers 1..24 in the side's own numbering`, { field: f }));
    }
    if (!Number.isInteger(value) || (value as number) < 0) {
      return err(rulesError('INVALID_POSITION', 'a point count must be a non-negative integer', { field: f }));
    }
    if ((value as number) > CHECKERS) {
      return err(rulesError('WRONG_CHECKER_COUNT', `${value} checkers on one point; each side has exactly 15`, { field: f }));
    }
    points[Number(key)] = value as number;
    total += value as number;
  }
  let off = 0;
  if (input.off !== undefined) {
    if (!Number.isInteger(input.off) || (input.off as number) < 0 || (input.off as number) > CHECKERS) {
      return err(rulesError('INVALID_POSITION', 'off must be an integer 0..15', { field: `${field}.off` }));
    }
    off = input.off as number;
  }
  if (total + off !== CHECKERS) {
    return err(
      rulesError('WRONG_CHECKER_COUNT', `${field} has ${total + off} checkers (points + off); each side has exactly 15`, {
        field,
      }),
    );
  }
  return ok({ points, off });
}

/**
 * Is `side` still on his first turn? Used when the request does not say
 * (LN-HEAD-3 asks for a counter; without one the best evidence is the board):
 * a player whose checkers all stand exactly as at the start of the game and
 * who has borne off none is taken to be on his first turn.
 */
export function inferFirstTurn(seat: SeatCheckers, layout: InitialPosition): boolean {
  if (seat.off !== 0) return false;
  const start = initialPoints(layout);
  for (let p = 1; p <= 24; p++) if (seat.points[p] !== (start[p] ?? 0)) return false;
  return true;
}

/**
 * JSON position → trusted position, or the first thing wrong with it
 * (an input may be illegal; a position is not). Checks 15 checkers per side and that no point is held by
 * both sides (LN-MOVE-2 holds in every reachable position).
 */
export function parseLongPosition(input: unknown, layout: InitialPosition, field = 'position'): Result<LongPosition, RulesError> {
  if (!isPlainObject(input)) return err(rulesError('INVALID_POSITION', `${field} must be an object`, { field }));
  for (const key of Object.keys(input)) {
    if (!['turn', 'white', 'black', 'firstTurn'].includes(key)) {
      return err(rulesError('UNKNOWN_FIELD', `unknown field ${field}.${key}`, { field: `${field}.${key}` }));
    }
  }
  if (!isSide(input.turn)) {
    return err(rulesError('INVALID_POSITION', `${field}.turn must be "white" or "black"`, { field: `${field}.turn` }));
  }
  const white = parseSeat(input.white, `${field}.white`);
  if (!white.ok) return white;
  const black = parseSeat(input.black, `${field}.black`);
  if (!black.ok) return black;
  for (let p = 1; p <= 24; p++) {
    if (white.value.points[p] > 0 && black.value.points[otherPoint(p)] > 0) {
      return err(
        rulesError(
          'POINT_HELD_BY_BOTH',
          `white's point ${p} is black's point ${otherPoint(p)}; both sides have checkers there`,
          { field: `${field}.black.points.${otherPoint(p)}` },
        ),
      );
    }
  }
  const firstTurn = { white: false, black: false };
  const ft = input.firstTurn;
  if (ft !== undefined && !isPlainObject(ft)) {
    return err(rulesError('INVALID_POSITION', `${field}.firstTurn must be an object`, { field: `${field}.firstTurn` }));
  }
  for (const side of ['white', 'black'] as const) {
    const given = ft?.[side];
    if (given === undefined) {
      firstTurn[side] = inferFirstTurn(side === 'white' ? white.value : black.value, layout);
    } else if (typeof given !== 'boolean') {
      return err(rulesError('INVALID_POSITION', `${field}.firstTurn.${side} must be a boolean`, { field: `${field}.firstTurn.${side}` }));
    } else {
      firstTurn[side] = given;
    }
  }
  if (ft) {
    for (const key of Object.keys(ft)) {
      if (key !== 'white' && key !== 'black') {
        return err(rulesError('UNKNOWN_FIELD', `unknown field ${field}.firstTurn.${key}`, { field: `${field}.firstTurn.${key}` }));
      }
    }
  }
  return ok(positionFromSeats(input.turn, { white: white.value, black: black.value }, firstTurn));
}

function seatJson(seat: SeatCheckers): SideCheckersJson {
  const points: Record<string, number> = {};
  for (let p = 24; p >= 1; p--) if (seat.points[p] > 0) points[String(p)] = seat.points[p];
  return { points, off: seat.off };
}

/** Trusted position → the JSON of the contract. Points are listed from 24 down. */
export function makeLongPositionJson(position: LongPosition): Required<LongPositionJson> {
  return {
    turn: position.turn,
    white: seatJson(seatCheckers(position, 'white')),
    black: seatJson(seatCheckers(position, 'black')),
    firstTurn: { white: position.firstTurn.white, black: position.firstTurn.black },
  };
}

/** Has either side borne off all 15 (LN-END-1)? Returns the winner or null. */
export function longWinner(position: LongPosition): Side | null {
  return winnerByOff(position.turn, position.board[MOVER_OFF], position.board[OPPONENT_OFF], CHECKERS);
}

/** The same physical position with the other side to move. */
export function withTurn(position: LongPosition, turn: Side): LongPosition {
  if (turn === position.turn) return position;
  return { turn, board: flipBoard(position.board), firstTurn: position.firstTurn };
}

export { HEAD };
