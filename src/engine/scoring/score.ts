import { Result, err, ok } from '../result';
import { Side, isSide, otherSide } from '../side';
import { CubeError, cubeError } from './cube-errors';

/**
 * What decided a game's value. Board results name the loser's position at
 * the end (LN-SCORE-1…4, KH-4, FV-6, SH-SCORE-1…3, §5.6); the rest name how
 * the game ended otherwise.
 */
export type BoardResult =
  /** LN-SCORE-1: the loser bore off at least one checker. */
  | 'oin'
  /** LN-SCORE-2 / FV-6: the loser bore off none. */
  | 'mars'
  /** LN-SCORE-3 K3 / K4: a triple loss for a loser far behind. */
  | 'koks'
  /** LN-SCORE-3 K1 / K2: all home, none off, counted triple. */
  | 'home-mars'
  /** KH-4 / K6: a stake per checker not borne off. */
  | 'per-checker'
  /** SH-SCORE-1. */
  | 'single'
  /** SH-SCORE-2. */
  | 'gammon'
  /** SH-SCORE-3. */
  | 'backgammon'
  /** §5.6 (short) and K5 (long, no 8). */
  | 'soviet-1'
  | 'soviet-2'
  | 'soviet-4'
  | 'soviet-8';

/**
 * A resignation level (see ./long.ts and ./short.ts for what each one is
 * worth under each scoring): `single`, `mars` and `koks` are the oin / mars /
 * koks ladder (Russian names of single / gammon / backgammon, §5.7);
 * `soviet-4` and `soviet-8` are the upper rungs of the Soviet ladders;
 * `per-checker` concedes every checker not yet borne off (KH-4).
 */
export type ResignLevel = 'single' | 'mars' | 'koks' | 'soviet-4' | 'soviet-8' | 'per-checker';

/** Every resignation level; which ones a scoring admits: `longResignationLevels`, `shortResignationLevels`. */
export const RESIGN_LEVELS: readonly ResignLevel[] = [
  'single',
  'mars',
  'koks',
  'soviet-4',
  'soviet-8',
  'per-checker',
];

/** What decided a game's value: a board result, a draw, a resignation or a dropped cube. */
export type GameResult =
  | BoardResult
  /** LN-SCORE-6: the second mover completed his bear-off with the last roll. */
  | 'draw'
  /** A resignation accepted at the given level. */
  | `resign-${ResignLevel}`
  /** CUBE-3: a double was dropped. */
  | 'dropped-cube';

/**
 * The value of one finished game. `points = multiplier × cubeValue`, added to
 * the winner's score (CUBE-4, LN-SCORE-5, LN-MATCH-1).
 */
export interface GameScore {
  /** The side that scores; `null` only for a draw (LN-SCORE-6). */
  readonly winner: Side | null;
  readonly result: GameResult;
  /**
   * Stakes won per cube unit, after the Jacoby rule (CUBE-5). For a board
   * result it is the rung of the scoring ladder; under per-checker scoring
   * it is the number of checkers left (× 3 when a triple is configured).
   */
  readonly multiplier: number;
  /** The cube's value at the end (before the refused offer, for a drop). */
  readonly cubeValue: number;
  readonly points: number;
  /** Per-checker scoring only: checkers the loser had not borne off (KH-4). */
  readonly checkersLeft?: number;
  /** The spec rule that decided the value, e.g. `LN-SCORE-2`, `CUBE-5`. */
  readonly rule: string;
  /** One English sentence for people. */
  readonly explanation: string;
}

/** Every board result, keyed so that the compiler checks the list is complete. */
const BOARD_RESULT_SET: Readonly<Record<BoardResult, true>> = {
  oin: true,
  mars: true,
  koks: true,
  'home-mars': true,
  'per-checker': true,
  single: true,
  gammon: true,
  backgammon: true,
  'soviet-1': true,
  'soviet-2': true,
  'soviet-4': true,
  'soviet-8': true,
};

