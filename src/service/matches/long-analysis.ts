import { Dice } from '../../engine/dice';
import { parseLongPositionId } from '../../engine/long/position-id';
import { CubeConfig, CubeState } from '../../engine/scoring/cube';
import { MatchState } from '../../engine/scoring/match';
import { Side, otherSide } from '../../engine/side';
import { CubeOwner } from '../../eval/cube/decision';
import { OutcomeValues, cubelessEquity, longOutcomeValues } from '../../eval/equity';
import { AnalysisCaller, AnalysisService } from '../analysis/service';
import { BestMovesView, CubeDecisionView, RankedTurnView } from '../analysis/views';
import { valueOf } from '../cache';
import { fail } from '../errors';
import { Working, allowedActions } from '../sessions/flow';
import { HistoryEvent } from '../sessions/record';
import { LONG_VARIATIONS, LongReplayAction, replayLongMatch } from './long';
import {
  ROLLS,
  Situation,
  Tally,
  CubeJudgementAction,
  checkPlies,
  cubeDecisionOf,
  cubeReport,
  emptyTally,
  judgePlay,
  luckOver,
  ownEquity,
  playEquity,
  playerReport,
  rollsOf,
  round,
  tallyPlay,
  withCancellation,
} from './report';
import { AnalysisHooks, DecisionReport, MatchAnalysisOptions, MatchAnalysisPlan, MatchReport } from './types';

/*
 * Whole-match analysis of long nardy and its variants (docs/match-files.md,
 * "Analysis of long nardy"), in the same report as backgammon's. A file in
 * the long-nardy dialect is replayed through the session flow (long.ts);
 * the decisions are read off the flow as it goes:
 * - a play: every line that plays a stage — a roll, a re-roll (TM-5), a
 *   cascade stage (CR-1, CG-1) or a debt stage (TM-3, TM-4) — is one
 *   decision of its player, ranked among the legal plays of that stage
 *   with the preset's network; a stage with one legal play or none is
 *   forced, and LN-SCORE-6's last roll is not judged (the evaluator does
 *   not value a position whose opponent has already borne off);
 * - a cube decision where the preset is played with the cube (LN-SCORE-5,
 *   never in Fevga / Giul, CUBE-7): every roll before which the player could
 *   double (the flow's own CUBE-2 / CUBE-6 check), every double, take and drop;
 * - luck: a rolled stage's, over the 21 rolls (the roll-off's 15 non-doubles
 *   when the first mover plays the roll-off dice, LN-START-2); a cascade or
 *   debt stage is part of the roll that started it.
 * A play is valued as the mover's cubeful equity after it: with the
 * opponent to act next, his right cube action (as backgammon); with the
 * mover to act again (the next stage of a cascade, a re-roll), no double,
 * or his right action when he rolls next (after paying a debt). Without a
 * cube, the cubeless equity. Equities are in single games (a plain win =
 * +1; Khachapuri's per-checker points are divided by its single-loss value).
 */

type EntryKind = 'play' | 'no-double' | 'double' | 'take' | 'drop' | 'beaver' | 'raccoon';

/** One decision as read off the replay. */
interface Entry {
  readonly kind: EntryKind;
  readonly game: number;
  /** The file's `N)` line. */
  readonly moveNumber: number;
  readonly seat: Side;
  /** Our long-family position ID before the decision (pending stages included). */
  readonly positionId: string;
  readonly dice: Dice | null;
  /** How the dice came: rolled for this line, the roll-off's (an opening, never a double), or none (a stage the rules give). */
  readonly roll: 'roll' | 'roll-off' | null;
  /** The stage played: roll, reroll, cascade, debt. */
  readonly stage: string | null;
  /** The play made (null: nothing could be played). */
  readonly played: { readonly notation: string; readonly positionIdAfter: string } | null;
  readonly legalPlays: number;
  readonly lastRoll: boolean;
  /** Before the action. */
  readonly cube: CubeState | null;
  readonly match: MatchState | null;
}

