import { Dice } from '../../engine/dice';
import { LogEvent, LogGame, MatchLog, makeMatchLog, parseMatchLog } from '../../engine/long/match-log';
import { newMatch } from '../../engine/scoring/match';
import { RESIGN_LEVELS, ResignLevel } from '../../engine/scoring/score';
import { matchFileError } from '../../engine/short/match-record';
import { Side } from '../../engine/side';
import { LONG_PRESETS as LONG_RULES_PRESETS } from '../../engine/long/rules';
import { variantByName } from '../../engine/variants';
import { ServiceError, fail } from '../errors';
import { AnyBound, GameFamily, bind, withFamily } from '../../engine/family';
import { Applied, GameAction, GameEvent, GameState, applyAction, newGameState } from '../../engine/game';
import { CubeConfig } from '../../engine/scoring/cube';
import { MatchState } from '../../engine/scoring/match';
import { SessionActionInput } from '../sessions/flow';
import { HistoryEvent, SessionRecord } from '../sessions/record';

/*
 * The long family's `.mat` dialect (engine/long/match-log.ts) as the
 * sessions see it: a session's history written as a match log, and a match
 * log replayed through the game reducer with the file's dice, so that every
 * roll-off, play, stage of a cascade, re-roll, debt, cube action and score
 * is checked by the same rules as a live game.
 */

/** The `Variation` tag of each long-family preset. */
export const LONG_VARIATIONS: Readonly<Record<string, string>> = Object.freeze({
  long: 'LongNardy',
  nardgammon: 'Nardgammon',
  crazy: 'CrazyNardy',
  gulbar: 'Gulbara',
  'crazy-gulbar': 'CrazyGulbara',
  khachapuri: 'Khachapuri',
  fevga: 'Fevga',
  giul: 'Giul',
  'gulbara-intl': 'GulbaraIntl',
});

const variantOfTag = (tag: string): string | undefined =>
  Object.entries(LONG_VARIATIONS).find(([, t]) => t === tag)?.[0];

function tagOf(log: MatchLog, name: string): string | undefined {
  return log.tags.find((t) => t.name === name)?.value;
}

/** The rules options that differ from the preset (what the `Rules` tag writes). */
function overridesOf(preset: unknown, rules: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const base = preset as Record<string, unknown>;
  for (const [key, value] of Object.entries(rules as Record<string, unknown>)) {
    if (JSON.stringify(base[key]) !== JSON.stringify(value)) out[key] = value;
  }
  return out;
}

/** History events → the games of a match log. */
function gamesOf(events: readonly GameEvent[]): LogGame[] {
  const games: LogGame[] = [];
  const score: Record<Side, number> = { white: 0, black: 0 };
  let current: { number: number; score: [number, number]; events: LogEvent[] } | null = null;
  let roll: { seat: Side; dice: Dice } | null = null;
  let line = 0;
  for (const e of events) {
    if (!current || e.game !== current.number) {
      if (current) games.push(current);
      current = { number: e.game, score: [score.white, score.black], events: [] };
      roll = null;
      line = 0;
    }
    const seat = e.seat ?? 'white';
    switch (e.type) {
      case 'roll-off':
        if (e.dice) current.events.push({ kind: 'roll-off', dice: [e.dice[0], e.dice[1]] });
        break;
      case 'roll':
        if (e.dice) roll = { seat, dice: [e.dice[0], e.dice[1]] };
        break;
      case 'play':
      case 'no-play': {
        const dice = roll && roll.seat === seat ? roll.dice : null;
        roll = null;
        current.events.push({
          kind: 'play',
          seat,
          dice,
          steps: e.type === 'play' ? (e.steps ?? []).map((s) => ({ from: s.from, to: s.to })) : null,
          line: ++line,
        });
        break;
      }
      case 'double':
      case 'beaver':
      case 'raccoon':
        current.events.push({ kind: e.type, seat, value: e.cubeValue ?? 0, line: ++line });
        break;
      case 'take':
      case 'drop':
        current.events.push({ kind: e.type, seat, line: ++line });
        break;
      case 'resign':
        current.events.push({ kind: 'resign', seat, line: ++line });
        break;
      case 'game-over':
        if (e.result) {
          current.events.push({
            kind: 'wins',
            seat: e.result.winner,
            points: e.result.points,
            result: e.result.result,
            line: 0,
          });
          if (e.result.winner) score[e.result.winner] += e.result.points;
        }
        break;
      default:
        break; // next-game: the next "Game N" header
    }
  }
  if (current) games.push(current);
  return games;
}

