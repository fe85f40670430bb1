import { Dice } from '../dice';
import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { CubeConfig, CubeState, DEFAULT_CUBE_CONFIG, INITIAL_CUBE, applyCubeAction } from '../scoring/cube';
import { lossKind } from '../scoring/loss';
import { MatchState } from '../scoring/match';
import { Side } from '../side';
import { Step } from '../step';
import { MOVER_OFF, CHECKERS, flipBoard, shortLossCounts } from './board';
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
  /** CUBE-5, money only (SGF `RU[Jacoby]`; `.mat`: its `Jacoby` tag, else gnubg's default, on). */
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
function playOf(
  position: ShortPosition,
  dice: Dice,
  steps: readonly Step[],
  validator: ShortValidator,
): Result<ShortTurn, RulesError> {
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
  // winnerBoard is seen from the winner, who has just moved: the loser is the opponent.
  return lossKind(shortLossCounts(winnerBoard, false), 'backgammon');
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
    const leaderAt =
      record.length > 0 && (game.score[0] === record.length - 1 || game.score[1] === record.length - 1);
    // The Crawford game is the first game a player starts one point from the match (CUBE-6), not at double match point.
    const crawford =
      leaderAt &&
      !crawfordSeen &&
      !(game.score[0] === record.length - 1 && game.score[1] === record.length - 1);
    const match = matchStateOf(record, game, crawford);
    if (leaderAt) crawfordSeen = true;
    const replay = new GameReplay(record, game, crawford, match, validator, solver);
    for (const action of game.actions) {
      const problem = replay.act(action);
      if (problem) return err(problem);
    }
    const replayed = replay.finish(game === record.games[record.games.length - 1]);
    if (!replayed.ok) return replayed;
    games.push(replayed.value.game);
    normalizedGames.push(replayed.value.recorded);
    finalScore = replayed.value.finalScore;
  }
  if (record.games.length === 0) return err(matchFileError('the file holds no game'));
  return ok({ record: { ...record, games: normalizedGames }, games, finalScore });
}

/**
 * The match before a game as the cube core judges it (CUBE-6): the file's
 * score and the Crawford game as the file's scores place it; null for
 * money play.
 */
function matchStateOf(record: MatchRecord, game: RecordedGame, crawford: boolean): MatchState | null {
  if (record.length === 0) return null;
  const reached = Math.max(game.score[0], game.score[1]) >= record.length - 1;
  return {
    length: record.length,
    crawford: true,
    score: { white: game.score[0], black: game.score[1] },
    nextGameIsCrawford: crawford,
    // Past the Crawford game, or at double match point where there is none.
    crawfordPlayed: record.length >= 2 && reached && !crawford,
  };
}

/** Where an action is in the file: its game and its move number. */
type ActionAt = { readonly game: number; readonly move: number };

/** How a game ended: who won, how many points (cube included), and whether the loser resigned. */
interface GameEnd {
  readonly winner: MatchPlayer;
  readonly points: number;
  readonly resigned: boolean;
}

/** One game of a match, replayed action by action: the position, the cube and the decisions so far. */
class GameReplay {
  private position: ShortPosition | null = null;
  /** The cube as the scoring core keeps it (CUBE-1…CUBE-3). */
  private cubeState: CubeState = { ...INITIAL_CUBE };
  private readonly cubeConfig: CubeConfig;
  private ended: GameEnd | null = null;
  private readonly decisions: ReplayedDecision[] = [];
  /** The game's actions as replayed: each move with its canonical steps and hits. */
  private readonly actions: RecordedAction[] = [];

  constructor(
    private readonly record: MatchRecord,
    private readonly game: RecordedGame,
    private readonly crawford: boolean,
    private readonly match: MatchState | null,
    private readonly validator: ShortValidator,
    private readonly solver: ShortStageSolver,
  ) {
    // A file's cube: no cap, no beavers; Jacoby as the file says (money play only).
    this.cubeConfig = { ...DEFAULT_CUBE_CONFIG, enabled: true, jacoby: record.length === 0 && record.jacoby === true };
  }

  /** The cube in gnubg's terms: its value and owner (null while centred). */
  private get cube(): { value: number; owner: MatchPlayer | null } {
    const { value, owner } = this.cubeState;
    return { value, owner: owner === 'center' ? null : owner === 'white' ? 0 : 1 };
  }

  /** The player whose double waits for an answer, if any. */
  private get pendingDouble(): MatchPlayer | null {
    const offered = this.cubeState.offered;
    return offered ? (offered.by === 'white' ? 0 : 1) : null;
  }

