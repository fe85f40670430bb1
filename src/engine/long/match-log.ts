import { Dice } from '../dice';
import { Result, err, ok } from '../result';
import { Side } from '../side';
import { OFF, Step } from '../step';
import { MatchFileError, matchFileError } from '../short/match-record';

/*
 * The `.mat` dialect of long nardy and its variants (docs/match-files.md,
 * "Long nardy"). A backgammon `.mat` file pairs one move of each player per
 * line; the long family's turns do not pair (a cascade plays stage after
 * stage, a re-roll rolls again, a debt is paid later), so the dialect writes
 * one action per numbered line, naming its player:
 *
 *   ; [Variation "CrazyNardy"]
 *    0 point match
 *
 *    Game 1
 *    White : 0                      Black : 0
 *         Roll-off 4-1
 *     1) White 35: 24/19 19/16
 *     2) Black 11: 24/23 23/22 22/21 21/20
 *     3) Black   : 24/22 22/20 20/18 18/16       a further stage of the same turn (no roll)
 *     4) White 65: no play
 *     5) White doubles => 2
 *     6) Black takes
 *          White wins 2 points (mars)
 *
 * Steps are written one die at a time in the order played, in the mover's
 * own numbering (`off` = borne off).
 */

export type LogEvent =
  | { readonly kind: 'roll-off'; readonly dice: Dice }
  /** A roll (`dice`) or a further stage of the turn (no dice), and its play (`steps: null` = nothing could be played). */
  | {
      readonly kind: 'play';
      readonly seat: Side;
      readonly dice: Dice | null;
      readonly steps: readonly Step[] | null;
      readonly line: number;
    }
  | {
      readonly kind: 'double' | 'beaver' | 'raccoon';
      readonly seat: Side;
      readonly value: number;
      readonly line: number;
    }
  | { readonly kind: 'take' | 'drop'; readonly seat: Side; readonly line: number }
  | { readonly kind: 'resign'; readonly seat: Side; readonly line: number }
  | {
      readonly kind: 'wins';
      readonly seat: Side | null;
      readonly points: number;
      readonly result: string;
      readonly line: number;
    };

export interface LogGame {
  readonly number: number;
  readonly score: readonly [number, number];
  readonly events: readonly LogEvent[];
}

export interface MatchLog {
  readonly tags: readonly { readonly name: string; readonly value: string }[];
  readonly length: number;
  readonly players: readonly [string, string];
  readonly games: readonly LogGame[];
}

const SEAT = (name: string): Side | null =>
  name.toLowerCase() === 'white' ? 'white' : name.toLowerCase() === 'black' ? 'black' : null;
const title = (seat: Side): string => (seat === 'white' ? 'White' : 'Black');

function stepText(s: Step): string {
  return `${s.from}/${s.to === OFF ? 'off' : s.to}`;
}

function parseSteps(text: string): Step[] | null {
  const steps: Step[] = [];
  for (const token of text.trim().split(/\s+/)) {
    const m = /^(\d{1,2})\/(\d{1,2}|off)$/.exec(token);
    if (!m) return null;
    steps.push({ from: Number(m[1]), to: m[2] === 'off' ? OFF : Number(m[2]) });
  }
  return steps;
}

