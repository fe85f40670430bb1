import { Dice } from '../dice';
import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { Side } from '../side';
import { Step } from '../step';
import { MOVER_OFF, CHECKERS, flipBoard } from './board';
import { GnubgMatchState, makeGnubgPositionId, makeMatchId } from './gnubg-id';
import { ShortPosition, initialShortPosition } from './position';
import { SHORT_STANDARD } from './rules';
import { ShortStageSolver } from './stage';
import { ShortTurn, legalShortTurns } from './turn';
import { ShortValidator, validateShortPlay } from './validate';

/*
 * A backgammon match as match files hold it (Jellyfish / gnubg `.mat`,
 * gnubg SGF): plain data that may be illegal, read by `parseMat` /
 * `parseSgf` and written by `makeMat` / `makeSgf`. `replayMatch` checks it
 * move by move through the rules core and yields every decision with its
 * gnubg Position ID and Match ID. Player 0 is the `.mat` file's left
 * column and SGF's White (`W`); player 1 the right column and Black (`B`).
 */

/** gnubg's player index. */
export type MatchPlayer = 0 | 1;

/** One step of a recorded move, in the mover's own numbering (25 = bar, 0 = off). */
export interface RecordedStep extends Step {
  readonly hit?: boolean;
}

export type RecordedAction =
  | {
      readonly kind: 'move';
      readonly player: MatchPlayer;
      readonly dice: Dice;
      readonly steps: readonly RecordedStep[];
      readonly moveNumber: number;
    }
  | { readonly kind: 'double'; readonly player: MatchPlayer; readonly moveNumber: number }
  | { readonly kind: 'take'; readonly player: MatchPlayer; readonly moveNumber: number }
  | { readonly kind: 'drop'; readonly player: MatchPlayer; readonly moveNumber: number };

/** How a game ended, as the file says: who won and how many points (cube included). */
export interface RecordedResult {
  readonly winner: MatchPlayer;
  readonly points: number;
  /** The loser resigned (SGF `RE[W+2R]`; a `.mat` file leaves it to the replay). */
  readonly resigned?: boolean;
}

export interface RecordedGame {
  /** From 1. */
  readonly number: number;
  /** Points of players 0 and 1 before the game (money: the running totals). */
  readonly score: readonly [number, number];
  readonly actions: readonly RecordedAction[];
  readonly result: RecordedResult | null;
}

export interface MatchRecord {
  /** `; [Name "value"]` header lines (XG, gnubg), in file order. */
  readonly tags: readonly { readonly name: string; readonly value: string }[];
  /** 0 = money session. */
  readonly length: number;
  readonly players: readonly [string, string];
  readonly games: readonly RecordedGame[];
  /** CUBE-5, money only (SGF `RU[Jacoby]`; a `.mat` file does not say). */
  readonly jacoby?: boolean;
}

/** An error in a match file: which game and move, and why. */
export interface MatchFileError extends RulesError {
  readonly game?: number;
  readonly move?: number;
  readonly reason: string;
}