  /** A cube action as the scoring core judges it (CUBE-2, CUBE-3, CUBE-6): the refusal, or null once applied. */
  private cubeAction(type: 'double' | 'take' | 'drop', player: MatchPlayer, onRoll: Side, at: ActionAt): MatchFileError | null {
    const outcome = applyCubeAction(
      this.cubeConfig,
      this.cubeState,
      { onRoll, rolled: false, openingMove: this.position === null, match: this.match },
      { type, by: sideOf(player) },
    );
    if (!outcome.ok) {
      const e = outcome.error;
      return matchFileError(`player ${player} cannot ${type}: ${e.message}`, { ...at, ...(e.rule ? { rule: e.rule } : {}) });
    }
    this.cubeState = outcome.value.state;
    if (outcome.value.gameOver?.winner) {
      this.ended = { winner: outcome.value.gameOver.winner === 'white' ? 0 : 1, points: outcome.value.gameOver.points, resigned: false };
    }
    return null;
  }

  private where(moveNumber: number): ActionAt {
    return { game: this.game.number, move: moveNumber };
  }

  /** gnubg's match state before a decision. */
  private state(
    onRoll: MatchPlayer,
    turn: MatchPlayer,
    dice: Dice | null,
    offered: boolean,
  ): GnubgMatchState {
    const { cube, record, game } = this;
    return {
      cubeValue: cube.value,
      cubeOwner: cube.owner === null ? null : sideOf(cube.owner),
      onRoll: sideOf(onRoll),
      turn: sideOf(turn),
      crawford: this.crawford,
      gameState: 'playing',
      doubleOffered: offered,
      resignation: 'none',
      dice,
      matchLength: record.length,
      score: { white: game.score[0], black: game.score[1] },
      jacoby: record.length === 0 && record.jacoby === true,
    };
  }

  private push(d: Omit<ReplayedDecision, 'game' | 'index' | 'positionId' | 'matchId' | 'cube'>): void {
    this.decisions.push({
      ...d,
      game: this.game.number,
      index: this.decisions.length,
      positionId: makeGnubgPositionId(d.position),
      matchId: makeMatchId(d.match),
      cube: { ...this.cube },
    });
  }

  /** Replays one action; the first problem with it, or null. */
  act(action: RecordedAction): MatchFileError | null {
    const at = this.where(action.moveNumber);
    if (this.ended) return matchFileError(`${action.kind} after the game has ended`, at);
    if (action.kind === 'move') return this.move(action, at);
    if (action.kind === 'double') return this.double(action, at);
    return this.answer(action, at);
  }

  /** A move: in turn, with no double waiting, a legal play of its dice (ALG-*, MAX-*). */
  private move(action: Extract<RecordedAction, { kind: 'move' }>, at: ActionAt): MatchFileError | null {
    if (this.pendingDouble !== null)
      return matchFileError('a move while a double waits for an answer', { ...at, rule: 'CUBE-3' });
    const side = sideOf(action.player);
    const position = (this.position ??= initialShortPosition(side));
    if (position.turn !== side) return matchFileError(`player ${action.player} moves out of turn`, at);
    const legal = legalShortTurns(SHORT_STANDARD, position, action.dice, this.solver);
    if (!legal.ok) return matchFileError(legal.error.message, at);
    const played = playOf(position, action.dice, action.steps, this.validator);
    if (!played.ok) {
      const written = action.steps.map((s) => `${s.from}/${s.to}`).join(' ') || '(no move)';
      return matchFileError(
        `${action.dice.join('')}: ${written} is not a legal play: ${played.error.message}`,
        {
          ...at,
          ...(played.error.rule ? { rule: played.error.rule } : {}),
        },
      );
    }
    const turn = played.value;
    this.push({
      moveNumber: action.moveNumber,
      player: action.player,
      action: 'move',
      position,
      match: this.state(action.player, action.player, action.dice, false),
      dice: action.dice,
      turn,
      legalPlays: legal.value.turns.length,
      positionIdAfter: makeGnubgPositionId({
        turn: side === 'white' ? 'black' : 'white',
        board: flipBoard(turn.board),
      }),
    });
    this.actions.push({
      ...action,
      steps: turn.steps.map((s, i) => ({ from: s.from, to: s.to, ...(turn.hits[i] ? { hit: true } : {}) })),
    });
    if (turn.board[MOVER_OFF] === CHECKERS) {
      const cube = this.cube;
      this.ended = { winner: action.player, points: gamePoints(turn.board) * cube.value, resigned: false };
      // Jacoby (CUBE-5): in a money game, a gammon or backgammon counts single while the cube was never turned.
      if (this.record.length === 0 && this.record.jacoby && cube.owner === null)
        this.ended = { ...this.ended, points: cube.value };
    }
    this.position = turn.position;
    return null;
  }

