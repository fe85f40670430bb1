import { Dice } from '../../engine/dice';
import { EvaluateRequest } from '../../contract/requests';
import { BestMovesQuery } from '../analysis/engine';
import { AnalysisCaller, AnalysisService } from '../analysis/service';
import { BestMovesView, CubeDecisionView, RankedTurnView } from '../analysis/views';
import { valueOf } from '../cache';
import { fail } from '../errors';
import { CubeJudgementAction, ROLLS, Tally, cubeDecisionOf, cubeReport, emptyTally } from './report';
import { judgedPlayReport, judgePlay, luckOver, playerReport, rollsOf, round, withCancellation } from './report';
import { AnalysisHooks, DecisionReport, MatchAnalysisOptions, MatchAnalysisPlan, MatchReport } from './types';

/*
 * Whole-match analysis of either family as one pipeline: the family's
 * reader replays the file and reads its decisions (a play, a cube action,
 * a no-double before a roll), each with the family's own record `X` of it;
 * the one judge below asks the analysis service about each decision through
 * the reader's requests, values each ranked play with the reader's
 * equity, and tallies each player (docs/match-files.md, "Analysis").
 */

/** A decision's kind: a play, or a cube action (a no-double before a roll included). */
export type DecisionKind = 'play' | 'no-double' | 'double' | 'take' | 'drop' | 'beaver' | 'raccoon';

/** A player of the file: 0 the first named (White), 1 the second. */
export type PlayerIndex = 0 | 1;

/** A play as the reader saw it. */
export interface PlayRead {
  /** The play made, in the family's notation ("no play" when nothing could be played). */
  readonly played: string;
  /** The position ID after it; null when nothing was played. */
  readonly positionIdAfter: string | null;
  /** Ranked among the stage's legal plays (not forced, and valued by the evaluator). */
  readonly ranked: boolean;
  /** Legal plays of the stage (prices the luck). */
  readonly legalPlays: number;
  /** The roll whose luck the play carries (the rolls it is drawn from: every roll, or an opening's non-doubles); null: none. */
  readonly luck: { readonly dice: Dice; readonly opening: boolean } | null;
  /** The family's report fields of the play before the judgement, and after it. */
  readonly lead: Readonly<Record<string, unknown>>;
  readonly trail: Readonly<Record<string, unknown>>;
}

/** What every report entry of a decision says of where it was taken, and the family's own fields. */
export type DecisionFields = Pick<DecisionReport, 'moveNumber' | 'dice' | 'positionId' | 'matchId'> & Readonly<Record<string, unknown>>;

/** One decision read off the replay, with its family's record `X` of it. */
export interface MatchDecision<X> {
  readonly kind: DecisionKind;
  readonly game: number;
  readonly player: PlayerIndex;
  readonly source: X;
  /** The report fields every entry of it starts with, after `kind` and `player` (move number, dice, position and match IDs, game, …). */
  readonly fields: DecisionFields;
  /** For a play. */
  readonly play?: PlayRead;
}

/** A game of the report: its number, the winner's player index, and the family's fields before and after the winner. */
export interface GameRead {
  readonly number: number;
  readonly winner: PlayerIndex | null;
  readonly lead: Readonly<Record<string, unknown>>;
  readonly trail: Readonly<Record<string, unknown>>;
}