/** The match, replayed, with its decisions. */
interface LongMatch {
  readonly variant: string;
  readonly overrides: unknown;
  readonly values: OutcomeValues;
  readonly cubeConfig: CubeConfig;
  readonly length: number;
  readonly players: readonly [string, string];
  readonly entries: readonly Entry[];
  readonly games: readonly {
    number: number;
    score: readonly [number, number];
    winner: Side | null;
    points: number;
    result: string;
  }[];
}

/** Is this `.mat` text in the long-nardy dialect (its Variation tag names a long-family preset)? */
export function isLongMatchText(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const tag = /^;\s*\[Variation\s+"([^"]*)"\]\s*$/m.exec(text);
  return tag !== null && Object.values(LONG_VARIATIONS).includes(tag[1]);
}

interface Snapshot {
  readonly positionId: string;
  readonly dice: Dice | null;
  readonly cube: CubeState | null;
  readonly match: MatchState | null;
  readonly lastRoll: boolean;
  readonly mayDouble: boolean;
  readonly events: number;
  readonly legalPlays: number;
  readonly stage: string | null;
}

/** Replays a long-family file and reads its decisions off the flow. */
function readLongMatch(text: string): LongMatch {
  const entries: Entry[] = [];
  let snapshot: Snapshot | null = null;
  let rolled = false;
  // What the flow played with, as the replay saw it (set at the file's first action).
  const seen: { cubeConfig: CubeConfig | null; rules: unknown } = { cubeConfig: null, rules: null };
  const stageOf = (
    w: Working<unknown, unknown>,
    positionId: string,
    dice: Dice | null,
    lastRoll: boolean,
  ) => {
    const parsed = parseLongPositionId(positionId);
    if (!parsed.ok) return { stage: null, legalPlays: 1 };
    const legal = w.family.legal(w.rules, parsed.value, dice ?? undefined, { lastRoll });
    return legal.ok
      ? { stage: legal.value.stage.origin, legalPlays: legal.value.turns.length }
      : { stage: null, legalPlays: 1 };
  };
  const replay = replayLongMatch(text, {
    before(action: LongReplayAction, w: Working<unknown, unknown>) {
      seen.cubeConfig = w.record.cubeConfig;
      seen.rules = w.rules;
      const game = w.record.game;
      const positionId = w.family.positionId(w.state);
      const mayDouble = action.input.type === 'roll' && allowedActions(w)[action.seat].includes('double');
      const stage =
        action.input.type === 'play'
          ? stageOf(w, positionId, game.dice, game.lastRoll)
          : { stage: null, legalPlays: 1 };
      snapshot = {
        positionId,
        dice: game.dice,
        cube: game.cube,
        match: w.record.match,
        lastRoll: game.lastRoll,
        mayDouble,
        events: w.events.length,
        ...stage,
      };
    },
    after(action: LongReplayAction, w: Working<unknown, unknown>) {
      const s = snapshot as Snapshot | null;
      if (!s) return;
      const fresh: HistoryEvent[] = w.events.slice(s.events);
      const base = {
        game: action.game,
        moveNumber: action.line ?? 0,
        seat: action.seat,
        positionId: s.positionId,
        cube: s.cube,
        match: s.match,
      };
      const cubeEntry = (kind: EntryKind): Entry => ({
        ...base,
        kind,
        dice: null,
        roll: null,
        stage: null,
        played: null,
        legalPlays: 0,
        lastRoll: false,
      });
      let previous = s.positionId;
      let dice: Dice | null = null;
      switch (action.input.type) {
        case 'roll':
          if (s.mayDouble && cubeLive(action.seat, s.cube, s.match)) entries.push(cubeEntry('no-double'));
          rolled = true;
          break;
        case 'play': {
          const play = fresh.find((e) => e.type === 'play');
          if (play && play.positionId) {
            entries.push({
              ...base,
              kind: 'play',
              dice: s.dice,
              roll: s.dice ? (rolled ? 'roll' : 'roll-off') : null,
              stage: s.lastRoll ? 'last-roll' : s.stage,
              played: { notation: play.notation ?? '', positionIdAfter: play.positionId },
              legalPlays: s.legalPlays,
              lastRoll: s.lastRoll,
            });
            previous = play.positionId;
          }
          rolled = false;
          break;
        }
        case 'double':
        case 'take':
        case 'drop':
        case 'beaver':
        case 'raccoon':
          entries.push(cubeEntry(action.input.type));
          break;
        default:
          rolled = false;
          break;
      }
      // Stages the flow forfeited itself (nothing to play, ALG-8, MAX-5), after a roll or a play.
      for (const e of fresh) {
        if (e.type === 'roll') dice = e.dice ? [e.dice[0], e.dice[1]] : null;
        if (e.type !== 'no-play' || !e.positionId) continue;
        const seat = e.seat ?? action.seat;
        const forfeited = e.dice ? ([e.dice[0], e.dice[1]] as Dice) : null;
        entries.push({
          ...base,
          kind: 'play',
          seat,
          positionId: previous,
          dice: forfeited,
          roll: forfeited && dice ? 'roll' : null,
          stage: s.lastRoll ? 'last-roll' : stageOf(w, previous, forfeited, s.lastRoll).stage,
          played: null,
          legalPlays: 1,
          lastRoll: s.lastRoll,
        });
        previous = e.positionId;
        rolled = false;
      }
    },
  });
  const cubeConfig = seen.cubeConfig;
  if (!cubeConfig) fail('INVALID_MATCH_FILE', 'the match file has no game to analyse', { field: 'text' });
  const values = longOutcomeValues(seen.rules as Parameters<typeof longOutcomeValues>[0]);
  const log = replay.log;
  return {
    variant: replay.variant,
    overrides: replay.overrides,
    values,
    cubeConfig,
    length: log.length,
    players:
      log.players[0] === log.players[1] ? [`${log.players[0]} (0)`, `${log.players[1]} (1)`] : log.players,
    entries,
    games: log.games.map((g) => {
      const result = g.events.find((e) => e.kind === 'wins');
      return {
        number: g.number,
        score: g.score,
        winner: result && result.kind === 'wins' ? result.seat : null,
        points: result && result.kind === 'wins' ? result.points : 0,
        result: result && result.kind === 'wins' ? result.result : 'unfinished',
      };
    }),
  };
}

