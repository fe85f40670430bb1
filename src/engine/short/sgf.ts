import { Result, err, ok } from '../result';
import {
  MatchFileError,
  MatchPlayer,
  MatchRecord,
  RecordedAction,
  RecordedGame,
  RecordedStep,
  matchFileError,
} from './match-record';

/*
 * gnubg's SGF for backgammon (`GM[6]`): one game tree per game,
 * `(;FF[4]GM[6]…MI[length:7][game:0][ws:0][bs:0]PW[…]PB[…]RE[W+2] ;W[52gbfb] ;B[double] ;W[take] …)`.
 * A move is the roll and one pair of letters per step; the letters number
 * the points in player 0's (White's) numbering, `a` = his point 1 … `x` =
 * 24, `y` = the bar and `z` = off, for both players. `RE[B+2R]`: Black won
 * 2 points by resignation. `RU[…]` lists the rules (`Crawford`,
 * `Crawford:CrawfordGame`, `Jacoby`).
 */

interface Node {
  readonly props: Map<string, string[]>;
}

/** Splits SGF text into game trees of nodes (no variations: a match file has none). */
function readTrees(text: string): Node[][] | string {
  const trees: Node[][] = [];
  let i = 0;
  let tree: Node[] | null = null;
  let node: Node | null = null;
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '(') {
      depth++;
      if (depth > 1) return 'variations are not supported in a match file';
      tree = [];
      trees.push(tree);
      i++;
    } else if (c === ')') {
      depth--;
      if (depth < 0) return 'unbalanced ")"';
      tree = null;
      node = null;
      i++;
    } else if (c === ';') {
      if (!tree) return '";" outside a game tree';
      node = { props: new Map() };
      tree.push(node);
      i++;
    } else if (/[A-Z]/.test(c)) {
      if (!node) return 'a property outside a node';
      let id = '';
      while (i < text.length && /[A-Za-z]/.test(text[i])) id += text[i++];
      const values: string[] = [];
      while (true) {
        while (i < text.length && /\s/.test(text[i])) i++;
        if (text[i] !== '[') break;
        i++;
        let v = '';
        while (i < text.length && text[i] !== ']') {
          if (text[i] === '\\' && i + 1 < text.length) i++;
          v += text[i++];
        }
        if (i >= text.length) return `the value of ${id} is not closed with "]"`;
        i++;
        values.push(v);
      }
      if (values.length === 0) return `property ${id} has no value`;
      node.props.set(id, [...(node.props.get(id) ?? []), ...values]);
    } else if (/\s/.test(c)) i++;
    else return `unexpected "${c}"`;
  }
  if (depth !== 0) return 'a game tree is not closed with ")"';
  return trees;
}

/** SGF point letter → the mover's own point number (player 0 White, player 1 Black). */
function pointOf(letter: string, player: MatchPlayer): number | null {
  if (letter === 'y') return 25;
  if (letter === 'z') return 0;
  const k = letter.charCodeAt(0) - 97;
  if (k < 0 || k > 23) return null;
  return player === 0 ? k + 1 : 24 - k;
}

function letterOf(point: number, player: MatchPlayer): string {
  if (point === 25) return 'y';
  if (point === 0) return 'z';
  return String.fromCharCode(97 + (player === 0 ? point - 1 : 24 - point));
}

const TAG_PROPERTIES: readonly [string, string][] = [
  ['EV', 'Event'],
  ['RO', 'Round'],
  ['PC', 'Site'],
  ['DT', 'EventDate'],
  ['VA', 'Variation'],
];