/** A match file read by its family's reader: its decisions, and how to ask about them and value their plays. */
export interface MatchReader<X> {
  /** The players as the file names them. */
  readonly players: readonly [string, string];
  readonly decisions: readonly MatchDecision<X>[];
  readonly games: readonly GameRead[];
  /** The report's fields before `plies` (match length, final score or variant). */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The units of `equityLoss` and `luck`. */
  readonly units: string;
  /**
   * The ranking of a play's stage: with the dice `dice` (the decision's own when not given), at `plies`, the
   * best `limit`; the play leading to `keep` (a position ID after it) searched at the full depth.
   */
  best(x: X, plies: number, dice?: Dice, limit?: number, keep?: string): BestMovesQuery;
  /** The cube decision before a no-double or double (evaluated with the cube and score). */
  cube(x: X, plies: number): EvaluateRequest;
  /** The mover's equity after a ranked play, in the report's units. */
  equityAfter(x: X, turn: RankedTurnView): number;
  /** Report fields a ranked play adds from its ranking (after the play's `trail`). */
  rankedFields?(ranking: BestMovesView): Readonly<Record<string, unknown>>;
  /**
   * An opening whose roll-off the other player could have won: the same decision with him on roll (his
   * equities in his own terms), for the luck of the roll-off. Absent: an opening's luck is over the
   * mover's own rolls only.
   */
  rollOffRival?(x: X): X;
}

/** The player names of the report: two players of the same name are told apart by their index. */
export function playerNames(players: readonly [string, string]): [string, string] {
  const [a, b] = players;
  return a === b ? [`${a} (0)`, `${b} (1)`] : [a, b];
}

/** Plans the analysis of a match read by its family's reader: the entries the report will hold and their estimated network evaluations. */
export function planDecisions<X>(
  reader: MatchReader<X>,
  options: MatchAnalysisOptions,
  analysis: AnalysisService,
): MatchAnalysisPlan {
  const plies = options.plies;
  let cost = 0;
  for (const d of reader.decisions) {
    if (d.play) {
      if (d.play.ranked) cost += analysis.cost('best', reader.best(d.source, plies, undefined, undefined, d.play.positionIdAfter ?? undefined));
      // Luck: every roll at 0 plies (an opening's roll-off: its rolls, for either player when the reader says so).
      if (d.play.luck) {
        const rolls = d.play.luck.opening ? rollsOf(true).length * (reader.rollOffRival ? 2 : 1) : ROLLS.length;
        cost += rolls * Math.max(1, d.play.legalPlays);
      }
    } else if (d.kind === 'no-double' || d.kind === 'double') {
      cost += analysis.cost('evaluate', reader.cube(d.source, plies));
    }
  }
  return {
    decisions: reader.decisions.length,
    cost,
    run: (hooks) => withCancellation(hooks, (caller) => judgeAll(reader, plies, analysis, hooks, caller)),
  };
}

async function judgeAll<X>(
  reader: MatchReader<X>,
  plies: number,
  analysis: AnalysisService,
  hooks: AnalysisHooks,
  caller: AnalysisCaller,
): Promise<MatchReport> {
  const judge = new Judge(reader, plies, analysis, caller);
  const games = new Map<number, DecisionReport[]>(reader.games.map((g) => [g.number, []]));
  const total = reader.decisions.length;
  let done = 0;
  for (const d of reader.decisions) {
    if (hooks.aborted()) fail('ANALYSIS_CANCELLED', 'the match analysis was cancelled');
    const list = games.get(d.game) as DecisionReport[];
    list.push(d.play ? await judge.play(d, d.play) : await judge.cube(d));
    done++;
    hooks.progress(done, total);
  }
  return judge.report(games);
}

/**
 * The judge of every family: judges a match's decisions in order, tallying
 * each player's. A play ranked among others loses its equity against the
 * best; a no-double and a double are judged by the cube decision of the
 * doubler's position; a take, drop or beaver by the double it answers.
 */
class Judge<X> {
  private readonly names: [string, string];
  private readonly tallies: [Tally, Tally] = [emptyTally(), emptyTally()];
  private lastDouble: CubeDecisionView | null = null;

  constructor(
    private readonly reader: MatchReader<X>,
    private readonly plies: number,
    private readonly analysis: AnalysisService,
    private readonly caller: AnalysisCaller,
  ) {
    this.names = playerNames(reader.players);
  }

  private base(d: MatchDecision<X>, kind: 'move' | 'cube') {
    return { kind, player: this.names[d.player], ...d.fields };
  }

  private async evaluateCube(d: MatchDecision<X>): Promise<CubeDecisionView> {
    return cubeDecisionOf(valueOf(await this.analysis.evaluate(this.reader.cube(d.source, this.plies), this.caller)));
  }

