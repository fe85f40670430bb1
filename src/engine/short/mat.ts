import { Dice } from '../dice';
import { Result, err, ok } from '../result';
import {
  MatchFileError,
  MatchPlayer,
  MatchRecord,
  RecordedAction,
  RecordedGame,
  RecordedResult,
  RecordedStep,
  matchFileError,
} from './match-record';

/*
 * The Jellyfish text match format (`.mat`) as gnubg and XG write it:
 *
 *   ; [Event "…"]                       header tags (XG, gnubg)
 *    7 point match                      0 = money session
 *    Game 1
 *    Alice : 0                    Bob : 0
 *     1) 31: 8/5 6/5               42: 24/20 13/11
 *     2)  Doubles => 2              Takes
 *          Wins 2 points
 *
 * Each numbered line holds one entry of player 0 (the left column) and one
 * of player 1 (the right column); a game starting with player 1 leaves the
 * first left entry blank. A move is the roll and every die's step
 * separately, in the mover's own numbering (25 = the bar, 0 = off, `*`
 * marks a hit); a roll with no legal play is the roll alone.
 */

const TAG = /^;\s*\[([^"\]]+?)\s+"(.*)"\]\s*$/;
const LENGTH = /^\s*(\d+)\s+point\s+match\s*$/i;
const GAME = /^\s*Game\s+(\d+)\s*$/i;
const SCORE = /^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$/;
const NUMBERED = /^(\s*(\d+)\))(.*)$/;
const WINS = /^\s*Wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?\s*$/i;
/** Columns from the line start: an entry starting further right than this belongs to player 1. */
const RIGHT_COLUMN = 20;

interface Token {
  readonly text: string;
  readonly column: number;
}

type Entry =
  | { kind: 'move'; dice: Dice; steps: RecordedStep[]; column: number }
  | { kind: 'double' | 'take' | 'drop'; column: number }
  | { kind: 'wins'; points: number; column: number };

function tokens(line: string, from: number): Token[] {
  const out: Token[] = [];
  const re = /\S+/g;
  re.lastIndex = from;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push({ text: m[0], column: m.index });
  return out;
}

function pointOf(text: string): number | null {
  const t = text.toLowerCase();
  if (t === 'bar') return 25;
  if (t === 'off') return 0;
  if (!/^\d{1,2}$/.test(t)) return null;
  const n = Number(t);
  return n <= 25 ? n : null;
}

/** Reads the entries of a numbered line (after `N)`), or says what it cannot read. */
function entriesOf(list: Token[]): Entry[] | string {
  const out: Entry[] = [];
  let i = 0;
  while (i < list.length) {
    const { text, column } = list[i];
    const roll = /^([1-6])([1-6]):$/.exec(text);
    if (roll) {
      const steps: RecordedStep[] = [];
      i++;
      while (i < list.length && /\//.test(list[i].text)) {
        const m = /^(\w+)\/(\w+)(\*?)$/.exec(list[i].text);
        const from = m ? pointOf(m[1]) : null;
        const to = m ? pointOf(m[2]) : null;
        if (!m || from === null || to === null) return `cannot read the step "${list[i].text}"`;
        steps.push(m[3] ? { from, to, hit: true } : { from, to });
        i++;
      }
      out.push({ kind: 'move', dice: [Number(roll[1]), Number(roll[2])], steps, column });
      continue;
    }
    const word = text.toLowerCase();
    if (word === 'doubles') {
      if (list[i + 1]?.text !== '=>' || !/^\d+$/.test(list[i + 2]?.text ?? ''))
        return 'a double is written "Doubles => N"';
      out.push({ kind: 'double', column });
      i += 3;
      continue;
    }
    if (word === 'takes' || word === 'drops') {
      out.push({ kind: word === 'takes' ? 'take' : 'drop', column });
      i++;
      continue;
    }
    if (word === 'wins') {
      const points = list[i + 1]?.text ?? '';
      if (!/^\d+$/.test(points) || !/^points?$/i.test(list[i + 2]?.text ?? ''))
        return 'a result is written "Wins N points"';
      out.push({ kind: 'wins', points: Number(points), column });
      i += 3;
      if (list[i]?.text.toLowerCase() === 'and') i += 3; // "and the match"
      continue;
    }
    return `cannot read "${text}"`;
  }
  return out;
}

interface GameDraft {
  number: number;
  score: [number, number] | null;
  actions: RecordedAction[];
  result: RecordedResult | null;
}

/**
 * CUBE-5: the Jacoby rule of a money session written as `.mat`. The format
 * has no field for it; XG writes a `Jacoby` header tag ("On" / "Off"),
 * which is read when present. Without it the rule is gnubg's default: gnubg
 * 1.07 imports a `.mat` file with its own `set jacoby` setting (its importer
 * skips the tag), and a fresh gnubg has the rule on ("New money sessions
 * are played with the Jacoby rule", `show jacoby`).
 */
export const MAT_DEFAULT_JACOBY = true;

function matJacoby(tags: readonly { readonly name: string; readonly value: string }[]): boolean {
  const tag = tags.find((t) => t.name.trim().toLowerCase() === 'jacoby');
  const value = tag?.value.trim().toLowerCase();
  if (value === 'on' || value === 'yes' || value === 'true' || value === '1') return true;
  if (value === 'off' || value === 'no' || value === 'false' || value === '0') return false;
  return MAT_DEFAULT_JACOBY;
}

/**
 * `.mat` text → match record (unchecked: `replayMatch` checks the moves).
 * A money session's Jacoby rule: its `Jacoby` tag, or gnubg's default (on).
 * Errors name the line; moves are numbered by the file's `N)` lines.
 */
export function parseMat(text: string): Result<MatchRecord, MatchFileError> {
  if (typeof text !== 'string') return err(matchFileError('the match file must be text'));
  const lines = text.split(/\r?\n/);
  const tags: { name: string; value: string }[] = [];
  let length: number | null = null;
  let players: [string, string] | null = null;
  const games: GameDraft[] = [];
  let game: GameDraft | null = null;
  /** The column of the next entry in play order. */
  let next: MatchPlayer = 0;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const lineNumber = n + 1;
    if (line.trim() === '') continue;
    const tag = TAG.exec(line);
    if (tag) {
      tags.push({ name: tag[1], value: tag[2] });
      continue;
    }
    if (line.trimStart().startsWith(';')) continue; // other comments
    const len = LENGTH.exec(line);
    if (len && length === null && !game) {
      length = Number(len[1]);
      continue;
    }
    const g = GAME.exec(line);
    if (g) {
      game = { number: Number(g[1]), score: null, actions: [], result: null };
      if (game.number !== games.length + 1)
        return err(matchFileError(`game ${game.number} follows game ${games.length}`, { line: lineNumber }));
      games.push(game);
      next = 0;
      continue;
    }
    if (!game)
      return err(matchFileError(`cannot read "${line.trim()}" before the first game`, { line: lineNumber }));
    const where = { game: game.number, line: lineNumber };
    const numbered = NUMBERED.exec(line);
    if (numbered) {
      if (!game.score) return err(matchFileError('moves before the score line', where));
      const moveNumber = Number(numbered[2]);
      const entries = entriesOf(tokens(line, numbered[1].length));
      if (typeof entries === 'string')
        return err(matchFileError(entries, { game: game.number, move: moveNumber, line: lineNumber }));
      for (const [k, entry] of entries.entries()) {
        if (game.result)
          return err(
            matchFileError('an entry after the result', {
              game: game.number,
              move: moveNumber,
              line: lineNumber,
            }),
          );
        // A line's first entry sits in the column it is written in; later ones alternate.
        const player: MatchPlayer =
          k === 0 ? (entry.column - numbered[1].length >= RIGHT_COLUMN - 4 ? 1 : 0) : next;
        if (entry.kind === 'wins') {
          game.result = { winner: entry.column >= RIGHT_COLUMN ? 1 : 0, points: entry.points };
          continue;
        }
        if (entry.kind === 'move')
          game.actions.push({ kind: 'move', player, dice: entry.dice, steps: entry.steps, moveNumber });
        else game.actions.push({ kind: entry.kind, player, moveNumber });
        next = player === 0 ? 1 : 0;
      }
      continue;
    }
    const wins = WINS.exec(line);
    if (wins) {
      if (game.result) return err(matchFileError('a second result for the game', where));
      game.result = { winner: line.search(/\S/) >= RIGHT_COLUMN ? 1 : 0, points: Number(wins[1]) };
      continue;
    }
    const score = SCORE.exec(line);
    if (score && !game.score) {
      players ??= [score[1], score[3]];
      game.score = [Number(score[2]), Number(score[4])];
      continue;
    }
    return err(matchFileError(`cannot read "${line.trim()}"`, where));
  }
  if (length === null) return err(matchFileError('no "N point match" line'));
  if (!players || games.length === 0) return err(matchFileError('the file holds no game'));
  const finished: RecordedGame[] = [];
  for (const d of games) {
    if (!d.score) return err(matchFileError('a game without its score line', { game: d.number }));
    finished.push({ number: d.number, score: d.score, actions: d.actions, result: d.result });
  }
  return ok({ tags, length, players, games: finished, ...(length === 0 ? { jacoby: matJacoby(tags) } : {}) });
}

function stepText(s: RecordedStep): string {
  return `${s.from}/${s.to}${s.hit ? '*' : ''}`;
}

function entryText(action: RecordedAction, cubeAfter: number): string {
  switch (action.kind) {
    case 'move':
      return `${action.dice[0]}${action.dice[1]}:${action.steps.map((s) => ` ${stepText(s)}`).join('')}`;
    case 'double':
      return ` Doubles => ${cubeAfter}`;
    case 'take':
      return ' Takes';
    case 'drop':
      return ' Drops';
  }
}

const LEFT_WIDTH = 28;
const escapeTag = (v: string): string => v.replace(/"/g, "'").replace(/[\r\n]+/g, ' ');

/**
 * Match record → `.mat` text in gnubg's layout: one line per pair of
 * entries, player 0 left (28 columns wide) and player 1 right. With
 * `parseMat` a fixed point: writing what was read gives the same text.
 */
export function makeMat(record: MatchRecord): string {
  const out: string[] = [];
  for (const t of record.tags) out.push(`; [${t.name} "${escapeTag(t.value)}"]`);
  if (record.tags.length > 0) out.push('');
  out.push(` ${record.length} point match`, '');
  for (const game of record.games) {
    out.push(` Game ${game.number}`);
    out.push(
      ` ${`${record.players[0]} : ${game.score[0]}`.padEnd(31)}${record.players[1]} : ${game.score[1]}`,
    );
    let cube = 1;
    let left: string | null = null;
    let number = 0;
    const flush = (right: string): void => {
      number++;
      const l = left ?? '';
      out.push(
        `${String(number).padStart(3)}) ${l.length >= LEFT_WIDTH ? `${l} ` : l.padEnd(LEFT_WIDTH)}${right}`.trimEnd(),
      );
      left = null;
    };
    let pendingRight = false;
    for (const action of game.actions) {
      if (action.kind === 'double') cube *= 2;
      const text = entryText(action, cube);
      if (action.player === 0) {
        if (left !== null) flush('');
        left = text;
        pendingRight = true;
      } else {
        flush(text);
        pendingRight = false;
      }
    }
    const result = game.result;
    const winsText = result ? `Wins ${result.points} point${result.points === 1 ? '' : 's'}` : null;
    if (left !== null && pendingRight && result?.winner === 1 && winsText) {
      flush(winsText);
    } else {
      if (left !== null) flush('');
      if (winsText && result)
        out.push(result.winner === 0 ? `      ${winsText}` : `${' '.repeat(33)}${winsText}`);
    }
    out.push('');
  }
  return out.join('\n');
}