const TAG = /^;\s*\[([^"\]]+?)\s+"(.*)"\]\s*$/;
const LINE = /^\s*(\d+)\)\s+(White|Black)\s+(.*?)\s*$/i;

/** A game while it is read: its score line may still be missing. */
interface OpenGame {
  number: number;
  score: [number, number] | null;
  events: LogEvent[];
}

/** Where an error is, for `matchFileError`: the game, the file line and, on a numbered line, its move. */
function at(game: number, line: number, move?: number): { game: number; line: number; move?: number } {
  return { game, line, ...(move !== undefined ? { move } : {}) };
}

/** The part of a numbered line after its player: a roll and its steps, a cube action, or a resignation. */
function actionEvent(rest: string, seat: Side, move: number, game: number, line: number): Result<LogEvent, MatchFileError> {
  const play = /^(?:([1-6])([1-6])|\s*):\s*(.*)$/.exec(rest);
  if (play) {
    const dice: Dice | null = play[1] ? [Number(play[1]), Number(play[2])] : null;
    if (/^no play$/i.test(play[3])) return ok({ kind: 'play', seat, dice, steps: null, line: move });
    const steps = parseSteps(play[3]);
    if (!steps) return err(matchFileError(`cannot read the steps "${play[3]}"`, at(game, line, move)));
    return ok({ kind: 'play', seat, dice, steps, line: move });
  }
  const cube = /^(doubles|beavers|raccoons)\s+=>\s+(\d+)$/i.exec(rest);
  if (cube) {
    const kind =
      cube[1].toLowerCase() === 'doubles'
        ? 'double'
        : cube[1].toLowerCase() === 'beavers'
          ? 'beaver'
          : 'raccoon';
    return ok({ kind, seat, value: Number(cube[2]), line: move });
  }
  const word = rest.toLowerCase();
  if (word === 'takes' || word === 'drops') return ok({ kind: word === 'takes' ? 'take' : 'drop', seat, line: move });
  if (word === 'resigns') return ok({ kind: 'resign', seat, line: move });
  return err(matchFileError(`cannot read "${rest}"`, at(game, line, move)));
}

/** A line inside a game after its score line: the roll-off, the result, or a numbered action. */
function gameEvent(raw: string, game: number, line: number): Result<LogEvent, MatchFileError> {
  const rollOff = /^\s*Roll-off\s+([1-6])-([1-6])\s*$/i.exec(raw);
  if (rollOff) return ok({ kind: 'roll-off', dice: [Number(rollOff[1]), Number(rollOff[2])] });
  const wins = /^\s*(White|Black|Nobody)\s+wins\s+(\d+)\s+points?\s+\(([\w-]+)\)\s*$/i.exec(raw);
  if (wins) {
    return ok({ kind: 'wins', seat: SEAT(wins[1]), points: Number(wins[2]), result: wins[3], line });
  }
  const m = LINE.exec(raw);
  if (!m) return err(matchFileError(`cannot read "${raw.trim()}"`, at(game, line)));
  return actionEvent(m[3], SEAT(m[2]) as Side, Number(m[1]), game, line);
}

/** The games read, each with its score line, or the first game without one. */
function closedGames(games: readonly OpenGame[]): Result<LogGame[], MatchFileError> {
  const out: LogGame[] = [];
  for (const g of games) {
    if (!g.score) return err(matchFileError('a game without its score line', { game: g.number }));
    out.push({ number: g.number, score: g.score, events: g.events });
  }
  return ok(out);
}

/** Dialect text → match log (unchecked: the service replays it through the rules). */
export function parseMatchLog(text: string): Result<MatchLog, MatchFileError> {
  if (typeof text !== 'string') return err(matchFileError('the match file must be text'));
  const tags: { name: string; value: string }[] = [];
  let length: number | null = null;
  let players: [string, string] | null = null;
  const games: OpenGame[] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n];
    const lineNumber = n + 1;
    if (raw.trim() === '') continue;
    const tag = TAG.exec(raw);
    if (tag) {
      tags.push({ name: tag[1], value: tag[2] });
      continue;
    }
    const len = /^\s*(\d+)\s+point\s+match\s*$/i.exec(raw);
    if (len && length === null && games.length === 0) {
      length = Number(len[1]);
      continue;
    }
    const g = /^\s*Game\s+(\d+)\s*$/i.exec(raw);
    if (g) {
      if (Number(g[1]) !== games.length + 1)
        return err(matchFileError(`game ${g[1]} follows game ${games.length}`, { line: lineNumber }));
      games.push({ number: Number(g[1]), score: null, events: [] });
      continue;
    }
    const game = games[games.length - 1];
    if (!game)
      return err(matchFileError(`cannot read "${raw.trim()}" before the first game`, { line: lineNumber }));
    // The first "name : score   name : score" line of a game is its score line (a numbered line never is).
    const score = /^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$/.exec(raw);
    if (score && !game.score && !LINE.test(raw)) {
      players ??= [score[1], score[3]];
      game.score = [Number(score[2]), Number(score[4])];
      continue;
    }
    const event = gameEvent(raw, game.number, lineNumber);
    if (!event.ok) return event;
    game.events.push(event.value);
  }
  if (length === null) return err(matchFileError('no "N point match" line'));
  if (!players || games.length === 0) return err(matchFileError('the file holds no game'));
  const out = closedGames(games);
  if (!out.ok) return out;
  return ok({ tags, length, players, games: out.value });
}

/** Match log → dialect text; with `parseMatchLog` a fixed point. */
export function makeMatchLog(log: MatchLog): string {
  const out: string[] = [];
  for (const t of log.tags) out.push(`; [${t.name} "${t.value.replace(/[\r\n]+/g, ' ')}"]`);
  if (log.tags.length > 0) out.push('');
  out.push(` ${log.length} point match`, '');
  for (const game of log.games) {
    out.push(` Game ${game.number}`);
    out.push(` ${`${log.players[0]} : ${game.score[0]}`.padEnd(31)}${log.players[1]} : ${game.score[1]}`);
    let number = 0;
    const line = (seat: Side, text: string): void => {
      number++;
      out.push(`${String(number).padStart(3)}) ${title(seat)} ${text}`);
    };
    for (const e of game.events) {
      switch (e.kind) {
        case 'roll-off':
          out.push(`      Roll-off ${e.dice[0]}-${e.dice[1]}`);
          break;
        case 'play': {
          const head = e.dice ? `${e.dice[0]}${e.dice[1]}:` : '  :';
          line(e.seat, `${head} ${e.steps === null ? 'no play' : e.steps.map(stepText).join(' ')}`);
          break;
        }
        case 'double':
          line(e.seat, `doubles => ${e.value}`);
          break;
        case 'beaver':
          line(e.seat, `beavers => ${e.value}`);
          break;
        case 'raccoon':
          line(e.seat, `raccoons => ${e.value}`);
          break;
        case 'take':
          line(e.seat, 'takes');
          break;
        case 'drop':
          line(e.seat, 'drops');
          break;
        case 'resign':
          line(e.seat, 'resigns');
          break;
        case 'wins':
          out.push(
            `      ${e.seat ? title(e.seat) : 'Nobody'} wins ${e.points} point${e.points === 1 ? '' : 's'} (${e.result})`,
          );
          break;
      }
    }
    out.push('');
  }
  return out.join('\n');
}