  /** A play: ranked when it had a choice, forced otherwise; then the luck of its roll. */
  async play(d: MatchDecision<X>, p: PlayRead): Promise<DecisionReport> {
    const tally = this.tallies[d.player];
    tally.moves++;
    const head = { ...this.base(d, 'move'), ...p.lead, played: p.played };
    let report: DecisionReport;
    if (p.ranked && p.positionIdAfter !== null) {
      // The play made is searched at the full depth beside the best, as gnubg's analysis keeps it.
      const request = this.reader.best(d.source, this.plies, undefined, undefined, p.positionIdAfter);
      const ranking: BestMovesView = valueOf(await this.analysis.bestMoves(request, this.caller));
      const j = judgePlay(ranking.turns, (t) => this.reader.equityAfter(d.source, t), p.positionIdAfter);
      report = {
        ...head,
        ...judgedPlayReport(tally, j, ranking.evaluator.plies),
        ...p.trail,
        ...(this.reader.rankedFields ? this.reader.rankedFields(ranking) : {}),
      };
    } else {
      report = { ...head, best: p.played, equityLoss: 0, unforced: false, skill: null, ...p.trail };
    }
    let luck = 0;
    if (p.luck) {
      // A player's equity after the best play of a roll at 0 plies, in his own terms.
      const after = (x: X) => async (dice: Dice) => {
        const ranking = valueOf(await this.analysis.bestMoves(this.reader.best(x, 0, dice, 1), this.caller));
        const top = ranking.turns[0];
        return top ? this.reader.equityAfter(x, top) : 0;
      };
      const rival = p.luck.opening && this.reader.rollOffRival ? this.reader.rollOffRival(d.source) : null;
      luck = await luckOver(rollsOf(p.luck.opening), p.luck.dice, after(d.source), rival ? async (dice) => -(await after(rival)(dice)) : undefined);
      tally.luck += luck;
    }
    return { ...report, luck: round(luck) };
  }

  /** A cube decision: a no-double or a double valued on its own, an answer by the double it answers. */
  async cube(d: MatchDecision<X>): Promise<DecisionReport> {
    const tally = this.tallies[d.player];
    const entry = (action: CubeJudgementAction, cube: CubeDecisionView, played: string = action) => ({
      ...this.base(d, 'cube'),
      ...cubeReport(tally, action, cube, played),
    });
    switch (d.kind) {
      case 'no-double':
        return entry('no-double', await this.evaluateCube(d));
      case 'double':
        this.lastDouble = await this.evaluateCube(d);
        return entry('double', this.lastDouble);
      case 'take':
      case 'drop':
      case 'beaver':
        if (this.lastDouble) {
          const cube: CubeDecisionView = this.lastDouble;
          // A beaver is a take that redoubles at once (CUBE-5): judged as the take; the answer to it is not.
          this.lastDouble = null;
          return entry(d.kind === 'beaver' ? 'take' : d.kind, cube, d.kind);
        }
        break;
      default:
        break;
    }
    // A raccoon, or the answer to a beaver: redoubles the cube decision does not price.
    return { ...this.base(d, 'cube'), played: d.kind, best: d.kind, equityLoss: 0, close: false, skill: null, judged: false };
  }

  /** The match report: each player's tally and each game's decisions. */
  report(games: ReadonlyMap<number, DecisionReport[]>): MatchReport {
    const { reader, names, tallies } = this;
    return {
      players: { [names[0]]: playerReport(tallies[0]), [names[1]]: playerReport(tallies[1]) },
      games: reader.games.map((g) => ({
        number: g.number,
        ...g.lead,
        winner: g.winner === null ? null : names[g.winner],
        ...g.trail,
        decisions: games.get(g.number) ?? [],
      })),
      ...reader.meta,
      plies: this.plies,
      evaluator: this.analysis.kind,
      units: reader.units,
    };
  }
}
