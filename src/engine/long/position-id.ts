import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { PerSide, Side } from '../side';
import { CHECKERS } from './board';
import { LongPosition, SeatCheckers, positionFromSeats, seatCheckers } from './position';
import { PendingStage, StageOrigin } from './stages';
import { LongState } from './turn';

/**
 * The long-family position ID: a compact, canonical, URL-safe key of a
 * state (docs/position-id.md). Layout of the bytes, base64url without
 * padding:
 *
 * - bits 0–2 of the bit stream: turn (1 = black), firstTurn.white, firstTurn.black;
 * - then white's checkers, then black's, each in its own numbering: for
 *   points 1..24, one `1` bit per checker then a `0` (at most 39 bits a side);
 *   borne-off checkers are the ones missing from 15.
 *
 * Bits fill each byte from its least significant bit, as gnubg's Position ID
 * does. Pending stages (TM-7) follow as `.` + one token per stage: `r`
 * (re-roll), `c<units>` (cascade, `!` when it is the last, CG-4) or
 * `d<units>` (debt); `.n<w>x<b>` records rolls played (§3.10) when known.
 * Example, the classic start with white to move: `GAAA8_fAAAg__DA`.
 */
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc |= b << bits;
    bits += 8;
    while (bits >= 6) {
      out += B64[acc & 63];
      acc >>>= 6;
      bits -= 6;
    }
  }
  if (bits > 0) out += B64[acc & 63];
  return out;
}

function fromBase64Url(text: string): Uint8Array | null {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of text) {
    const v = B64.indexOf(ch);
    if (v < 0) return null;
    acc |= v << bits;
    bits += 6;
    if (bits >= 8) {
      bytes.push(acc & 255);
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (acc !== 0) return null; // non-canonical trailing bits
  return Uint8Array.from(bytes);
}

class BitWriter {
  bytes: number[] = [];
  private n = 0;
  write(bit: number): void {
    const i = this.n >> 3;
    if (i === this.bytes.length) this.bytes.push(0);
    if (bit) this.bytes[i] |= 1 << (this.n & 7);
    this.n++;
  }
}

class BitReader {
  private n = 0;
  constructor(private readonly bytes: Uint8Array) {}
  read(): number {
    const i = this.n >> 3;
    if (i >= this.bytes.length) return -1;
    const bit = (this.bytes[i] >> (this.n & 7)) & 1;
    this.n++;
    return bit;
  }
  rest(): number[] {
    const out: number[] = [];
    for (let b = this.read(); b >= 0; b = this.read()) out.push(b);
    return out;
  }
}

function stageToken(s: PendingStage): string {
  if (s.origin === 'reroll') return 'r';
  const letter = s.origin === 'cascade' ? 'c' : 'd';
  return letter + (s.units ?? []).join('') + (s.last ? '!' : '');
}

/** State → position ID. */
export function makeLongPositionId(state: LongState): string {
  const { position } = state;
  const w = new BitWriter();
  w.write(position.turn === 'black' ? 1 : 0);
  w.write(position.firstTurn.white ? 1 : 0);
  w.write(position.firstTurn.black ? 1 : 0);
  for (const side of ['white', 'black'] as const) {
    const seat = seatCheckers(position, side);
    for (let p = 1; p <= 24; p++) {
      for (let k = 0; k < seat.points[p]; k++) w.write(1);
      w.write(0);
    }
  }
  let id = toBase64Url(Uint8Array.from(w.bytes));
  for (const s of state.pending) id += '.' + stageToken(s);
  if (state.rollsPlayed) id += `.n${state.rollsPlayed.white}x${state.rollsPlayed.black}`;
  return id;
}

function invalid(message: string, field: string): { ok: false; error: RulesError } {
  return err(rulesError('INVALID_POSITION_ID', message, { field }));
}

/** Position ID → state, checking everything `parseLongPosition` checks. */
export function parseLongPositionId(id: unknown, field = 'positionId'): Result<LongState, RulesError> {
  if (typeof id !== 'string' || id.length === 0 || id.length > 80) {
    return invalid('positionId must be a non-empty string of at most 80 characters', field);
  }
  const [core, ...tokens] = id.split('.');
  const bytes = fromBase64Url(core);
  if (!bytes || bytes.length < 4 || bytes.length > 11) return invalid('positionId is not a long-nardy position ID', field);
  const r = new BitReader(bytes);
  const turn: Side = r.read() === 1 ? 'black' : 'white';
  const firstTurn = { white: r.read() === 1, black: r.read() === 1 };
  const seats = {} as PerSide<SeatCheckers>;
  for (const side of ['white', 'black'] as const) {
    const points = new Int8Array(25);
    let total = 0;
    for (let p = 1; p <= 24; p++) {
      for (;;) {
        const bit = r.read();
        if (bit < 0) return invalid('positionId is truncated', field);
        if (bit === 0) break;
        points[p]++;
        if (++total > CHECKERS) return invalid(`positionId gives ${side} more than 15 checkers`, field);
      }
    }
    seats[side] = { points, off: CHECKERS - total };
  }
  if (r.rest().some((b) => b !== 0)) return invalid('positionId has trailing data', field);
  for (let p = 1; p <= 24; p++) {
    const q = p <= 12 ? p + 12 : p - 12;
    if (seats.white.points[p] > 0 && seats.black.points[q] > 0) {
      return err(rulesError('POINT_HELD_BY_BOTH', `positionId puts both sides on white's point ${p}`, { field }));
    }
  }
  const position: LongPosition = positionFromSeats(turn, seats, firstTurn);
  const pending: PendingStage[] = [];
  let rollsPlayed: PerSide<number> | undefined;
  for (const token of tokens) {
    const m = /^(r)$|^([cd])([1-6]{1,4})(!?)$|^n(\d{1,3})x(\d{1,3})$/.exec(token);
    if (!m) return invalid(`cannot read the suffix "${token}" of positionId`, field);
    if (m[1]) pending.push({ actor: turn, origin: 'reroll' });
    else if (m[2]) {
      const units = [...m[3]].map(Number);
      if (units.some((u) => u !== units[0])) return invalid(`stage "${token}" must repeat one die value`, field);
      const origin: StageOrigin = m[2] === 'c' ? 'cascade' : 'debt';
      pending.push(m[4] ? { actor: turn, origin, units, last: true } : { actor: turn, origin, units });
    } else rollsPlayed = { white: Number(m[5]), black: Number(m[6]) };
  }
  return ok(rollsPlayed ? { position, pending, rollsPlayed } : { position, pending });
}
