import { Dice } from '../../engine/dice';
import { BestMovesRequest, EvaluateRequest } from '../../contract/requests';
import { makeGnubgNotation } from '../../engine/short/gnubg-notation';
import { makeMatchId, parseGnubgPositionId } from '../../engine/short/gnubg-id';
import {
  MatchPlayer,
  ReplayedDecision,
  ReplayedGame,
  ReplayedMatch,
  matchPlayerSide,
} from '../../engine/short/match-record';
import { Side } from '../../engine/side';
import { shortCubeEfficiency } from '../../eval/analysis';
import { CubeOwner } from '../../eval/cube/decision';
import { STANDARD_VALUES } from '../../eval/equity';
import { AnalysisCaller, AnalysisService } from '../analysis/service';
import { BestMovesView, CubeDecisionView, RankedTurnView } from '../analysis/views';
import { valueOf } from '../cache';
import { fail } from '../errors';
import { importMatchFile } from './files';
import { isLongMatchText, planLongMatchAnalysis } from './long-analysis';
import { CubeJudgementAction, ROLLS, Situation, Tally, cubeDecisionOf } from './report';
import { cubeReport, emptyTally, judgedPlayReport, judgePlay, luckOver, playEquity } from './report';
import { playerReport, rollsOf, round, withCancellation } from './report';
import {
  AnalysisHooks,
  DecisionReport,
  MatchAnalysisOptions,
  MatchAnalysisPlan,
  MatchReport,
  PlanMatchAnalysis,
} from './types';

export { SKILL_THRESHOLDS, playEquity, ratingLabel } from './report';

/*
 * Whole-match analysis of a backgammon match, decision by decision, in
 * gnubg's terms (see docs/match-files.md, "Analysis"):
 * - a chequer play: every legal play ranked at the requested plies, each
 *   valued as the mover's cubeful equity after it (money: per unit of the
 *   cube; match: EMG, the match winning chances rescaled so that losing /
 *   winning a single game at the current cube is −1 / +1, through our match
 *   equity table); the loss is best − played;
 * - a cube decision (every roll where the player could double, every double,
 *   take and drop): the cube decision of the doubler's position, and the
 *   loss of the action taken against the right one;
 * - luck: the mover's equity after the best play of the roll he got, minus
 *   its average over the 36 rolls (0 plies, as gnubg);
 * - per player: gnubg's error rate (mEMG per unforced move or close cube
 *   decision), doubtful / error / blunder counts (gnubg's 0.03 / 0.06 / 0.12),
 *   luck, and an XG-style performance rating (500 × the mean error).
 * Every search goes through the public AnalysisService, so it runs in the
 * worker pool with its cost model and budgets.
 */

const VARIANT = 'backgammon';

function situationOf(d: ReplayedDecision, match: ReplayedMatch, actor: MatchPlayer): Situation {
  const other: MatchPlayer = actor === 0 ? 1 : 0;
  const score = [d.match.score[matchPlayerSide(actor)], d.match.score[matchPlayerSide(other)]] as const;
  const owner: CubeOwner = d.cube.owner === null ? 'centre' : d.cube.owner === actor ? 'mover' : 'opponent';
  return {
    kind: match.record.length === 0 ? 'money' : 'match',
    value: d.cube.value,
    owner,
    jacoby: match.record.jacoby === true,
    length: match.record.length,
    score,
    crawford: d.match.crawford,
  };
}

/** The cube decision an evaluation request needs: position, dice-less match ID, cube and score. */
function cubeRequest(
  d: ReplayedDecision,
  match: ReplayedMatch,
  doubler: MatchPlayer,
  plies: number,
): EvaluateRequest {
  const length = match.record.length;
  const score = { white: d.match.score.white, black: d.match.score.black };
  const atMatchPoint = length > 0 && (score.white === length - 1 || score.black === length - 1);
  const side: Side = matchPlayerSide(doubler);
  return {
    variant: VARIANT,
    positionId: d.positionId,
    matchId: makeMatchId({ ...d.match, dice: null, onRoll: side, turn: side, doubleOffered: false }),
    plies,
    cube: { value: d.cube.value, owner: d.cube.owner === null ? 'center' : matchPlayerSide(d.cube.owner) },
    ...(length > 0
      ? {
          match: {
            length,
            score,
            nextGameIsCrawford: d.match.crawford,
            crawfordPlayed: atMatchPoint && !d.match.crawford,
          },
        }
      : match.record.jacoby
        ? { rules: { jacoby: true } }
        : {}),
  };
}

function bestRequest(
  d: ReplayedDecision,
  plies: number,
  dice?: Dice,
  limit?: number,
): BestMovesRequest {
  const matchId = dice ? makeMatchId({ ...d.match, dice }) : d.matchId;
  return { variant: VARIANT, positionId: d.positionId, matchId, plies, ...(limit ? { limit } : {}) };
}