/** Is `value` one of the names a game's result can have (`GameResult`)? */
export function isGameResult(value: unknown): value is GameResult {
  if (typeof value !== 'string') return false;
  if (Object.prototype.hasOwnProperty.call(BOARD_RESULT_SET, value)) return true;
  if (value === 'draw' || value === 'dropped-cube') return true;
  return value.startsWith('resign-') && (RESIGN_LEVELS as readonly string[]).includes(value.slice('resign-'.length));
}

/** The first field of `value` that keeps it from being a `GameScore`, with why; undefined when it is one. */
export function gameScoreFault(value: unknown): { readonly field: string; readonly message: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { field: '', message: 'must be the score of the game' };
  const v = value as Record<string, unknown>;
  if (v.winner !== null && !isSide(v.winner)) return { field: 'winner', message: 'must be "white", "black" or null' };
  if (!isGameResult(v.result)) return { field: 'result', message: 'must name how the game ended: a board result, draw, resign-<level> or dropped-cube' };
  for (const key of ['multiplier', 'cubeValue', 'points'] as const) {
    const n = v[key];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return { field: key, message: 'must be a whole number ≥ 0' };
  }
  if (v.checkersLeft !== undefined && !(typeof v.checkersLeft === 'number' && Number.isInteger(v.checkersLeft) && v.checkersLeft >= 0)) {
    return { field: 'checkersLeft', message: 'must be a whole number ≥ 0 when given' };
  }
  if (typeof v.rule !== 'string') return { field: 'rule', message: 'must be a string' };
  if (typeof v.explanation !== 'string') return { field: 'explanation', message: 'must be a string' };
  return undefined;
}

/** Is `value` a `GameScore`: every required field of the right type, `checkersLeft` a count when present? */
export function isGameScore(value: unknown): value is GameScore {
  return gameScoreFault(value) === undefined;
}

/**
 * What the doubling cube contributes to a game's score. Built by `stakeOf`
 * from the cube machine, or by hand; `NO_CUBE` when no cube is used.
 */
export interface Stake {
  /** The cube's value, a power of two ≥ 1 (CUBE-1). */
  readonly cubeValue: number;
  /** At least one double was accepted in this game (automatic doubles do not count). */
  readonly cubeTurned: boolean;
  /** The Jacoby rule is in force: money play with the option on (CUBE-5). */
  readonly jacoby: boolean;
}

/** A game played without the cube (or with it untouched and no Jacoby). */
export const NO_CUBE: Stake = Object.freeze({ cubeValue: 1, cubeTurned: false, jacoby: false });

/** Is `n` 1, 2, 4, 8…? (CUBE-1: the cube's faces are powers of two.) */
export function isPowerOfTwo(n: unknown): n is number {
  return Number.isSafeInteger(n) && (n as number) >= 1 && ((n as number) & ((n as number) - 1)) === 0;
}

/** Checks a stake given by hand (transports); `stakeOf` always builds a valid one. */
export function checkStake(stake: Stake, field = 'stake'): Result<Stake, CubeError> {
  if (typeof stake !== 'object' || stake === null) {
    return err(cubeError('INVALID_CUBE', `${field} must be an object`, { field }));
  }
  if (!isPowerOfTwo(stake.cubeValue)) {
    return err(
      cubeError('INVALID_CUBE', 'the cube value must be a power of two: 1, 2, 4, 8…', {
        field: `${field}.cubeValue`,
        rule: 'CUBE-1',
      }),
    );
  }
  if (typeof stake.cubeTurned !== 'boolean') {
    return err(cubeError('INVALID_CUBE', 'cubeTurned must be a boolean', { field: `${field}.cubeTurned` }));
  }
  if (typeof stake.jacoby !== 'boolean') {
    return err(cubeError('INVALID_CUBE', 'jacoby must be a boolean', { field: `${field}.jacoby` }));
  }
  return ok(stake);
}

/** `white` → `White`, for explanations. */
export function sideName(side: Side): string {
  return side === 'white' ? 'White' : 'Black';
}