/** A long-family session as a match log. */
export function sessionLog(record: SessionRecord, events: readonly HistoryEvent[]): MatchLog {
  const variant = variantByName(record.variant);
  if (!variant.ok) fail('INTERNAL', 'a stored game names an unknown variant');
  const overrides = overridesOf(variant.value.rules, record.rules);
  const tags = [{ name: 'Variation', value: LONG_VARIATIONS[record.variant] ?? record.variant }];
  if (Object.keys(overrides).length > 0) tags.push({ name: 'Rules', value: JSON.stringify(overrides) });
  tags.push({ name: 'Cube', value: record.cubeConfig.enabled ? 'on' : 'off' });
  if (record.match && !record.match.crawford) tags.push({ name: 'Crawford', value: 'off' });
  return { tags, length: record.match?.length ?? 0, players: ['White', 'Black'], games: gamesOf(events) };
}

/** A long-family session written in the dialect. */
export function makeSessionLog(record: SessionRecord, events: readonly HistoryEvent[]): string {
  return makeMatchLog(sessionLog(record, events));
}

/** Strips what the replay does not compare (line numbers). */
const comparable = (e: LogEvent): unknown => {
  const { line: _line, ...rest } = e as LogEvent & { line?: number };
  return rest;
};

/**
 * Reads a long-family match file and replays it through the game reducer
 * with the file's dice: every action must be the one the reducer expects, of
 * the right player, legal (cascades, re-rolls, debts, the head and block
 * rules, the cube, LN-SCORE-6's last roll), and every result must be the
 * one the rules give. Returns the match log as replayed (writing it gives
 * the same text) or throws 400 INVALID_MATCH_FILE naming the game and move.
 */
export function importLongMatch(text: unknown): MatchLog {
  return replayLongMatch(text).log;
}

/** One action of a file as the replay performs it: who, what, and its `N)` line. */
export interface LongReplayAction {
  readonly seat: Side;
  readonly input: SessionActionInput;
  readonly game: number;
  readonly line: number | undefined;
}

/** The game being replayed: the reducer's state, the family binding, and every event so far. */
export interface LongReplayTable {
  readonly family: GameFamily<unknown, unknown>;
  readonly rules: unknown;
  state: GameState;
  readonly events: GameEvent[];
}

/** Sees the replayed game just before and just after each action of the file (the analysis reads decisions off it). */
export interface LongReplayObserver {
  before(action: LongReplayAction, table: LongReplayTable): void;
  after(action: LongReplayAction, table: LongReplayTable): void;
}

/** A long-family file replayed: its log, the preset, and the rule options that differ from it (the `Rules` tag). */
export interface LongReplay {
  readonly log: MatchLog;
  readonly variant: string;
  readonly overrides: unknown;
}

/** `importLongMatch`, telling `observer` of every action as the flow performs it. */
export function replayLongMatch(text: unknown, observer?: LongReplayObserver): LongReplay {
  if (typeof text !== 'string') fail('INVALID_REQUEST', 'text must be the match file', { field: 'text' });
  const parsed = parseMatchLog(text);
  if (!parsed.ok) throw new ServiceError({ ...parsed.error });
  const log = parsed.value;
  const setup = setupOfLog(log);
  const replayed = gamesOf(replay(log, setup, observer));
  checkReplayed(log, replayed);
  return { log: { ...log, games: replayed }, variant: setup.bound.variant.name, overrides: setup.overrides };
}