export function matchFileError(
  reason: string,
  where: { game?: number; move?: number; line?: number; rule?: string } = {},
): MatchFileError {
  const at = [
    where.game !== undefined ? `game ${where.game}` : '',
    where.move !== undefined ? `move ${where.move}` : '',
    where.line !== undefined ? `line ${where.line}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const base = rulesError('INVALID_MATCH_FILE', at ? `${at}: ${reason}` : reason, {
    field: 'text',
    ...(where.rule ? { rule: where.rule } : {}),
  });
  return {
    ...base,
    reason,
    ...(where.game !== undefined ? { game: where.game } : {}),
    ...(where.move !== undefined ? { move: where.move } : {}),
    ...(where.line !== undefined ? { line: where.line } : {}),
  };
}

export const PLAYER_SIDES: readonly [Side, Side] = ['white', 'black'];
const sideOf = (p: MatchPlayer): Side => PLAYER_SIDES[p];

/** One decision of a replayed match, with gnubg's IDs before it (conventions of gnubg's match analysis). */
export interface ReplayedDecision {
  readonly game: number;
  /** Record number within the game, from 0. */
  readonly index: number;
  readonly moveNumber: number;
  readonly player: MatchPlayer;
  readonly action: 'move' | 'double' | 'take' | 'drop';
  /** Seen from the mover, or from the doubler for double / take / drop. */
  readonly position: ShortPosition;
  readonly positionId: string;
  readonly match: GnubgMatchState;
  readonly matchId: string;
  readonly dice?: Dice;
  /** The legal turn played (canonical steps and hits). */
  readonly turn?: ShortTurn;
  /** Distinct legal plays of the roll. */
  readonly legalPlays?: number;
  /** After a move: the position seen from the opponent. */
  readonly positionIdAfter?: string;
  readonly cube: { readonly value: number; readonly owner: MatchPlayer | null };
}

export interface ReplayedGame {
  readonly number: number;
  readonly score: readonly [number, number];
  readonly crawford: boolean;
  /** `null` while the last game is still being played. */
  readonly winner: MatchPlayer | null;
  readonly points: number;
  readonly resigned: boolean;
  readonly decisions: readonly ReplayedDecision[];
}

export interface ReplayedMatch {
  /** The record with every move's steps in canonical order with hit marks (what the writers write). */
  readonly record: MatchRecord;
  readonly games: readonly ReplayedGame[];
  readonly finalScore: readonly [number, number];
}

/** Orders in which a written move's steps are tried: as written, highest source first, then every other order. */
function stepOrders(steps: readonly Step[]): Step[][] {
  const orders: Step[][] = [steps.slice(), steps.slice().sort((a, b) => b.from - a.from || b.to - a.to)];
  const permute = (rest: Step[], prefix: Step[]): void => {
    if (rest.length === 0) orders.push(prefix);
    rest.forEach((s, i) => permute([...rest.slice(0, i), ...rest.slice(i + 1)], [...prefix, s]));
  };
  if (steps.length <= 4) permute(steps.slice(), []);
  return orders;
}

/** The legal turn a written move makes, or the reason it is not one. */
function playOf(position: ShortPosition, dice: Dice, steps: readonly Step[], validator: ShortValidator): Result<ShortTurn, RulesError> {
  let first: RulesError | null = null;
  for (const order of stepOrders(steps)) {
    const v = validateShortPlay(SHORT_STANDARD, position, dice, order, validator);
    if (!v.ok) return v;
    if (v.value.legal && v.value.complete) return ok(v.value.turn);
    if (!first) {
      first = v.value.legal
        ? rulesError(
            'MUST_PLAY_MAXIMUM',
            `the move leaves dice unplayed that could be played (${v.value.remainingUnits.join(', ')})`,
            { rule: 'MAX-1' },
          )
        : v.value.error;
    }
  }
  return err(first ?? rulesError('NOT_A_LEGAL_PLAY', 'not a legal play'));
}

/** Game points of a finished game (SH-SCORE-1…3): 1, 2 for a gammon, 3 for a backgammon, seen from the winner. */
function gamePoints(winnerBoard: Int8Array): number {
  // winnerBoard is seen from the winner: the loser's checkers are negative counts, bar at 26, off at 27.
  if (winnerBoard[27] > 0) return 1;
  let inWinnerHome = winnerBoard[26];
  for (let p = 1; p <= 6; p++) if (winnerBoard[p] < 0) inWinnerHome -= winnerBoard[p];
  return inWinnerHome > 0 ? 3 : 2;
}

/**
 * Replays a recorded match through the rules core: every move must be a
 * legal play of its dice (ALG-*, MAX-*), every cube action must be allowed
 * (CUBE-2: before rolling, with access to the cube; CUBE-6: never in the
 * Crawford game), turns must alternate. Returns every decision with gnubg's
 * IDs, or the first problem with its game and move number.
 */
export function replayMatch(record: MatchRecord): Result<ReplayedMatch, MatchFileError> {
  const validator = new ShortValidator();
  const solver = new ShortStageSolver();
  const games: ReplayedGame[] = [];
  const normalizedGames: RecordedGame[] = [];
  let crawfordSeen = false;
  let finalScore: [number, number] = [0, 0];
  for (const game of record.games) {
    const where = (moveNumber: number) => ({ game: game.number, move: moveNumber });
    const leaderAt =
      record.length > 0 && (game.score[0] === record.length - 1 || game.score[1] === record.length - 1);
    const crawford =
      leaderAt &&
      !crawfordSeen &&
      !(game.score[0] === record.length - 1 && game.score[1] === record.length - 1);
    if (leaderAt) crawfordSeen = true;
    let position: ShortPosition | null = null;
    let cube: { value: number; owner: MatchPlayer | null } = { value: 1, owner: null };
    let pendingDouble: MatchPlayer | null = null;
    let rolledThisGame = false;
    let ended: { winner: MatchPlayer; points: number; resigned: boolean } | null = null;
    const decisions: ReplayedDecision[] = [];
    const actions: RecordedAction[] = [];
    const state = (
      onRoll: MatchPlayer,
      turn: MatchPlayer,
      dice: Dice | null,
      offered: boolean,
    ): GnubgMatchState => ({
      cubeValue: cube.value,
      cubeOwner: cube.owner === null ? null : sideOf(cube.owner),
      onRoll: sideOf(onRoll),
      turn: sideOf(turn),
      crawford,
      gameState: 'playing',
      doubleOffered: offered,
      resignation: 'none',
      dice,
      matchLength: record.length,
      score: { white: game.score[0], black: game.score[1] },
      jacoby: record.length === 0 && record.jacoby === true,
    });
    const push = (d: Omit<ReplayedDecision, 'game' | 'index' | 'positionId' | 'matchId' | 'cube'>): void => {
      decisions.push({
        ...d,
        game: game.number,
        index: decisions.length,
        positionId: makeGnubgPositionId(d.position),
        matchId: makeMatchId(d.match),
        cube: { ...cube },
      });
    };
    for (const action of game.actions) {
      const at = where(action.moveNumber);
      if (ended) return err(matchFileError(`${action.kind} after the game has ended`, at));
      const side = sideOf(action.player);
      if (action.kind === 'move') {
        if (pendingDouble !== null)
          return err(matchFileError('a move while a double waits for an answer', { ...at, rule: 'CUBE-3' }));
        position ??= initialShortPosition(side);
        if (position.turn !== side)
          return err(matchFileError(`player ${action.player} moves out of turn`, at));
        const legal = legalShortTurns(SHORT_STANDARD, position, action.dice, solver);
        if (!legal.ok) return err(matchFileError(legal.error.message, at));
        const played = playOf(position, action.dice, action.steps, validator);
        if (!played.ok) {
          const written = action.steps.map((s) => `${s.from}/${s.to}`).join(' ') || '(no move)';
          return err(
            matchFileError(
              `${action.dice.join('')}: ${written} is not a legal play: ${played.error.message}`,
              { ...at, ...(played.error.rule ? { rule: played.error.rule } : {}) },
            ),
          );
        }
        const turn = played.value;
        push({
          moveNumber: action.moveNumber,
          player: action.player,
          action: 'move',
          position,
          match: state(action.player, action.player, action.dice, false),
          dice: action.dice,
          turn,
          legalPlays: legal.value.turns.length,
          positionIdAfter: makeGnubgPositionId({
            turn: side === 'white' ? 'black' : 'white',
            board: flipBoard(turn.board),
          }),
        });
        actions.push({
          ...action,
          steps: turn.steps.map((s, i) => ({
            from: s.from,
            to: s.to,
            ...(turn.hits[i] ? { hit: true } : {}),
          })),
        });
        rolledThisGame = true;
        if (turn.board[MOVER_OFF] === CHECKERS) {
          ended = { winner: action.player, points: gamePoints(turn.board) * cube.value, resigned: false };
          if (record.length === 0 && record.jacoby && cube.owner === null)
            ended = { ...ended, points: cube.value };
        }
        position = turn.position;
        continue;
      }
      if (action.kind === 'double') {
        if (pendingDouble !== null)
          return err(
            matchFileError('a double while a double waits for an answer', { ...at, rule: 'CUBE-3' }),
          );
        if (!rolledThisGame && !position)
          return err(matchFileError('a double before the opening roll', { ...at, rule: 'CUBE-2' }));
        position ??= initialShortPosition(side);
        if (position.turn !== side)
          return err(
            matchFileError(`player ${action.player} doubles out of turn`, { ...at, rule: 'CUBE-2' }),
          );
        if (cube.owner !== null && cube.owner !== action.player)
          return err(
            matchFileError(`player ${action.player} doubles without access to the cube`, {
              ...at,
              rule: 'CUBE-2',
            }),
          );
        if (crawford) return err(matchFileError('a double in the Crawford game', { ...at, rule: 'CUBE-6' }));
        push({
          moveNumber: action.moveNumber,
          player: action.player,
          action: 'double',
          position,
          match: state(action.player, action.player, null, false),
        });
        pendingDouble = action.player;
        actions.push(action);
        continue;
      }
      // take or drop
      if (pendingDouble === null || pendingDouble === action.player || !position) {
        return err(
          matchFileError(`${action.kind === 'take' ? 'a take' : 'a drop'} with no double to answer`, {
            ...at,
            rule: 'CUBE-3',
          }),
        );
      }
      const doubler = pendingDouble;
      push({
        moveNumber: action.moveNumber,
        player: action.player,
        action: action.kind,
        position,
        match: state(doubler, action.player, null, true),
      });
      actions.push(action);
      pendingDouble = null;
      if (action.kind === 'take') cube = { value: cube.value * 2, owner: action.player };
      else ended = { winner: doubler, points: cube.value, resigned: false };
    }
    const last = game.actions.length > 0 ? game.actions[game.actions.length - 1].moveNumber : 0;
    const written = game.result;
    if (!ended && !written && game === record.games[record.games.length - 1]) {
      // The last game of a match still being played (a session's): no result yet.
      games.push({ number: game.number, score: game.score, crawford, winner: null, points: 0, resigned: false, decisions });
      normalizedGames.push({ number: game.number, score: game.score, actions, result: null });
      finalScore = [game.score[0], game.score[1]];
      continue;
    }
    if (pendingDouble !== null)
      return err(matchFileError('the game ends with a double not answered', where(last)));
    if (!ended) {
      if (!written)
        return err(matchFileError('the game has no result (no "Wins" line) and is not over', where(last)));
      ended = { winner: written.winner, points: written.points, resigned: true };
    } else if (written && written.winner !== ended.winner) {
      return err(
        matchFileError(
          `the file says player ${written.winner} wins, but player ${ended.winner} won the game`,
          where(last),
        ),
      );
    } else if (written) {
      // The file's points stand (a money game's Jacoby setting is not in a .mat file).
      ended = { ...ended, points: written.points };
    }
    const score: [number, number] = [game.score[0], game.score[1]];
    score[ended.winner] += ended.points;
    finalScore = score;
    games.push({
      number: game.number,
      score: game.score,
      crawford,
      winner: ended.winner,
      points: ended.points,
      resigned: ended.resigned,
      decisions,
    });
    normalizedGames.push({
      number: game.number,
      score: game.score,
      actions,
      result: { winner: ended.winner, points: ended.points, ...(ended.resigned ? { resigned: true } : {}) },
    });
  }
  if (record.games.length === 0) return err(matchFileError('the file holds no game'));
  return ok({ record: { ...record, games: normalizedGames }, games, finalScore });
}

/** The side of a match player (player 0 is white). */
export function matchPlayerSide(player: MatchPlayer): Side {
  return sideOf(player);
}
