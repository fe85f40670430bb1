import { Dice } from '../dice';
import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { PerSide, Side, otherSide, perSide } from '../side';
import { CHECKERS } from './board';
import { ShortPosition, ShortSeat, checkSeats, positionFromSeats, shortSeat } from './position';

/*
 * eXtreme Gammon's XGID: `XGID=` then ten fields separated by `:`
 *   1. the position: 26 characters — the top player's bar, points 1..24 in
 *      the bottom player's numbering, the bottom player's bar; `-` empty,
 *      `A`…`O` = 1…15 checkers of the bottom player, `a`…`o` of the top one;
 *   2. the cube value as log2;  3. the cube owner: 1 bottom, −1 top, 0 centred;
 *   4. the player on roll: 1 bottom, −1 top;
 *   5. the dice: two digits, `00` before the roll, or `D` / `B` / `R` when a
 *      double / beaver / raccoon is on offer;
 *   6. the bottom player's score;  7. the top player's score;
 *   8. in a match 1 = Crawford game; in money play Jacoby (1) + beaver (2);
 *   9. the match length (0 = money);  10. the cube limit as log2.
 * Which seat sits at the bottom is the caller's choice; by default white,
 * so the position field reads in white's own numbering, the W-frame of
 * COM-5.
 */

/** A cube action on offer instead of dice (XGID field 5). */
export type XgidCubeAction = 'none' | 'double' | 'beaver' | 'raccoon';

export interface Xgid {
  /** `turn` is the player on roll (field 4). */
  readonly position: ShortPosition;
  readonly cubeValue: number;
  readonly cubeOwner: Side | null;
  /** The dice rolled; `null` before the roll or while a cube action is on offer. */
  readonly dice: Dice | null;
  readonly cubeAction: XgidCubeAction;
  readonly score: PerSide<number>;
  /** Match play only. */
  readonly crawford: boolean;
  /** Money play only. */
  readonly jacoby: boolean;
  /** Money play only. */
  readonly beaver: boolean;
  /** 0 = money. */
  readonly matchLength: number;
  /** The cube limit as log2, as XG writes it (commonly 10). */
  readonly maxCubeLog2: number;
}

const ACTION_LETTER: Record<Exclude<XgidCubeAction, 'none'>, string> = {
  double: 'D',
  beaver: 'B',
  raccoon: 'R',
};

function letter(n: number, upper: boolean): string {
  if (n === 0) return '-';
  return String.fromCharCode((upper ? 65 : 97) + n - 1);
}

/** Position, cube and score → XGID, the bottom seat's numbering in the position field. */
export function makeXgid(xgid: Xgid, bottom: Side = 'white'): string {
  const top = otherSide(bottom);
  const low = shortSeat(xgid.position, bottom);
  const high = shortSeat(xgid.position, top);
  let board = letter(high.bar, false);
  for (let p = 1; p <= 24; p++) {
    if (low.points[p] > 0) board += letter(low.points[p], true);
    else board += letter(high.points[25 - p], false);
  }
  board += letter(low.bar, true);
  const sign = (side: Side | null): string => (side === null ? '0' : side === bottom ? '1' : '-1');
  const dice =
    xgid.cubeAction !== 'none'
      ? ACTION_LETTER[xgid.cubeAction]
      : xgid.dice
        ? `${xgid.dice[0]}${xgid.dice[1]}`
        : '00';
  const flags =
    xgid.matchLength > 0 ? (xgid.crawford ? 1 : 0) : (xgid.jacoby ? 1 : 0) + (xgid.beaver ? 2 : 0);
  return (
    'XGID=' +
    [
      board,
      Math.round(Math.log2(xgid.cubeValue)),
      sign(xgid.cubeOwner),
      sign(xgid.position.turn),
      dice,
      xgid.score[bottom],
      xgid.score[top],
      flags,
      xgid.matchLength,
      xgid.maxCubeLog2,
    ].join(':')
  );
}

function invalid(message: string, field: string): { ok: false; error: RulesError } {
  return err(rulesError('INVALID_POSITION_ID', message, { field }));
}

const COUNT = /^(?:0|[1-9]\d{0,4})$/;

/**
 * XGID (with or without the `XGID=` prefix) → position, cube and score.
 * Checks what `parseShortPosition` checks: at most 15 checkers a side
 * (the rest are borne off) and well-formed fields.
 */