/** Ends the import: 400 INVALID_MATCH_FILE naming the game and move. */
function badFile(reason: string, where: { game?: number; move?: number } = {}): never {
  throw new ServiceError({ ...matchFileError(reason, where) });
}

/** What the file's games are played with: the variant and rules (`Rules` tag), cube (`Cube`) and match (length, `Crawford`). */
interface LogSetup {
  readonly bound: AnyBound;
  readonly cubeConfig: CubeConfig;
  readonly match: MatchState | null;
  readonly overrides: unknown;
}

function setupOfLog(log: MatchLog): LogSetup {
  const name = variantOfTag(tagOf(log, 'Variation') ?? '');
  if (!name)
    badFile(`the Variation tag must name a long-family preset: ${Object.values(LONG_VARIATIONS).join(', ')}`);
  const variant = variantByName(name);
  if (!variant.ok) return badFile('unknown variant');
  let overrides: unknown = undefined;
  const rulesTag = tagOf(log, 'Rules');
  if (rulesTag !== undefined) {
    try {
      overrides = JSON.parse(rulesTag);
    } catch {
      badFile('the Rules tag must be a JSON object of rule options');
    }
  }
  const bound = bind(variant.value, overrides);
  if (!bound.ok) return badFile(`the Rules tag: ${bound.error.message}`);
  const cubeTag = tagOf(log, 'Cube');
  const cube = withFamily(bound.value, (b) => b.family.cubeConfig(b.rules, cubeTag === undefined ? undefined : cubeTag === 'on'));
  if (!cube.ok) return badFile(`the Cube tag: ${cube.error.message}`);
  let match = null;
  if (log.length > 0) {
    const m = newMatch(log.length, { crawford: tagOf(log, 'Crawford') !== 'off' });
    if (!m.ok) return badFile(m.error.message);
    match = m.value;
  }
  return { bound: bound.value, cubeConfig: cube.value, match, overrides };
}

/**
 * Replays the file's games through the game reducer with the file's dice;
 * any refusal names the game and move. Returns the events of the games.
 */
function replay(log: MatchLog, setup: LogSetup, observer: LongReplayObserver | undefined): GameEvent[] {
  const queue: Dice[] = [];
  const at: { game: number; move?: number } = { game: 0 };
  const where = () => ({ game: at.game, ...(at.move !== undefined ? { move: at.move } : {}) });
  const dice = (): [number, number] => {
    const next = queue.shift();
    if (!next) return badFile('the rules call for a roll here that the file does not give', where());
    return [next[0], next[1]];
  };
  const start = newGameState(setup.bound, { cubeConfig: setup.cubeConfig, match: setup.match });
  const table: LongReplayTable = withFamily(setup.bound, (b) => ({
    family: b.family as GameFamily<unknown, unknown>,
    rules: b.rules,
    state: start.state,
    events: [],
  }));
  /** Takes the reducer's answer, then rolls the roll-offs it waits for with the file's dice. */
  const take = (applied: Applied): void => {
    table.state = applied.state;
    table.events.push(...applied.events);
    while (table.state.expects?.action === 'roll-off') apply('white', { type: 'roll-off', dice: dice() });
  };
  const apply = (seat: Side, action: GameAction): void => {
    const applied = applyAction(table.state, seat, action);
    if (!applied.ok) badFile(applied.error.message, where());
    take(applied.value);
  };
  const perform = (seat: Side, input: SessionActionInput): void => {
    const action: LongReplayAction = { seat, input, game: at.game, line: at.move };
    observer?.before(action, table);
    const expects = table.state.expects;
    // The file's dice are taken only for a roll the game expects of this seat; another roll is refused as it is.
    const rolls = input.type === 'roll' && table.state.status === 'playing' && expects?.action === 'roll' && expects.seat === seat;
    apply(seat, input.type === 'roll' ? { type: 'roll', dice: rolls ? dice() : [1, 1] } : input);
    observer?.after(action, table);
  };
  for (const g of log.games) {
    at.game = g.number;
    at.move = undefined;
    for (const e of g.events) if (e.kind === 'roll-off') queue.push(e.dice);
    if (g.number === 1) take(start);
    else {
      if (table.state.expects?.action !== 'next-game') badFile('a new game before the previous one is over', { game: at.game });
      perform(table.state.expects.seat, { type: 'next-game' });
    }
    for (const [k, e] of g.events.entries()) {
      if (e.kind === 'roll-off' || e.kind === 'wins') continue;
      at.move = e.line;
      replayEvent(e, g.events.slice(k + 1), queue, perform);
    }
    if (queue.length > 0) badFile('the file gives dice the rules never call for', { game: at.game });
  }
  return table.events;
}

