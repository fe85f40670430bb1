import { Dice } from '../../engine/dice';
import { EvaluateRequest } from '../../contract/requests';
import { parseLongPositionId } from '../../engine/long/position-id';
import { CubeConfig, CubeState } from '../../engine/scoring/cube';
import { MatchState } from '../../engine/scoring/match';
import { Side, otherSide } from '../../engine/side';
import { CubeOwner } from '../../eval/cube/decision';
import { OutcomeValues, cubelessEquity, longOutcomeValues } from '../../eval/equity';
import { RankedTurnView } from '../analysis/views';
import { fail } from '../errors';
import { GameEvent, allowedActions } from '../../engine/game';
import { LONG_VARIATIONS, LongReplayAction, LongReplayTable, replayLongMatch } from './long';
import { MatchDecision, MatchReader, PlayerIndex } from './pipeline';
import { Situation, ownEquity, playEquity } from './report';

/*
 * Whole-match analysis of long nardy and its variants (docs/match-files.md,
 * "Analysis of long nardy"), in the same report as backgammon's. A file in
 * the long-nardy dialect is replayed through the game reducer (long.ts);
 * the decisions are read off its states as it goes:
 * - a play: every line that plays a stage — a roll, a re-roll (TM-5), a
 *   cascade stage (CR-1, CG-1) or a debt stage (TM-3, TM-4) — is one
 *   decision of its player, ranked among the legal plays of that stage
 *   with the preset's network; a stage with one legal play or none is
 *   forced, and LN-SCORE-6's last roll is not judged (the evaluator does
 *   not value a position whose opponent has already borne off);
 * - a cube decision where the preset is played with the cube (LN-SCORE-5,
 *   never in Fevga / Giul, CUBE-7): every roll before which the player could
 *   double (the reducer's own CUBE-2 / CUBE-6 check), every double, take and drop;
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

/** What the reader carries from one replayed action to the next. */
interface ReadState {
  readonly entries: Entry[];
  /** The reducer's state just before the action being read. */
  snapshot: Snapshot | null;
  /** The last action was a roll: the next play plays rolled dice, not the roll-off's (LN-START-2). */
  rolled: boolean;
}

/** What every decision of one action shares. */
type EntryBase = Pick<Entry, 'game' | 'moveNumber' | 'seat' | 'positionId' | 'cube' | 'match'>;