/** A cube that still matters (gnubg analyses only those): in a match, more than its value still to win. */
function cubeLive(seat: Side, cube: CubeState | null, match: MatchState | null): boolean {
  if (!cube) return false;
  return !match || match.length - match.score[seat] > cube.value;
}

function situationOf(e: Entry, config: CubeConfig): Situation | null {
  const cube = e.cube;
  if (!cube) return null;
  const owner: CubeOwner = cube.owner === 'center' ? 'centre' : cube.owner === e.seat ? 'mover' : 'opponent';
  const m = e.match;
  return {
    kind: m ? 'match' : 'money',
    value: cube.value,
    owner,
    jacoby: config.jacoby && !cube.turned,
    length: m ? m.length : 0,
    score: m ? [m.score[e.seat], m.score[otherSide(e.seat)]] : [0, 0],
    crawford: m ? m.crawford && m.nextGameIsCrawford : false,
  };
}

/**
 * Reads a long-family match file (the dialect), checks every action by
 * replaying it (400 INVALID_MATCH_FILE naming the game and the line), and
 * plans its analysis.
 */
export function planLongMatchAnalysis(
  text: string,
  options: MatchAnalysisOptions,
  analysis: AnalysisService,
): MatchAnalysisPlan {
  const plies = options.plies;
  checkPlies(plies);
  const match = readLongMatch(text);
  const requests = new LongRequests(match, plies);
  let cost = 0;
  for (const e of match.entries) {
    if (e.kind === 'play') {
      if (judged(e)) cost += analysis.cost('best', requests.best(e));
      if (e.roll && !e.lastRoll) cost += ROLLS.length * Math.max(1, e.legalPlays); // luck: every roll at 0 plies
    } else if (e.kind === 'no-double' || e.kind === 'double') {
      cost += analysis.cost('evaluate', requests.cube(e));
    }
  }
  return {
    decisions: match.entries.length,
    cost,
    run: (hooks) =>
      withCancellation(hooks, (caller) => analyseLongMatch(match, requests, analysis, hooks, caller)),
  };
}