/** One action of the file as the flow's input: a roll and a play, a resignation (at the level of the result that follows), a cube action. */
function replayEvent(
  e: Exclude<LogEvent, { kind: 'roll-off' | 'wins' }>,
  after: LogEvent[],
  queue: Dice[],
  perform: (seat: Side, input: SessionActionInput) => void,
): void {
  switch (e.kind) {
    case 'play':
      if (e.dice) {
        queue.push(e.dice);
        perform(e.seat, { type: 'roll' });
      }
      // A stage with nothing to play is forfeited by the flow itself.
      if (e.steps !== null)
        perform(e.seat, {
          type: 'play',
          play: { steps: e.steps.map((s) => ({ from: s.from, to: s.to })) },
        });
      return;
    case 'resign': {
      const result = after.find((x) => x.kind === 'wins');
      const level =
        result && result.kind === 'wins' && (RESIGN_LEVELS as readonly string[]).includes(result.result)
          ? (result.result as ResignLevel)
          : 'single';
      perform(e.seat, { type: 'resign', level });
      return;
    }
    default:
      perform(e.seat, { type: e.kind });
  }
}

/** The file must say exactly what the flow did: every roll, play and no-play, every cube action and result. */
function checkReplayed(log: MatchLog, replayed: LogGame[]): void {
  for (const [i, g] of log.games.entries()) {
    const mine = replayed[i];
    const theirs = g.events.map(comparable);
    const ours = (mine?.events ?? []).map(comparable);
    for (let k = 0; k < Math.max(theirs.length, ours.length); k++) {
      if (JSON.stringify(theirs[k]) !== JSON.stringify(ours[k])) {
        const at = g.events[k] ?? g.events[g.events.length - 1];
        const line = at && 'line' in at && at.line > 0 ? at.line : undefined;
        badFile(`the file has ${describe(g.events[k])} where the rules give ${describe(mine?.events[k])}`, {
          game: g.number,
          ...(line !== undefined ? { move: line } : {}),
        });
      }
    }
    if (mine && JSON.stringify(mine.score) !== JSON.stringify(g.score)) {
      badFile(`the game starts at ${g.score.join('-')} but the games before it end at ${mine.score.join('-')}`, {
        game: g.number,
      });
    }
  }
}

function describe(e: LogEvent | undefined): string {
  if (!e) return 'nothing';
  switch (e.kind) {
    case 'roll-off':
      return `a roll-off ${e.dice.join('-')}`;
    case 'play':
      return e.steps === null
        ? `${e.seat} with no play`
        : `${e.seat} playing ${e.steps.map((s) => `${s.from}/${s.to}`).join(' ')}`;
    case 'wins':
      return `${e.seat ?? 'nobody'} winning ${e.points} (${e.result})`;
    default:
      return `${e.seat} ${e.kind}`;
  }
}

/** Every long-family preset name (for the dialect's documentation and tests). */
export const LONG_PRESETS: readonly string[] = Object.keys(LONG_RULES_PRESETS);