/** Replays a long-family file and reads its decisions off the reducer. */
function readLongMatch(text: string): LongMatch {
  const state: ReadState = { entries: [], snapshot: null, rolled: false };
  // What the reducer played with, as the replay saw it (set at the file's first action).
  const seen: { cubeConfig: CubeConfig | null; rules: unknown } = { cubeConfig: null, rules: null };
  const replay = replayLongMatch(text, {
    before(action: LongReplayAction, table: LongReplayTable) {
      seen.cubeConfig = table.state.cubeConfig;
      seen.rules = table.rules;
      state.snapshot = snapshotOf(action, table);
    },
    after(action: LongReplayAction, table: LongReplayTable) {
      readAction(state, action, table);
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
    entries: state.entries,
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

/** The stage a play would play and how many legal plays it has (one when the position or dice do not parse). */
function stageOf(
  w: LongReplayTable,
  positionId: string,
  dice: Dice | null,
  lastRoll: boolean,
): { stage: string | null; legalPlays: number } {
  const parsed = parseLongPositionId(positionId);
  if (!parsed.ok) return { stage: null, legalPlays: 1 };
  const legal = w.family.legal(w.rules, parsed.value, dice ?? undefined, { lastRoll });
  return legal.ok
    ? { stage: legal.value.stage.origin, legalPlays: legal.value.turns.length }
    : { stage: null, legalPlays: 1 };
}

/** The reducer's state before an action: what its decision is judged from. */
function snapshotOf(action: LongReplayAction, w: LongReplayTable): Snapshot {
  const game = w.state.game;
  const positionId = w.family.positionId(w.family.fromJson(w.rules, game.position));
  // Only before a roll may the player double (the reducer's own CUBE-2 / CUBE-6 check).
  const mayDouble = action.input.type === 'roll' && allowedActions(w.state)[action.seat].includes('double');
  const stage =
    action.input.type === 'play'
      ? stageOf(w, positionId, game.dice, game.lastRoll)
      : { stage: null, legalPlays: 1 };
  return {
    positionId,
    dice: game.dice ? [game.dice[0], game.dice[1]] : null,
    cube: game.cube,
    match: w.state.match,
    lastRoll: game.lastRoll,
    mayDouble,
    events: w.events.length,
    ...stage,
  };
}

/** Reads the decisions of one replayed action: the action's own, then the stages the reducer forfeited after it. */
function readAction(state: ReadState, action: LongReplayAction, w: LongReplayTable): void {
  const s = state.snapshot;
  if (!s) return;
  const fresh: GameEvent[] = w.events.slice(s.events);
  const base: EntryBase = {
    game: action.game,
    moveNumber: action.line ?? 0,
    seat: action.seat,
    positionId: s.positionId,
    cube: s.cube,
    match: s.match,
  };
  const previous = readDecision(state, action, s, base, fresh);
  readForfeits(state, action, w, s, base, fresh, previous);
}

/** A cube decision: no dice, no play. */
function cubeEntryOf(base: EntryBase, kind: EntryKind): Entry {
  return { ...base, kind, dice: null, roll: null, stage: null, played: null, legalPlays: 0, lastRoll: false };
}

/**
 * Reads the action's own decision; returns the position after it (before
 * any stage the reducer then forfeited).
 */
function readDecision(
  state: ReadState,
  action: LongReplayAction,
  s: Snapshot,
  base: EntryBase,
  fresh: readonly GameEvent[],
): string {
  let previous = s.positionId;
  switch (action.input.type) {
    case 'roll':
      // Rolling where one could double is a no-double decision, when the cube still matters.
      if (s.mayDouble && cubeLive(action.seat, s.cube, s.match))
        state.entries.push(cubeEntryOf(base, 'no-double'));
      state.rolled = true;
      break;
    case 'play': {
      const play = fresh.find((e) => e.type === 'play');
      if (play && play.positionId) {
        state.entries.push({
          ...base,
          kind: 'play',
          dice: s.dice,
          roll: s.dice ? (state.rolled ? 'roll' : 'roll-off') : null,
          stage: s.lastRoll ? 'last-roll' : s.stage,
          played: { notation: play.notation ?? '', positionIdAfter: play.positionId },
          legalPlays: s.legalPlays,
          lastRoll: s.lastRoll,
        });
        previous = play.positionId;
      }
      state.rolled = false;
      break;
    }
    case 'double':
    case 'take':
    case 'drop':
    case 'beaver':
    case 'raccoon':
      state.entries.push(cubeEntryOf(base, action.input.type));
      break;
    default:
      state.rolled = false;
      break;
  }
  return previous;
}

/** Stages the reducer forfeited itself (nothing to play, ALG-8, MAX-5), after a roll or a play: each a forced play. */
function readForfeits(
  state: ReadState,
  action: LongReplayAction,
  w: LongReplayTable,
  s: Snapshot,
  base: EntryBase,
  fresh: readonly GameEvent[],
  previous: string,
): void {
  let dice: Dice | null = null;
  for (const e of fresh) {
    if (e.type === 'roll') dice = e.dice ? [e.dice[0], e.dice[1]] : null;
    if (e.type !== 'no-play' || !e.positionId) continue;
    const seat = e.seat ?? action.seat;
    const forfeited = e.dice ? ([e.dice[0], e.dice[1]] as Dice) : null;
    state.entries.push({
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
    state.rolled = false;
  }
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

/** The mover's equity after a play, in single games (module comment). */
function equityAfter(match: LongMatch, t: RankedTurnView, e: Entry): number {
  const values = match.values;
  const s = situationOf(e, match.cubeConfig);
  if (!s) return cubelessEquity(t.probabilities, values) / values.single;
  const scale = s.kind === 'money' ? values.single : 1;
  if (t.next.actor === e.seat && t.next.kind !== 'gameOver') return ownEquity(t.probabilities, s, t.next.kind === 'roll', values) / scale;
  return playEquity(t.probabilities, s, values) / scale;
}

/** A play ranked among others (not forced, not the last roll). */
const judged = (e: Entry): boolean => e.played !== null && e.legalPlays > 1 && !e.lastRoll;

const playerOf = (seat: Side): PlayerIndex => (seat === 'white' ? 0 : 1);

/** The position a request analyses: the variant with the file's rule options, and the position ID. */
function positionOf(match: LongMatch, e: Entry): Pick<EvaluateRequest, 'variant' | 'rules' | 'positionId'> {
  const rules = match.overrides;
  return {
    variant: match.variant,
    // The overrides as the match file's variant line gave them (checked when the variant was bound).
    ...(rules !== undefined ? { rules: rules as EvaluateRequest['rules'] } : {}),
    positionId: e.positionId,
  };
}

function cubeRequest(match: LongMatch, e: Entry, plies: number): EvaluateRequest {
  const cube = e.cube as CubeState;
  const m = e.match;
  return {
    ...positionOf(match, e),
    plies,
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

/** One entry as a decision of the pipeline. */
function decisionOf(match: LongMatch, e: Entry): MatchDecision<Entry> {
  const fields = {
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
  };
  const decision = { kind: e.kind, game: e.game, player: playerOf(e.seat), source: e, fields };
  if (e.kind !== 'play') return decision;
  return {
    ...decision,
    play: {
      played: e.played ? e.played.notation : 'no play',
      positionIdAfter: e.played ? e.played.positionIdAfter : null,
      ranked: judged(e),
      legalPlays: e.legalPlays,
      // A rolled stage's luck, over every roll it could have been; LN-SCORE-6's last roll is not valued.
      luck: e.roll && e.dice && !e.lastRoll ? { dice: e.dice, opening: e.roll === 'roll-off' } : null,
      lead: {
        stage: e.stage,
        legalPlays: e.legalPlays,
        lastRoll: e.lastRoll,
        ...(e.played ? { playedPositionIdAfter: e.played.positionIdAfter } : {}),
      },
      trail: {},
    },
  };
}

/**
 * Reads a long-family match file (the dialect), checks every action by
 * replaying it (400 INVALID_MATCH_FILE naming the game and the line), and
 * gives its decisions to the analysis pipeline.
 */
export function longMatchReader(text: string): MatchReader<Entry> {
  const match = readLongMatch(text);
  return {
    players: match.players,
    decisions: match.entries.map((e) => decisionOf(match, e)),
    games: match.games.map((g) => ({
      number: g.number,
      winner: g.winner === null ? null : playerOf(g.winner),
      lead: { score: g.score },
      trail: { points: g.points, result: g.result },
    })),
    meta: { variant: match.variant, matchLength: match.length },
    units: match.cubeConfig.enabled
      ? match.length === 0
        ? 'money equity per unit of the cube, in single games'
        : 'EMG (match winning chances rescaled to a single game at the cube)'
      : 'cubeless equity, in single games',
    best: (e, plies, dice = e.dice ?? undefined, limit, keep) => ({
      ...positionOf(match, e),
      ...(dice ? { dice: [dice[0], dice[1]] } : {}),
      plies,
      ...(limit ? { limit } : {}),
      ...(keep ? { keep } : {}),
    }),
    cube: (e, plies) => cubeRequest(match, e, plies),
    equityAfter: (e, t) => equityAfter(match, t, e),
  };
}