/** The mover's cubeful equity after a play, with the cube efficiency of the position it leaves (the opponent on roll). */
function equityAfter(t: RankedTurnView, situation: Situation): number {
  const after = parseGnubgPositionId(t.positionId, 'white');
  return playEquity(t.probabilities, situation, STANDARD_VALUES, after.ok ? shortCubeEfficiency(after.value.board) : undefined);
}

/** Can the mover double before this roll, with a cube that still matters (gnubg analyses only those)? */
function cubeOpenBeforeRoll(d: ReplayedDecision, game: ReplayedGame, match: ReplayedMatch): boolean {
  if (d.index === 0 || d.match.crawford) return false;
  if (d.cube.owner !== null && d.cube.owner !== d.player) return false;
  if (match.record.length > 0) {
    const away = match.record.length - d.match.score[matchPlayerSide(d.player)];
    if (away <= d.cube.value) return false;
  }
  // The move right after his own double and the take: the double was the decision.
  const previous = game.decisions[d.index - 1];
  return !(previous && previous.action === 'take');
}

/** What one record adds to the report: its entries (a move record may carry a cube decision before the roll). */
interface Step {
  readonly game: ReplayedGame;
  readonly decision: ReplayedDecision;
  readonly cubeBeforeRoll: boolean;
}

function playerNames(match: ReplayedMatch): [string, string] {
  const [a, b] = match.record.players;
  return a === b ? [`${a} (0)`, `${b} (1)`] : [a, b];
}

/**
 * Reads a match file, checks every move (400 INVALID_MATCH_FILE naming the
 * game and the move), and plans its analysis: the entries the report will
 * hold and the estimated network evaluations of the whole run.
 */
export const planMatchAnalysis: PlanMatchAnalysis = (file, options, analysis) => {
  // A long-family file (its Variation tag names a long preset) is read in the long-nardy dialect.
  if (file.format === 'mat' && isLongMatchText(file.text))
    return planLongMatchAnalysis(file.text, options, analysis);
  const match = importMatchFile(file, { jacoby: options.jacoby });
  return planReplayedMatch(match, options, analysis);
};

/** `planMatchAnalysis` of a match already read (a session's, or a file's). */
export function planReplayedMatch(
  match: ReplayedMatch,
  options: MatchAnalysisOptions,
  analysis: AnalysisService,
): MatchAnalysisPlan {
  const plies = options.plies;
  const steps: Step[] = [];
  let entries = 0;
  let cost = 0;
  for (const game of match.games) {
    for (const decision of game.decisions) {
      const cubeBeforeRoll = decision.action === 'move' && cubeOpenBeforeRoll(decision, game, match);
      steps.push({ game, decision, cubeBeforeRoll });
      if (decision.action === 'move') {
        entries += cubeBeforeRoll ? 2 : 1;
        const legal = decision.legalPlays ?? 1;
        if (legal > 1) cost += analysis.cost('best', bestRequest(decision, plies));
        cost += ROLLS.length * Math.max(1, legal); // luck: every roll at 0 plies
        if (cubeBeforeRoll)
          cost += analysis.cost('evaluate', cubeRequest(decision, match, decision.player, plies));
      } else {
        entries++;
        if (decision.action === 'double')
          cost += analysis.cost('evaluate', cubeRequest(decision, match, decision.player, plies));
      }
    }
  }
  return {
    decisions: entries,
    cost,
    run: (hooks) =>
      withCancellation(hooks, (caller) =>
        analyseSteps(match, steps, entries, plies, analysis, hooks, caller),
      ),
  };
}

async function analyseSteps(
  match: ReplayedMatch,
  steps: readonly Step[],
  total: number,
  plies: number,
  analysis: AnalysisService,
  hooks: AnalysisHooks,
  caller: AnalysisCaller,
): Promise<MatchReport> {
  const judge = new ShortJudge(match, plies, analysis, caller);
  const games = new Map<number, DecisionReport[]>(match.games.map((g) => [g.number, []]));
  let done = 0;
  const progress = (): void => hooks.progress(done, total);
  const checkAborted = (): void => {
    if (hooks.aborted()) fail('ANALYSIS_CANCELLED', 'the match analysis was cancelled');
  };
  for (const step of steps) {
    checkAborted();
    const d = step.decision;
    const list = games.get(d.game) as DecisionReport[];
    if (d.action === 'move') {
      const situation = situationOf(d, match, d.player);
      if (step.cubeBeforeRoll) {
        // The cube decision before the roll is an entry of its own, counted and cancellable on its own.
        list.push(await judge.noDouble(d));
        done++;
        progress();
        checkAborted();
      }
      list.push(await judge.play(step, situation));
    } else {
      list.push(await judge.answerOrDouble(d, d.action));
    }
    done++;
    progress();
  }
  return judge.report(games);
}

