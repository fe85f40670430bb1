import { Result, err, ok } from '../result';
import { PerSide, Side, isSide } from '../side';
import { CubeError, cubeError } from './cube-errors';
import { GameScore } from './score';

/**
 * A match to `length` points between games (CUBE-6, LN-MATCH-1). Every game
 * adds its points to its winner's score; the first to reach `length` or
 * more wins the match.
 *
 * Crawford rule (CUBE-6, on by default): the one game played right after
 * either player *first* reaches `length − 1` is the Crawford game, in which
 * nobody may double; the games after it ("post-Crawford") allow doubling
 * again. There is at most one Crawford game per match.
 */
export interface MatchState {
  readonly length: number;
  /** The Crawford rule is in force. */
  readonly crawford: boolean;
  readonly score: Readonly<PerSide<number>>;
  /** Set once a score reaches `length`. */
  readonly winner?: Side;
  /** The game about to be played (or being played) is the Crawford game. */
  readonly nextGameIsCrawford: boolean;
  /** The Crawford game has been played (the match is post-Crawford, or over). */
  readonly crawfordPlayed: boolean;
}

/** Longest match accepted (a bound for input checking only). */
export const MAX_MATCH_LENGTH = 999;

/** The end of a game as the match sees it: who scores and how much. */
export type MatchGameResult = Pick<GameScore, 'winner' | 'points'>;

/** A new match to `length` points, 0:0, Crawford rule on unless switched off. */
export function newMatch(
  length: number,
  options: { crawford?: boolean } = {},
): Result<MatchState, CubeError> {
  if (!Number.isInteger(length) || length < 1 || length > MAX_MATCH_LENGTH) {
    return err(
      cubeError('INVALID_MATCH', `the match length must be an integer 1..${MAX_MATCH_LENGTH}`, {
        field: 'match.length',
        rule: 'CUBE-6',
      }),
    );
  }
  return ok({
    length,
    crawford: options.crawford ?? true,
    score: { white: 0, black: 0 },
    nextGameIsCrawford: false,
    crawfordPlayed: false,
  });
}

/**
 * The match after one more game (CUBE-6, LN-MATCH-1): the game's points go
 * to its winner; a draw (LN-SCORE-6, `winner: null`, 0 points) changes no
 * score but still counts as the Crawford game if it was one. The next game
 * is the Crawford game exactly when this game first brought a player to
 * `length − 1` and the match goes on.
 */
export function nextMatchState(match: MatchState, game: MatchGameResult): Result<MatchState, CubeError> {
  const checked = checkMatchState(match);
  if (!checked.ok) return checked;
  if (match.winner !== undefined) {
    return err(cubeError('MATCH_OVER', `the match is over: ${match.winner} has won it`, { rule: 'CUBE-6' }));
  }
  if (!Number.isSafeInteger(game.points) || game.points < 0) {
    return err(
      cubeError('INVALID_MATCH', 'a game is worth a whole number of points ≥ 0', { field: 'game.points' }),
    );
  }
  if (game.winner === null ? game.points !== 0 : !isSide(game.winner)) {
    return err(
      cubeError(
        'INVALID_MATCH',
        'a game has a winner ("white" or "black"), or is a draw worth 0 (winner null)',
        {
          field: 'game.winner',
        },
      ),
    );
  }
  const score = { white: match.score.white, black: match.score.black };
  if (game.winner !== null) score[game.winner] += game.points;
  const crawfordPlayed = match.crawfordPlayed || match.nextGameIsCrawford;
  const winner: Side | undefined =
    score.white >= match.length ? 'white' : score.black >= match.length ? 'black' : undefined;
  // Nobody was at length − 1 before unless the Crawford game was due or played
  // (checkMatchState), so reaching it now is reaching it for the first time.
  const nextGameIsCrawford =
    match.crawford &&
    match.length >= 2 &&
    winner === undefined &&
    !crawfordPlayed &&
    (score.white === match.length - 1 || score.black === match.length - 1);
  const next: { -readonly [K in keyof MatchState]: MatchState[K] } = {
    length: match.length,
    crawford: match.crawford,
    score,
    nextGameIsCrawford,
    crawfordPlayed,
  };
  if (winner !== undefined) next.winner = winner;
  return ok(next);
}

/** Post-Crawford (CUBE-6): the Crawford game is behind us and the match goes on; doubling is allowed again. */
export function isPostCrawford(match: MatchState): boolean {
  return match.crawford && match.crawfordPlayed && !match.nextGameIsCrawford && match.winner === undefined;
}

/** May anyone double in the next game of this match? Not in the Crawford game, not after the match (CUBE-6). */
export function matchAllowsDoubling(match: MatchState): boolean {
  return match.winner === undefined && !match.nextGameIsCrawford;
}