export function parseXgid(text: unknown, bottom: Side = 'white', field = 'xgid'): Result<Xgid, RulesError> {
  if (typeof text !== 'string' || text.length > 120) return invalid('an XGID is a string', field);
  const body = text.startsWith('XGID=') ? text.slice(5) : text;
  const parts = body.split(':');
  if (parts.length !== 10) return invalid('an XGID has ten fields separated by ":"', field);
  const [board, cube, owner, turn, dice, scoreBottom, scoreTop, flags, length, maxCube] = parts;
  if (!/^[-a-o][-A-Oa-o]{24}[-A-O]$/.test(board)) {
    return invalid(
      'the XGID position is 26 characters: top bar, points 1..24, bottom bar (-, A-O, a-o)',
      field,
    );
  }
  const top = otherSide(bottom);
  const low = { points: new Int8Array(25), bar: 0, off: 0 };
  const high = { points: new Int8Array(25), bar: 0, off: 0 };
  high.bar = board.charCodeAt(0) === 45 ? 0 : board.charCodeAt(0) - 96;
  low.bar = board.charCodeAt(25) === 45 ? 0 : board.charCodeAt(25) - 64;
  for (let p = 1; p <= 24; p++) {
    const c = board.charCodeAt(p);
    if (c >= 65 && c <= 79) low.points[p] = c - 64;
    else if (c >= 97 && c <= 111) high.points[25 - p] = c - 96;
  }
  for (const seat of [low, high]) {
    let total = seat.bar;
    for (let p = 1; p <= 24; p++) total += seat.points[p];
    if (total > CHECKERS) return invalid('the XGID gives a side more than 15 checkers', field);
    seat.off = CHECKERS - total;
  }
  const seats = perSide<ShortSeat>(bottom, low, high);
  const problem = checkSeats(seats, field);
  if (problem) return invalid(problem.message, field);
  if (!/^(?:1[0-5]|\d)$/.test(cube))
    return invalid('the XGID cube field is log2 of the cube value, 0..15', field);
  if (!/^(?:0|1|-1)$/.test(owner)) return invalid('the XGID cube owner is 1, 0 or -1', field);
  if (!/^(?:1|-1)$/.test(turn)) return invalid('the XGID turn is 1 (bottom) or -1 (top)', field);
  if (!/^(?:00|[1-6][1-6]|D|B|R)$/.test(dice))
    return invalid('the XGID dice are 00, two digits 1..6, or D, B, R', field);
  for (const value of [scoreBottom, scoreTop, length, maxCube]) {
    if (!COUNT.test(value))
      return invalid('XGID scores, match length and cube limit are non-negative integers', field);
  }
  const matchLength = Number(length);
  if (!/^[0-3]$/.test(flags) || (matchLength > 0 && Number(flags) > 1)) {
    return invalid('the XGID Crawford/Jacoby field is 0..1 in a match, 0..3 in money play', field);
  }
  const side = (sign: string): Side | null => (sign === '0' ? null : sign === '1' ? bottom : top);
  const action: XgidCubeAction =
    dice === 'D' ? 'double' : dice === 'B' ? 'beaver' : dice === 'R' ? 'raccoon' : 'none';
  const f = Number(flags);
  const onRoll = side(turn) as Side;
  return ok({
    position: positionFromSeats(onRoll, seats),
    cubeValue: 2 ** Number(cube),
    cubeOwner: side(owner),
    dice: action === 'none' && dice !== '00' ? [Number(dice[0]), Number(dice[1])] : null,
    cubeAction: action,
    score: perSide(bottom, Number(scoreBottom), Number(scoreTop)),
    crawford: matchLength > 0 && f === 1,
    jacoby: matchLength === 0 && (f & 1) === 1,
    beaver: matchLength === 0 && (f & 2) === 2,
    matchLength,
    maxCubeLog2: Number(maxCube),
  });
}

/**
 * XG's clipboard text of a position (Edit → Copy position: the `XGID=…`
 * line, the players and score, a board diagram, the pip counts, the cube)
 * → position, cube and score. The XGID line carries everything; the
 * diagram is for people and is not read.
 */
export function parseXgClipboard(text: unknown, bottom: Side = 'white', field = 'text'): Result<Xgid, RulesError> {
  if (typeof text !== 'string' || text.length > 10_000) return invalid('XG clipboard text is a string of at most 10000 characters', field);
  const line = /^\s*XGID=(\S+)\s*$/m.exec(text);
  if (!line) return invalid('XG clipboard text holds an "XGID=" line', field);
  return parseXgid(line[1], bottom, field);
}