  /** A double: before the roll, in turn, with access to the cube, never in the Crawford game (CUBE-2, CUBE-3, CUBE-6). */
  private double(action: Extract<RecordedAction, { kind: 'double' }>, at: ActionAt): MatchFileError | null {
    const position = this.position ?? initialShortPosition(sideOf(action.player));
    const problem = this.cubeAction('double', action.player, position.turn, at);
    if (problem) return problem;
    this.position = position;
    this.push({
      moveNumber: action.moveNumber,
      player: action.player,
      action: 'double',
      position,
      match: this.state(action.player, action.player, null, false),
    });
    this.actions.push(action);
    return null;
  }

  /** A take or drop: by the opponent of a waiting double (CUBE-3); a take turns the cube to him, a drop ends the game. */
  private answer(
    action: Extract<RecordedAction, { kind: 'take' | 'drop' }>,
    at: ActionAt,
  ): MatchFileError | null {
    const position = this.position;
    const doubler = this.pendingDouble;
    if (doubler === null || !position) {
      return matchFileError(`${action.kind === 'take' ? 'a take' : 'a drop'} with no double to answer`, {
        ...at,
        rule: 'CUBE-3',
      });
    }
    // The decision is seen with the cube before the answer.
    const match = this.state(doubler, action.player, null, true);
    const cubeBefore = this.cube;
    const problem = this.cubeAction(action.kind, action.player, position.turn, at);
    if (problem) return problem;
    this.decisions.push({
      moveNumber: action.moveNumber,
      player: action.player,
      action: action.kind,
      position,
      match,
      game: this.game.number,
      index: this.decisions.length,
      positionId: makeGnubgPositionId(position),
      matchId: makeMatchId(match),
      cube: cubeBefore,
    });
    this.actions.push(action);
    return null;
  }

  /**
   * The game as replayed, checked against the result the file writes; the
   * last game of a match still being played (a session's) may have none.
   */
  finish(
    lastGame: boolean,
  ): Result<{ game: ReplayedGame; recorded: RecordedGame; finalScore: [number, number] }, MatchFileError> {
    const { game, crawford, decisions, actions } = this;
    const last = game.actions.length > 0 ? game.actions[game.actions.length - 1].moveNumber : 0;
    const written = game.result;
    if (!this.ended && !written && lastGame) {
      // The last game of a match still being played (a session's): no result yet.
      return ok({
        game: {
          number: game.number,
          score: game.score,
          crawford,
          winner: null,
          points: 0,
          resigned: false,
          decisions,
        },
        recorded: { number: game.number, score: game.score, actions, result: null },
        finalScore: [game.score[0], game.score[1]],
      });
    }
    if (this.pendingDouble !== null)
      return err(matchFileError('the game ends with a double not answered', this.where(last)));
    const ended = this.endOf(written, last);
    if (!ended.ok) return ended;
    const { winner, points, resigned } = ended.value;
    const score: [number, number] = [game.score[0], game.score[1]];
    score[winner] += points;
    return ok({
      game: { number: game.number, score: game.score, crawford, winner, points, resigned, decisions },
      recorded: {
        number: game.number,
        score: game.score,
        actions,
        result: { winner, points, ...(resigned ? { resigned: true } : {}) },
      },
      finalScore: score,
    });
  }

  /** How the game ended: as played, or, when play did not end it, as the file writes (a resignation). */
  private endOf(written: RecordedResult | null, last: number): Result<GameEnd, MatchFileError> {
    const ended = this.ended;
    if (!ended) {
      if (!written)
        return err(
          matchFileError('the game has no result (no "Wins" line) and is not over', this.where(last)),
        );
      return ok({ winner: written.winner, points: written.points, resigned: true });
    }
    if (written && written.winner !== ended.winner) {
      return err(
        matchFileError(
          `the file says player ${written.winner} wins, but player ${ended.winner} won the game`,
          this.where(last),
        ),
      );
    }
    // The file's points stand (a .mat file may be read with another Jacoby setting than it was played with).
    if (written) return ok({ ...ended, points: written.points });
    return ok(ended);
  }
}

/** The side of a match player (player 0 is white). */
export function matchPlayerSide(player: MatchPlayer): Side {
  return sideOf(player);
}
