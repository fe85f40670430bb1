import { Dice, isDieValue } from '../dice';
import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { PerSide, Side, otherSide, perSide } from '../side';
import { CHECKERS, MOVER_BAR, OPPONENT_BAR, flipBoard } from './board';
import { ShortPosition, ShortSeat, checkSeats, positionFromSeats } from './position';

/*
 * gnubg's Position ID and Match ID (GNU Backgammon manual, "A technical
 * description of the Position ID / Match ID"). Both are bit strings packed
 * into bytes least significant bit first, then written in standard base64
 * (A–Z a–z 0–9 + /) without padding: 10 bytes → 14 characters, 9 bytes →
 * 12 characters. The gnubg Position ID is the short family's
 * canonical position key.
 */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i];
    const b1 = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2] : 0;
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    const group = (b0 << 16) | (b1 << 8) | b2;
    for (let k = 0; k < chars; k++) out += BASE64[(group >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** Decodes unpadded base64 of exactly `byteCount` bytes; null if malformed or not canonical. */
function decodeBase64(text: string, byteCount: number): Uint8Array | null {
  if (text.length !== Math.ceil((byteCount * 4) / 3)) return null;
  const bytes = new Uint8Array(byteCount);
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (const ch of text) {
    const v = BASE64.indexOf(ch);
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (n < byteCount) bytes[n++] = (acc >> bits) & 255;
    }
    acc &= (1 << bits) - 1;
  }
  if (acc !== 0) return null; // padding bits must be zero
  return bytes;
}

class BitWriter {
  readonly bytes: Uint8Array;
  private n = 0;
  constructor(byteCount: number) {
    this.bytes = new Uint8Array(byteCount);
  }
  write(value: number, width: number): void {
    for (let k = 0; k < width; k++) {
      if ((value >> k) & 1) this.bytes[this.n >> 3] |= 1 << (this.n & 7);
      this.n++;
    }
  }
}

class BitReader {
  private n = 0;
  constructor(private readonly bytes: Uint8Array) {}
  get position(): number {
    return this.n;
  }
  read(width: number): number {
    let v = 0;
    for (let k = 0; k < width; k++) {
      const bit = this.n >> 3 < this.bytes.length ? (this.bytes[this.n >> 3] >> (this.n & 7)) & 1 : 0;
      v |= bit << k;
      this.n++;
    }
    return v;
  }
  restIsZero(): boolean {
    const total = this.bytes.length * 8;
    while (this.n < total) if (this.read(1) !== 0) return false;
    return true;
  }
}

// ---------------------------------------------------------------- Position ID

/**
 * gnubg Position ID of a position (14 characters, e.g. the opening
 * `4HPwATDgc/ABMA`). It encodes the player **not** on roll first, then the
 * player on roll (`position.turn`), each in his own numbering: for points
 * 1..24 and then the bar (gnubg's index 24), one `1` bit per checker and a
 * `0`. Borne-off checkers are the ones missing from 15.
 */
export function makeGnubgPositionId(position: ShortPosition): string {
  const b = position.board;
  const w = new BitWriter(10);
  // The opponent (not on roll): his point q is the mover's 25 − q.
  for (let q = 1; q <= 24; q++) {
    const n = b[25 - q] < 0 ? -b[25 - q] : 0;
    w.write((1 << n) - 1, n + 1);
  }
  w.write((1 << b[OPPONENT_BAR]) - 1, b[OPPONENT_BAR] + 1);
  for (let p = 1; p <= 24; p++) {
    const n = b[p] > 0 ? b[p] : 0;
    w.write((1 << n) - 1, n + 1);
  }
  w.write((1 << b[MOVER_BAR]) - 1, b[MOVER_BAR] + 1);
  return encodeBase64(w.bytes);
}

function invalidId(message: string, field: string): { ok: false; error: RulesError } {
  return err(rulesError('INVALID_POSITION_ID', message, { field }));
}

/**
 * gnubg Position ID → position with `turn` on roll (the ID itself does not
 * say whose turn it is; gnubg keeps that in the Match ID). Checks 15
 * checkers at most per side, no point held by both, canonical padding.
 */
export function parseGnubgPositionId(
  id: unknown,
  turn: Side,
  field = 'positionId',
): Result<ShortPosition, RulesError> {
  if (typeof id !== 'string')
    return invalidId('a gnubg Position ID is a string of 14 base64 characters', field);
  const bytes = decodeBase64(id, 10);
  if (!bytes) return invalidId('a gnubg Position ID is 14 characters of A–Z a–z 0–9 + /', field);
  const r = new BitReader(bytes);
  const seatOf = (who: string): ShortSeat | string => {
    const points = new Int8Array(25);
    let bar = 0;
    let total = 0;
    for (let i = 0; i < 25; i++) {
      let n = 0;
      while (r.position < 80 && r.read(1) === 1) {
        n++;
        if (++total > CHECKERS) return `the ID gives the ${who} more than 15 checkers`;
      }
      if (i < 24) points[i + 1] = n;
      else bar = n;
    }
    return { points, bar, off: CHECKERS - total };
  };
  const opponent = seatOf('player not on roll');
  if (typeof opponent === 'string') return invalidId(opponent, field);
  const mover = seatOf('player on roll');
  if (typeof mover === 'string') return invalidId(mover, field);
  if (r.position > 80 || !r.restIsZero()) return invalidId('the ID has bits after the last point', field);
  const seats = perSide<ShortSeat>(turn, mover, opponent);
  const problem = checkSeats(seats, field);
  if (problem) {
    const code = problem.code === 'POINT_HELD_BY_BOTH' ? problem.code : 'INVALID_POSITION_ID';
    return err(rulesError(code, problem.message, { field }));
  }
  return ok(positionFromSeats(turn, seats));
}

// ---------------------------------------------------------------- Match ID

/** gnubg's game state (Match ID bits 9–11). */
export type GnubgGameState = 'none' | 'playing' | 'over' | 'resigned' | 'dropped';
/** A resignation on offer (bits 14–15): the size of the game resigned. */
export type GnubgResignation = 'none' | 'single' | 'gammon' | 'backgammon';

const GAME_STATES: readonly GnubgGameState[] = ['none', 'playing', 'over', 'resigned', 'dropped'];
const RESIGNATIONS: readonly GnubgResignation[] = ['none', 'single', 'gammon', 'backgammon'];

/**
 * Everything a gnubg Match ID holds, by seat. gnubg numbers the players 0
 * and 1; by default white is player 0 and black player 1 (the convention of
 * the backgammon SGF format, where White = O = 0 and Black = X = 1); pass
 * `player0` to choose otherwise.
 */
export interface GnubgMatchState {
  /** CUBE-1: 1, 2, 4 … 32768. */
  readonly cubeValue: number;
  /** `null` = centred. */
  readonly cubeOwner: Side | null;
  /** The player on roll, or who did roll (gnubg's "dice owner"). */
  readonly onRoll: Side;
  /** Who makes the next decision (the opponent of `onRoll` after a double or a resignation offer). */
  readonly turn: Side;
  /** CUBE-6: this game is the Crawford game. */
  readonly crawford: boolean;
  readonly gameState: GnubgGameState;
  /** A double is on offer. */
  readonly doubleOffered: boolean;
  readonly resignation: GnubgResignation;
  /** The dice rolled, or `null` before the roll. */
  readonly dice: Dice | null;
  /** 0 = money game. */
  readonly matchLength: number;
  readonly score: PerSide<number>;
  /** CUBE-5: the Jacoby rule is in use (gnubg stores the negation in bit 67). */
  readonly jacoby: boolean;
}

const MAX_15_BITS = 0x7fff;

/**
 * Match state → gnubg Match ID (12 characters, e.g. `cAkAAAAAAAAA`). The
 * 67-bit layout, least significant bit first: cube value as log2 (4 bits),
 * cube owner (2: player 0, 1, or 3 = centred), dice owner (1), Crawford (1),
 * game state (3), turn (1), double offered (1), resignation (2), die 1 (3),
 * die 2 (3), match length (15), score of player 0 (15), score of player 1
 * (15), "Jacoby rule not in use" (1).
 */
export function makeMatchId(state: GnubgMatchState, player0: Side = 'white'): string {
  const player = (side: Side): number => (side === player0 ? 0 : 1);
  const log2 = Math.round(Math.log2(state.cubeValue));
  const w = new BitWriter(9);
  w.write(log2, 4);
  w.write(state.cubeOwner === null ? 3 : player(state.cubeOwner), 2);
  w.write(player(state.onRoll), 1);
  w.write(state.crawford ? 1 : 0, 1);
  w.write(GAME_STATES.indexOf(state.gameState), 3);
  w.write(player(state.turn), 1);
  w.write(state.doubleOffered ? 1 : 0, 1);
  w.write(RESIGNATIONS.indexOf(state.resignation), 2);
  w.write(state.dice ? state.dice[0] : 0, 3);
  w.write(state.dice ? state.dice[1] : 0, 3);
  w.write(state.matchLength & MAX_15_BITS, 15);
  w.write(state.score[player0] & MAX_15_BITS, 15);
  w.write(state.score[otherSide(player0)] & MAX_15_BITS, 15);
  w.write(state.jacoby ? 0 : 1, 1);
  return encodeBase64(w.bytes);
}

/** Checks a match state before it is written (the ID cannot hold other values). */
export function checkGnubgMatchState(state: GnubgMatchState, field = 'match'): RulesError | null {
  const v = state.cubeValue;
  if (!Number.isInteger(v) || v < 1 || v > 32768 || (v & (v - 1)) !== 0) {
    return rulesError('INVALID_REQUEST', 'the cube value is a power of two from 1 to 32768', {
      field: `${field}.cubeValue`,
    });
  }
  if (state.dice && (!isDieValue(state.dice[0]) || !isDieValue(state.dice[1]))) {
    return rulesError('INVALID_DICE', 'dice must be two integers in 1..6', { field: `${field}.dice` });
  }
  for (const [name, value] of [
    ['matchLength', state.matchLength],
    ['score.white', state.score.white],
    ['score.black', state.score.black],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > MAX_15_BITS) {
      return rulesError('INVALID_REQUEST', `${name} must be an integer 0..32767`, {
        field: `${field}.${name}`,
      });
    }
  }
  return null;
}

/** gnubg Match ID → match state; rejects values the layout leaves unused. */
export function parseMatchId(
  id: unknown,
  player0: Side = 'white',
  field = 'matchId',
): Result<GnubgMatchState, RulesError> {
  const invalid = (message: string) => err(rulesError('INVALID_POSITION_ID', message, { field }));
  if (typeof id !== 'string') return invalid('a gnubg Match ID is a string of 12 base64 characters');
  const bytes = decodeBase64(id, 9);
  if (!bytes) return invalid('a gnubg Match ID is 12 characters of A–Z a–z 0–9 + /');
  const r = new BitReader(bytes);
  const seat = (bit: number): Side => (bit === 0 ? player0 : otherSide(player0));
  const log2 = r.read(4);
  const owner = r.read(2);
  const onRoll = r.read(1);
  const crawford = r.read(1);
  const gameState = r.read(3);
  const turn = r.read(1);
  const doubleOffered = r.read(1);
  const resignation = r.read(2);
  const die1 = r.read(3);
  const die2 = r.read(3);
  const matchLength = r.read(15);
  const score0 = r.read(15);
  const score1 = r.read(15);
  const noJacoby = r.read(1);
  if (owner === 2) return invalid('the cube owner bits 10 are unused');
  if (gameState >= GAME_STATES.length) return invalid(`game state ${gameState} is unused`);
  if (die1 > 6 || die2 > 6 || (die1 === 0) !== (die2 === 0))
    return invalid('the dice must both be 1..6, or both 0 before the roll');
  if (!r.restIsZero()) return invalid('the Match ID has bits after the last field');
  const score = perSide(player0, score0, score1);
  return ok({
    cubeValue: 2 ** log2,
    cubeOwner: owner === 3 ? null : seat(owner),
    onRoll: seat(onRoll),
    turn: seat(turn),
    crawford: crawford === 1,
    gameState: GAME_STATES[gameState],
    doubleOffered: doubleOffered === 1,
    resignation: RESIGNATIONS[resignation],
    dice: die1 === 0 ? null : [die1, die2],
    matchLength,
    score,
    jacoby: noJacoby === 0,
  });
}

// ---------------------------------------------------------------- both

/** A position with its match state, as gnubg's `set gnubgid` takes them. */
export interface GnubgSnapshot {
  /** Seen from the player on roll, `match.onRoll`. */
  readonly position: ShortPosition;
  readonly match: GnubgMatchState;
}

/** `PositionID:MatchID`, the form gnubg shows and `set gnubgid` reads. The position is written from `match.onRoll`. */
export function makeGnubgId(snapshot: GnubgSnapshot, player0: Side = 'white'): string {
  const { position, match } = snapshot;
  const onRoll =
    position.turn === match.onRoll ? position : { turn: match.onRoll, board: flipBoard(position.board) };
  return `${makeGnubgPositionId(onRoll)}:${makeMatchId(match, player0)}`;
}

/** `PositionID:MatchID` → position (the dice owner on roll) and match state. */
export function parseGnubgId(
  text: unknown,
  player0: Side = 'white',
  field = 'gnubgId',
): Result<GnubgSnapshot, RulesError> {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}$/.test(text)) {
    return err(
      rulesError('INVALID_POSITION_ID', 'a gnubg ID is PositionID:MatchID (14 + 12 base64 characters)', {
        field,
      }),
    );
  }
  const [positionId, matchId] = text.split(':');
  const match = parseMatchId(matchId, player0, field);
  if (!match.ok) return match;
  const position = parseGnubgPositionId(positionId, match.value.onRoll, field);
  if (!position.ok) return position;
  return ok({ position: position.value, match: match.value });
}