/** gnubg SGF text → match record (unchecked: `replayMatch` checks the moves). */
export function parseSgf(text: string): Result<MatchRecord, MatchFileError> {
  if (typeof text !== 'string') return err(matchFileError('the match file must be text'));
  const trees = readTrees(text);
  if (typeof trees === 'string') return err(matchFileError(`cannot read the SGF: ${trees}`));
  if (trees.length === 0) return err(matchFileError('the file holds no game'));
  let length = 0;
  let players: [string, string] = ['White', 'Black'];
  let jacoby = false;
  const tags: { name: string; value: string }[] = [];
  const games: RecordedGame[] = [];
  for (const [t, tree] of trees.entries()) {
    const number = t + 1;
    const root = tree[0];
    const one = (id: string): string | undefined => root?.props.get(id)?.[0];
    if (!root || one('GM') !== '6')
      return err(matchFileError('not a backgammon SGF game tree (GM[6])', { game: number }));
    const mi = new Map<string, string>();
    for (const v of root.props.get('MI') ?? []) {
      const [k, val] = v.split(':');
      mi.set(k, val);
    }
    const int = (k: string): number | null =>
      mi.has(k) && /^\d+$/.test(mi.get(k) ?? '') ? Number(mi.get(k)) : null;
    const score: [number, number] = [int('ws') ?? 0, int('bs') ?? 0];
    if (t === 0) {
      length = int('length') ?? 0;
      players = [one('PW') ?? 'White', one('PB') ?? 'Black'];
      jacoby = /(^|:)Jacoby($|:)/.test(one('RU') ?? '');
      for (const [id, name] of TAG_PROPERTIES) {
        const v = one(id);
        if (v !== undefined) tags.push({ name, value: v });
      }
    }
    const actions: RecordedAction[] = [];
    for (let k = 1; k < tree.length; k++) {
      const node = tree[k];
      const moveNumber = k;
      const where = { game: number, move: moveNumber };
      const w = node.props.get('W');
      const b = node.props.get('B');
      if (!w && !b) continue; // comments, analysis-only nodes
      const player: MatchPlayer = w ? 0 : 1;
      const value = (w ?? b ?? [''])[0];
      if (value === 'double' || value === 'take' || value === 'drop') {
        actions.push({ kind: value, player, moveNumber });
        continue;
      }
      const m = /^([1-6])([1-6])([a-z]*)$/.exec(value);
      if (!m || m[3].length % 2 !== 0) return err(matchFileError(`cannot read the move "${value}"`, where));
      const steps: RecordedStep[] = [];
      for (let s = 0; s < m[3].length; s += 2) {
        const from = pointOf(m[3][s], player);
        const to = pointOf(m[3][s + 1], player);
        if (from === null || to === null)
          return err(matchFileError(`cannot read the step "${m[3].slice(s, s + 2)}"`, where));
        steps.push({ from, to });
      }
      actions.push({ kind: 'move', player, dice: [Number(m[1]), Number(m[2])], steps, moveNumber });
    }
    const re = /^([WB])\+(\d+)(R?)$/.exec(one('RE') ?? '');
    const result = re
      ? {
          winner: (re[1] === 'W' ? 0 : 1) as MatchPlayer,
          points: Number(re[2]),
          ...(re[3] ? { resigned: true } : {}),
        }
      : null;
    games.push({ number, score, actions, result });
  }
  return ok({ tags, length, players, games, ...(length === 0 && jacoby ? { jacoby: true } : {}) });
}

const escapeValue = (v: string): string => v.replace(/\\/g, '\\\\').replace(/]/g, '\\]');

function actionValue(action: RecordedAction): string {
  if (action.kind !== 'move') return action.kind;
  return `${action.dice[0]}${action.dice[1]}${action.steps.map((s) => letterOf(s.from, action.player) + letterOf(s.to, action.player)).join('')}`;
}

/**
 * Match record → gnubg SGF, one game tree per game. With `parseSgf` a fixed
 * point: writing what was read gives the same text. The Crawford game is
 * marked as gnubg does (`RU[Crawford:CrawfordGame]`).
 */
export function makeSgf(record: MatchRecord, crawfordGames: ReadonlySet<number> = new Set()): string {
  const out: string[] = [];
  for (const [t, game] of record.games.entries()) {
    let root = `(;FF[4]GM[6]CA[UTF-8]AP[nardy]MI[length:${record.length}][game:${t}][ws:${game.score[0]}][bs:${game.score[1]}]`;
    root += `PW[${escapeValue(record.players[0])}]PB[${escapeValue(record.players[1])}]`;
    if (t === 0) {
      for (const [id, name] of TAG_PROPERTIES) {
        const tag = record.tags.find((x) => x.name === name);
        if (tag) root += `${id}[${escapeValue(tag.value)}]`;
      }
    }
    const rules =
      record.length > 0
        ? crawfordGames.has(game.number)
          ? 'Crawford:CrawfordGame'
          : 'Crawford'
        : record.jacoby
          ? 'Jacoby'
          : '';
    if (rules) root += `RU[${rules}]`;
    if (game.result)
      root += `RE[${game.result.winner === 0 ? 'W' : 'B'}+${game.result.points}${game.result.resigned ? 'R' : ''}]`;
    out.push(root);
    for (const action of game.actions)
      out.push(`;${action.player === 0 ? 'W' : 'B'}[${actionValue(action)}]`);
    out[out.length - 1] += ')';
  }
  return `${out.join('\n')}\n`;
}
