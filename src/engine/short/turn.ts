import { Dice, isDieValue } from '../dice';
import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { Side, otherSide } from '../side';
import { Step } from '../step';
import { BOARD_LENGTH, CHECKERS, MOVER_OFF, OPPONENT_OFF, ShortBoard, flipBoard } from './board';
import { ShortPosition } from './position';
import { ShortRules } from './rules';
import { ShortStageSolver } from './stage';

/** One legal play of a roll: a distinct resulting position (ALG-7) with its canonical steps. */
export interface ShortTurn {
  /** Canonical steps in the mover's own numbering (25 = bar, 0 = off). */
  readonly steps: readonly Step[];
  /** Per step: did it hit a blot (SH-MOVE-1)? */
  readonly hits: readonly boolean[];
  /**
   * Steps in the canonical list. For a won game it may be fewer than the
   * turns' `unitsUsed`: the rest of the roll is void once the 15th checker
   * is off (MAX-6).
   */
  readonly unitsUsed: number;
  /** The resulting board seen from the mover (see board.ts). */
  readonly board: ShortBoard;
  /** The resulting position: the opponent to move, or the mover if he has won. */
  readonly position: ShortPosition;
  readonly gameOver: boolean;
  readonly winner?: Side;
}

export interface ShortTurns {
  /**
   * M of ALG-5: the most units any play uses. As in gnubg, a play that wins
   * the game counts the units it actually used (MAX-6, see stage.ts).
   */
  readonly unitsUsed: number;
  readonly turns: readonly ShortTurn[];
}

/** Checks that the position can take a query: nobody has borne off all 15 yet. */
export function checkShortPlayable(position: ShortPosition): Result<true, RulesError> {
  const b = position.board;
  if (b[MOVER_OFF] === CHECKERS || b[OPPONENT_OFF] === CHECKERS) {
    return err(
      rulesError('GAME_OVER', 'the game is over: a side has borne off all 15 checkers', {
        field: 'position',
        rule: 'SH-SCORE-1',
      }),
    );
  }
  return ok(true);
}

/** Reads play k of a solved roll into a fresh `ShortTurn`. */
export function turnFromSolver(s: ShortStageSolver, k: number, mover: Side): ShortTurn {
  const n = s.playStepCount(k);
  const steps: Step[] = new Array<Step>(n);
  const hits: boolean[] = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    steps[i] = { from: s.playFrom(k, i), to: s.playTo(k, i) };
    hits[i] = s.playHit(k, i);
  }
  const board = s.playBoardInto(k, new Int8Array(BOARD_LENGTH));
  return turnOf(steps, hits, board, mover);
}

/** Assembles a turn from its steps and resulting board (seen from `mover`). */
export function turnOf(steps: Step[], hits: boolean[], board: ShortBoard, mover: Side): ShortTurn {
  const gameOver = board[MOVER_OFF] === CHECKERS;
  if (gameOver) {
    return {
      steps,
      hits,
      unitsUsed: steps.length,
      board,
      position: { turn: mover, board },
      gameOver,
      winner: mover,
    };
  }
  return {
    steps,
    hits,
    unitsUsed: steps.length,
    board,
    position: { turn: otherSide(mover), board: flipBoard(board) },
    gameOver,
  };
}

/**
 * Every legal play of `dice` in `position`, one per distinct resulting
 * position (ALG-7; the opponent's checkers count, so plays that differ by a
 * hit are different), each with its canonical steps and per-step hits. When
 * nothing can be played there is exactly one entry with no steps and the
 * turn passes (MAX-5). `solver` is the caller's scratch: loops that query
 * many positions pass one they own instead of allocating one a call.
 */
export function legalShortTurns(
  rules: ShortRules,
  position: ShortPosition,
  dice: Dice,
  solver: ShortStageSolver = new ShortStageSolver(),
): Result<ShortTurns, RulesError> {
  const query = checkShortQuery(rules, position, dice);
  if (!query.ok) return query;
  const count = solver.solve(position.board, dice[0], dice[1]);
  const unitsUsed = solver.maxUnits;
  const turns: ShortTurn[] = new Array<ShortTurn>(count);
  for (let k = 0; k < count; k++) turns[k] = turnFromSolver(solver, k, position.turn);
  return ok({ unitsUsed, turns });
}

/** Checks what every query needs before the rules apply: short-family rules, dice 1..6, a game still running. */
export function checkShortQuery(
  rules: ShortRules,
  position: ShortPosition,
  dice: Dice,
): Result<true, RulesError> {
  if (rules.family !== 'short')
    return err(rulesError('INVALID_RULES', 'these rules are not of the short family', { field: 'rules' }));
  if (!Array.isArray(dice) || dice.length !== 2 || !isDieValue(dice[0]) || !isDieValue(dice[1])) {
    return err(rulesError('INVALID_DICE', 'dice must be two integers in 1..6', { field: 'dice' }));
  }
  return checkShortPlayable(position);
}