/** A play ranked among others (not forced, not the last roll). */
const judged = (e: Entry): boolean => e.played !== null && e.legalPlays > 1 && !e.lastRoll;

/** The analysis requests of a match's decisions. */
class LongRequests {
  constructor(
    private readonly match: LongMatch,
    readonly plies: number,
  ) {}

  private position(e: Entry): Record<string, unknown> {
    const rules = this.match.overrides;
    return {
      variant: this.match.variant,
      ...(rules !== undefined ? { rules } : {}),
      positionId: e.positionId,
    };
  }

  best(e: Entry, dice: Dice | null = e.dice, plies = this.plies, limit?: number): Record<string, unknown> {
    return {
      ...this.position(e),
      ...(dice ? { dice: [dice[0], dice[1]] } : {}),
      plies,
      ...(limit ? { limit } : {}),
    };
  }

  cube(e: Entry): Record<string, unknown> {
    const cube = e.cube as CubeState;
    const m = e.match;
    return {
      ...this.position(e),
      plies: this.plies,
      cube: { value: cube.value, owner: cube.owner, turned: cube.turned },
      ...(m
        ? {
            match: {
              length: m.length,
              crawford: m.crawford,
              score: { white: m.score.white, black: m.score.black },
              nextGameIsCrawford: m.nextGameIsCrawford,
              crawfordPlayed: m.crawfordPlayed,
            },
          }
        : {}),
    };
  }
}

