import { DistinctRoll } from '../../engine/dice';
import { ShortStageSolver } from '../../engine/short/stage';
import { Step } from '../../engine/step';
import { ShortTurn } from '../../engine/short/turn';
import { OutcomeValues, STANDARD_VALUES } from '../equity';
import { Evaluator } from '../evaluator';
import { Probabilities, probabilitiesAt } from '../probabilities';
import { BoardSearch, OUTPUTS, PlayGenerator, SearchBoards } from '../search';
import { MoveFilter, POSITION_INNER_FILTER, SearchSettings } from '../search-options';
import { TranspositionTable } from '../transpositions';
import { shortTerminalInto } from './terminal';

const BOARD = 28;

/** One legal turn of a roll with its evaluation, best first. */
export interface RankedShortTurn extends Pick<ShortTurn, 'steps' | 'hits' | 'board'> {
  /** Outcome probabilities **for the mover** after this turn (the opponent to roll). */
  readonly probabilities: Probabilities;
  /** Cubeless equity for the mover. */
  readonly equity: number;
  /** Equity minus the best turn's equity (0 for the best, negative otherwise). */
  readonly equityDiff: number;
  /** The depth this turn was searched at (filtered-out turns keep 0). */
  readonly plies: number;
}

/** The backgammon move generator as the search's `PlayGenerator`. */
class ShortPlays implements PlayGenerator {
  readonly solver = new ShortStageSolver();

  solve(board: Int8Array, roll: DistinctRoll): number {
    return this.solver.solve(board, roll.dice[0], roll.dice[1]);
  }

  playBoardInto(k: number, out: Int8Array, at: number): void {
    this.solver.playBoardInto(k, out, at);
  }

  playBoards(): Int8Array | null {
    return this.solver.playBoards();
  }
}

function flipShortInto(board: Int8Array, base: number, out: Int8Array): void {
  for (let p = 1; p <= 24; p++) out[25 - p] = -board[base + p];
  out[0] = board[base + 27];
  out[27] = board[base];
  out[25] = board[base + 26];
  out[26] = board[base + 25];
}

/** Backgammon boards (board.ts: 28 slots, bars at 25 / 26); a won game has its exact value (SH-SCORE-1…3). */
const SHORT_BOARDS: SearchBoards = {
  boardLength: BOARD,
  generator: () => new ShortPlays(),
  flipInto: flipShortInto,
  terminalInto: shortTerminalInto,
};

/**
 * n-ply expectimax for backgammon on top of any short-family evaluator
 * (search.ts). Reusable, not re-entrant.
 */
export class ShortSearch extends BoardSearch {
  private readonly root = new ShortPlays();

  constructor(evaluator: Evaluator, values: OutcomeValues = STANDARD_VALUES, table?: TranspositionTable) {
    if (evaluator.family !== 'short') throw new RangeError('ShortSearch needs a short-family evaluator');
    super(SHORT_BOARDS, evaluator, values, table);
  }

  /**
   * Probabilities of the side to move in `board` (before rolling) at
   * `plies`, written into `out[offset …]`.
   */
  evaluatePosition(board: Int8Array, plies: number, out: Float64Array, offset = 0, inner: MoveFilter = POSITION_INNER_FILTER): void {
    this.begin(plies, inner);
    this.positionValue(board, plies, 0, out, offset);
  }

  /** The same, as fresh probabilities. */
  evaluate(board: Int8Array, plies: number, inner?: MoveFilter): Probabilities {
    const out = new Float64Array(OUTPUTS);
    this.evaluatePosition(board, plies, out, 0, inner);
    return probabilitiesAt(out, 0);
  }

  /**
   * Every legal turn of `dice` in `board` (seen from the side to move),
   * ranked by equity at `settings.plies` with the root filter; the others
   * keep their 0-ply values and rank below the searched ones when worse.
   * The turn `keep` accepts (if any) is searched at `settings.plies` whatever
   * the filters say (a play made, valued beside the best).
   */
  rankTurns(
    board: Int8Array,
    dice: readonly [number, number],
    settings: SearchSettings,
    keep?: (steps: readonly Step[]) => boolean,
  ): RankedShortTurn[] {
    const solver = this.root.solver;
    const n = solver.solve(board, dice[0], dice[1]);
    const boards = new Int8Array(n * BOARD);
    for (let k = 0; k < n; k++) solver.playBoardInto(k, boards.subarray(k * BOARD, (k + 1) * BOARD));
    const stepsOf = (k: number): { steps: Step[]; hits: boolean[] } => {
      const count = solver.playStepCount(k);
      const steps: Step[] = [];
      const hits: boolean[] = [];
      for (let s = 0; s < count; s++) {
        steps.push({ from: solver.playFrom(k, s), to: solver.playTo(k, s) });
        hits.push(solver.playHit(k, s));
      }
      return { steps, hits };
    };
    let kept = -1;
    for (let k = 0; keep && k < n && kept < 0; k++) if (keep(stepsOf(k).steps)) kept = k;
    const ranked = this.rankCandidates(
      n,
      settings,
      (k, plies, out, offset) => this.afterPlay(boards, k * BOARD, null, plies, 0, out, offset),
      kept,
    );
    const { probs, equities, plies, order } = ranked;
    const best = equities[order[0]];
    return order.map((k) => {
      const { steps, hits } = stepsOf(k);
      return {
        steps,
        hits,
        board: boards.slice(k * BOARD, (k + 1) * BOARD),
        probabilities: probabilitiesAt(probs, k * OUTPUTS),
        equity: equities[k],
        equityDiff: equities[k] - best,
        plies: plies[k],
      };
    });
  }
}