/** Judges a match's decisions in order, tallying each player's (a take or drop is judged by the double before it). */
class ShortJudge {
  private readonly names: [string, string];
  private readonly tallies: [Tally, Tally] = [emptyTally(), emptyTally()];
  private lastDouble: CubeDecisionView | null = null;

  constructor(
    private readonly match: ReplayedMatch,
    private readonly plies: number,
    private readonly analysis: AnalysisService,
    private readonly caller: AnalysisCaller,
  ) {
    this.names = playerNames(match);
  }

  private base(d: ReplayedDecision, kind: 'move' | 'cube') {
    return {
      kind,
      player: this.names[d.player],
      moveNumber: d.moveNumber,
      dice: d.dice ? ([d.dice[0], d.dice[1]] as const) : null,
      positionId: d.positionId,
      matchId: d.matchId,
      game: d.game,
      index: d.index,
    };
  }

  private cubeEntry(d: ReplayedDecision, action: CubeJudgementAction, cube: CubeDecisionView) {
    return {
      ...this.base(d, 'cube'),
      ...cubeReport(this.tallies[d.player], action, cube),
    };
  }

  private async evaluateCube(d: ReplayedDecision): Promise<CubeDecisionView> {
    const request = cubeRequest(d, this.match, d.player, this.plies);
    return cubeDecisionOf(valueOf(await this.analysis.evaluate(request, this.caller)));
  }

  /** The mover's choice not to double before his roll: judged without the dice he then rolled. */
  async noDouble(d: ReplayedDecision): Promise<DecisionReport> {
    return {
      ...this.cubeEntry(d, 'no-double', await this.evaluateCube(d)),
      dice: null,
      matchId: makeMatchId({ ...d.match, dice: null }),
    };
  }

  /** A double, valued on its own; a take or drop, by the double it answers. */
  async answerOrDouble(d: ReplayedDecision, action: 'double' | 'take' | 'drop'): Promise<DecisionReport> {
    if (action === 'double') {
      this.lastDouble = await this.evaluateCube(d);
      return this.cubeEntry(d, 'double', this.lastDouble);
    }
    if (!this.lastDouble) throw new Error('a take or drop with no double before it');
    return this.cubeEntry(d, action, this.lastDouble);
  }

  /** A chequer play: ranked when it had a choice, forced otherwise; then the luck of its roll. */
  async play(step: Step, situation: Situation): Promise<DecisionReport> {
    const d = step.decision;
    const tally = this.tallies[d.player];
    const turn = d.turn;
    if (!turn || !d.dice) throw new Error('a replayed move without its turn');
    const playedText = makeGnubgNotation(turn.steps, turn.hits);
    tally.moves++;
    let report: DecisionReport;
    if ((d.legalPlays ?? 1) > 1) {
      const ranked: BestMovesView = valueOf(
        await this.analysis.bestMoves(bestRequest(d, this.plies), this.caller),
      );
      const j = judgePlay(ranked.turns, (t) => equityAfter(t, situation), d.positionIdAfter ?? '');
      report = {
        ...this.base(d, 'move'),
        played: playedText,
        ...judgedPlayReport(tally, j, ranked.evaluator.plies),
        playedPositionIdAfter: d.positionIdAfter,
        cubelessBestPositionIdAfter: ranked.turns[0]?.positionId,
        legalPlays: d.legalPlays,
      };
    } else {
      report = {
        ...this.base(d, 'move'),
        played: playedText,
        best: playedText,
        equityLoss: 0,
        unforced: false,
        skill: null,
        playedPositionIdAfter: d.positionIdAfter,
        legalPlays: d.legalPlays,
      };
    }
    // The opening roll of a game is never a double (SH-START-1).
    const opening = d.index === 0 || step.game.decisions.slice(0, d.index).every((x) => x.action !== 'move');
    const luck = await luckOver(rollsOf(opening), d.dice, async (dice) => {
      const ranked = valueOf(await this.analysis.bestMoves(bestRequest(d, 0, dice, 1), this.caller));
      const top = ranked.turns[0];
      return top ? equityAfter(top, situation) : 0;
    });
    tally.luck += luck;
    return { ...report, luck: round(luck) };
  }

  /** The match report: each player's tally and each game's decisions. */
  report(games: ReadonlyMap<number, DecisionReport[]>): MatchReport {
    const { match, names, tallies } = this;
    return {
      players: { [names[0]]: playerReport(tallies[0]), [names[1]]: playerReport(tallies[1]) },
      games: match.games.map((g) => ({
        number: g.number,
        score: g.score,
        crawford: g.crawford,
        winner: g.winner === null ? null : names[g.winner],
        points: g.points,
        resigned: g.resigned,
        decisions: games.get(g.number) ?? [],
      })),
      matchLength: match.record.length,
      finalScore: match.finalScore,
      plies: this.plies,
      evaluator: this.analysis.kind,
      units:
        match.record.length === 0
          ? 'money equity per unit of the cube'
          : 'EMG (match winning chances rescaled to a single game at the cube)',
    };
  }
}