async function analyseLongMatch(
  match: LongMatch,
  requests: LongRequests,
  analysis: AnalysisService,
  hooks: AnalysisHooks,
  caller: AnalysisCaller,
): Promise<MatchReport> {
  const names: Record<Side, string> = { white: match.players[0], black: match.players[1] };
  const tallies: Record<Side, Tally> = { white: emptyTally(), black: emptyTally() };
  const games = new Map<number, DecisionReport[]>(match.games.map((g) => [g.number, []]));
  const total = match.entries.length;
  const values = match.values;
  let done = 0;
  let lastDouble: CubeDecisionView | null = null;

  /** The mover's equity after a play, in single games (module comment). */
  const equityAfter = (t: RankedTurnView, e: Entry): number => {
    const s = situationOf(e, match.cubeConfig);
    if (!s) return cubelessEquity(t.probabilities, values) / values.single;
    const scale = s.kind === 'money' ? values.single : 1;
    if (t.next.actor === e.seat && t.next.kind !== 'gameOver')
      return ownEquity(t.probabilities, s, t.next.kind === 'roll', values) / scale;
    return playEquity(t.probabilities, s, values) / scale;
  };
  const evaluateCube = async (e: Entry): Promise<CubeDecisionView> => {
    return cubeDecisionOf(valueOf(await analysis.evaluate(requests.cube(e), caller)));
  };
  const base = (e: Entry, kind: 'move' | 'cube') => ({
    kind,
    player: names[e.seat],
    moveNumber: e.moveNumber,
    dice: e.dice ? ([e.dice[0], e.dice[1]] as const) : null,
    positionId: e.positionId,
    // The long family has no gnubg Match ID: the cube and the score are given as they are.
    matchId: null,
    game: e.game,
    situation: {
      cube: e.cube ? { value: e.cube.value, owner: e.cube.owner } : null,
      score: e.match ? { white: e.match.score.white, black: e.match.score.black } : null,
      length: match.length,
    },
  });

  for (const e of match.entries) {
    if (hooks.aborted()) fail('ANALYSIS_CANCELLED', 'the match analysis was cancelled');
    const list = games.get(e.game) as DecisionReport[];
    if (e.kind === 'play') list.push(await playEntry(e));
    else list.push(await cubeEntry(e));
    done++;
    hooks.progress(done, total);
  }

  async function playEntry(e: Entry): Promise<DecisionReport> {
    const tally = tallies[e.seat];
    tally.moves++;
    const played = e.played ? e.played.notation : 'no play';
    const common = {
      ...base(e, 'move'),
      stage: e.stage,
      legalPlays: e.legalPlays,
      lastRoll: e.lastRoll,
      ...(e.played ? { playedPositionIdAfter: e.played.positionIdAfter } : {}),
    };
    let report: DecisionReport;
    if (judged(e) && e.played) {
      const ranked: BestMovesView = valueOf(await analysis.bestMoves(requests.best(e), caller));
      const j = judgePlay(ranked.turns, (t) => equityAfter(t, e), e.played.positionIdAfter);
      report = {
        ...common,
        played,
        best: j.best.notation,
        equityLoss: round(j.loss),
        unforced: true,
        skill: tallyPlay(tally, j.loss),
        bestPositionIdAfter: j.best.positionId,
        bestEquity: round(j.bestEquity),
        playedEquity: round(j.playedEquity),
        playedRank: j.playedRank,
        plies: ranked.evaluator.plies,
      };
    } else {
      report = { ...common, played, best: played, equityLoss: 0, unforced: false, skill: null };
    }
    let luck = 0;
    if (e.roll && e.dice && !e.lastRoll) {
      luck = await luckOver(rollsOf(e.roll === 'roll-off'), e.dice, async (dice) => {
        const ranked = valueOf(await analysis.bestMoves(requests.best(e, dice, 0, 1), caller));
        const top = ranked.turns[0];
        return top ? equityAfter(top, e) : 0;
      });
      tally.luck += luck;
    }
    return { ...report, luck: round(luck) };
  }

  async function cubeEntry(e: Entry): Promise<DecisionReport> {
    const tally = tallies[e.seat];
    const entry = (action: CubeJudgementAction, cube: CubeDecisionView, played: string = action) => ({
      ...base(e, 'cube'),
      ...cubeReport(tally, action, cube, played),
    });
    switch (e.kind) {
      case 'no-double':
        return entry('no-double', await evaluateCube(e));
      case 'double':
        lastDouble = await evaluateCube(e);
        return entry('double', lastDouble);
      case 'take':
      case 'drop':
      case 'beaver':
        if (lastDouble) {
          const cube: CubeDecisionView = lastDouble;
          // A beaver is a take that redoubles at once (CUBE-5): judged as the take; the answer to it is not.
          lastDouble = null;
          return entry(e.kind === 'beaver' ? 'take' : e.kind, cube, e.kind);
        }
        break;
      default:
        break;
    }
    // A raccoon, or the answer to a beaver: redoubles the cube decision does not price.
    return {
      ...base(e, 'cube'),
      played: e.kind,
      best: e.kind,
      equityLoss: 0,
      close: false,
      skill: null,
      judged: false,
    };
  }

  const players = {
    [names.white]: playerReport(tallies.white),
    [names.black]: playerReport(tallies.black),
  };
  return {
    players,
    games: match.games.map((g) => ({
      number: g.number,
      score: g.score,
      winner: g.winner === null ? null : names[g.winner],
      points: g.points,
      result: g.result,
      decisions: games.get(g.number) ?? [],
    })),
    variant: match.variant,
    matchLength: match.length,
    plies: requests.plies,
    evaluator: analysis.kind,
    units: match.cubeConfig.enabled
      ? match.length === 0
        ? 'money equity per unit of the cube, in single games'
        : 'EMG (match winning chances rescaled to a single game at the cube)'
      : 'cubeless equity, in single games',
  };
}