/** Checks the side that scores (INVALID_LOSER names the game-end description). */
export function checkWinner(side: unknown, field = 'winner'): Result<Side, CubeError> {
  return isSide(side)
    ? ok(side)
    : err(cubeError('INVALID_LOSER', `${field} must be "white" or "black"`, { field }));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A board result before the cube: what the loser's position is worth.
 * `gammonLike` marks the rungs the Jacoby rule reduces (every result of a
 * loser who bore off nothing, CUBE-5).
 */
export interface Rung {
  readonly result: GameResult;
  readonly multiplier: number;
  readonly rule: string;
  /** "a mars", "an oin"… */
  readonly name: string;
  /** Why, after "because": "Black bore off no checkers". */
  readonly reason: string;
  readonly gammonLike: boolean;
  readonly checkersLeft?: number;
  /** The multiplier the Jacoby rule leaves (1 for stake rungs, the checkers left per checker). */
  readonly jacobyMultiplier?: number;
}

/**
 * Applies the cube and the Jacoby rule to a rung. CUBE-5: with Jacoby in
 * force and the cube never turned, gammon-type results count single; the
 * board `result` is kept, the multiplier drops and `rule` becomes CUBE-5.
 */
export function scoreRung(winner: Side, rung: Rung, stake: Stake): GameScore {
  const jacobyCut = stake.jacoby && !stake.cubeTurned && rung.gammonLike && rung.multiplier > 1;
  const multiplier = jacobyCut ? (rung.jacobyMultiplier ?? 1) : rung.multiplier;
  const points = multiplier * stake.cubeValue;
  const worth =
    stake.cubeValue === 1
      ? plural(points, 'point')
      : `${plural(points, 'point')} (${multiplier} × cube ${stake.cubeValue})`;
  const explanation = jacobyCut
    ? `${sideName(winner)} wins ${rung.name} because ${rung.reason}, but under the Jacoby rule with the cube never turned it counts only ${worth}.`
    : `${sideName(winner)} wins ${rung.name}, worth ${worth}, because ${rung.reason}.`;
  const score: {
    -readonly [K in keyof GameScore]: GameScore[K];
  } = {
    winner,
    result: rung.result,
    multiplier,
    cubeValue: stake.cubeValue,
    points,
    rule: jacobyCut ? 'CUBE-5' : rung.rule,
    explanation,
  };
  if (rung.checkersLeft !== undefined) score.checkersLeft = rung.checkersLeft;
  return score;
}

/**
 * CUBE-3: the doubled side refused; the doubler wins the value the cube had
 * before this offer, and gammons do not apply. Also used for a refused beaver
 * or raccoon (each is an offer of its own, CUBE-5).
 */
export function scoreDroppedCube(doubler: Side, valueBeforeOffer: number): Result<GameScore, CubeError> {
  if (!isSide(doubler)) {
    return err(cubeError('INVALID_CUBE', 'doubler must be "white" or "black"', { field: 'doubler' }));
  }
  if (!isPowerOfTwo(valueBeforeOffer)) {
    return err(
      cubeError('INVALID_CUBE', 'the cube value must be a power of two: 1, 2, 4, 8…', {
        field: 'valueBeforeOffer',
        rule: 'CUBE-1',
      }),
    );
  }
  return ok({
    winner: doubler,
    result: 'dropped-cube',
    multiplier: 1,
    cubeValue: valueBeforeOffer,
    points: valueBeforeOffer,
    rule: 'CUBE-3',
    explanation: `${sideName(doubler)} wins ${plural(valueBeforeOffer, 'point')} because ${sideName(otherSide(doubler))} refused the cube at ${valueBeforeOffer * 2}.`,
  });
}

/** LN-SCORE-6: the second mover bore off his last checker with the last roll. */
export function drawScore(cubeValue: number): GameScore {
  return {
    winner: null,
    result: 'draw',
    multiplier: 0,
    cubeValue,
    points: 0,
    rule: 'LN-SCORE-6',
    explanation:
      'The game is a draw worth 0 points because the second mover bore off all his checkers with his last roll.',
  };
}