function isScore(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

/**
 * Checks that a match state could arise from `newMatch` and `nextMatchState`:
 * a winner exactly when a score reached the length, a Crawford game due
 * exactly when a player first stands at `length − 1`, and so on.
 */
export function checkMatchState(match: MatchState, field = 'match'): Result<MatchState, CubeError> {
  const fail = (message: string, f = field) =>
    err(cubeError('INVALID_MATCH', message, { field: f, rule: 'CUBE-6' }));
  if (typeof match !== 'object' || match === null) return fail(`${field} must be an object`);
  const { length, score } = match;
  if (!Number.isInteger(length) || length < 1 || length > MAX_MATCH_LENGTH) {
    return fail(`the match length must be an integer 1..${MAX_MATCH_LENGTH}`, `${field}.length`);
  }
  if (typeof score !== 'object' || score === null || !isScore(score.white) || !isScore(score.black)) {
    return fail('score must be { white, black } with whole numbers ≥ 0', `${field}.score`);
  }
  for (const key of ['crawford', 'nextGameIsCrawford', 'crawfordPlayed'] as const) {
    if (typeof match[key] !== 'boolean') return fail(`${key} must be a boolean`, `${field}.${key}`);
  }
  const over: Side | undefined =
    score.white >= length ? 'white' : score.black >= length ? 'black' : undefined;
  if (score.white >= length && score.black >= length) {
    return fail('only one player can reach the match length', `${field}.score`);
  }
  if (match.winner !== over) {
    return fail(
      over
        ? `${over} has reached ${length}, so the match winner is ${over}`
        : 'nobody has reached the match length yet',
      `${field}.winner`,
    );
  }
  const atMatchPoint = score.white === length - 1 || score.black === length - 1;
  const reached = Math.max(score.white, score.black) >= length - 1;
  if (!match.crawford && (match.nextGameIsCrawford || match.crawfordPlayed)) {
    return fail('without the Crawford rule there is no Crawford game', `${field}.crawford`);
  }
  if (
    match.nextGameIsCrawford &&
    (match.crawfordPlayed || over !== undefined || !atMatchPoint || length < 2)
  ) {
    return fail(
      'the Crawford game is due only right after a player first reaches length − 1',
      `${field}.nextGameIsCrawford`,
    );
  }
  if (match.crawfordPlayed && (!reached || length < 2)) {
    return fail(
      'the Crawford game cannot have been played before anyone reached length − 1',
      `${field}.crawfordPlayed`,
    );
  }
  if (
    match.crawford &&
    length >= 2 &&
    over === undefined &&
    atMatchPoint &&
    !match.crawfordPlayed &&
    !match.nextGameIsCrawford
  ) {
    return fail(
      'a player stands at length − 1, so the Crawford game is due or played',
      `${field}.nextGameIsCrawford`,
    );
  }
  return ok(match);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON → a checked match state, or what is wrong with it. `crawford` defaults to true;
 * `nextGameIsCrawford`, `crawfordPlayed` and `winner` default to what the
 * score implies when only the score of a match is known, assuming the
 * Crawford game is still due if someone stands at `length − 1`.
 */
export function parseMatchState(input: unknown, field = 'match'): Result<MatchState, CubeError> {
  if (!isPlainObject(input)) return err(cubeError('INVALID_MATCH', `${field} must be an object`, { field }));
  const known = ['length', 'crawford', 'score', 'winner', 'nextGameIsCrawford', 'crawfordPlayed'];
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) {
      return err(cubeError('INVALID_MATCH', `unknown field ${field}.${key}`, { field: `${field}.${key}` }));
    }
  }
  const length = input.length as number;
  const score = isPlainObject(input.score) ? input.score : { white: 0, black: 0 };
  if (input.score !== undefined && !isPlainObject(input.score)) {
    return err(cubeError('INVALID_MATCH', 'score must be { white, black }', { field: `${field}.score` }));
  }
  for (const key of Object.keys(score)) {
    if (key !== 'white' && key !== 'black') {
      return err(
        cubeError('INVALID_MATCH', `unknown field ${field}.score.${key}`, { field: `${field}.score.${key}` }),
      );
    }
  }
  const white = score.white ?? 0;
  const black = score.black ?? 0;
  const crawford = input.crawford ?? true;
  const over: Side | undefined =
    isScore(white) && isScore(black) && Number.isInteger(length)
      ? white >= length
        ? 'white'
        : black >= length
          ? 'black'
          : undefined
      : undefined;
  const atMatchPoint = white === length - 1 || black === length - 1;
  const crawfordPlayed = input.crawfordPlayed ?? false;
  const nextGameIsCrawford =
    input.nextGameIsCrawford ??
    (crawford === true && length >= 2 && over === undefined && atMatchPoint && crawfordPlayed !== true);
  const match = {
    length,
    crawford,
    score: { white, black },
    nextGameIsCrawford,
    crawfordPlayed,
    ...(input.winner !== undefined ? { winner: input.winner } : over !== undefined ? { winner: over } : {}),
  } as MatchState;
  if (input.winner !== undefined && input.winner !== null && !isSide(input.winner)) {
    return err(cubeError('INVALID_MATCH', 'winner must be "white" or "black"', { field: `${field}.winner` }));
  }
  if (input.winner === null) {
    return err(
      cubeError('INVALID_MATCH', 'leave winner out while the match goes on', { field: `${field}.winner` }),
    );
  }
  return checkMatchState(match, field);
}
