import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PNG } from 'pngjs';
import { playLongGame } from '../../src/engine/long/game';
import { LONG_PRESETS, LongPresetName } from '../../src/engine/long/rules';
import { LongState } from '../../src/engine/long/turn';
import { SeededRandom } from '../../src/engine/random';
import { initialShortPosition, ShortPosition } from '../../src/engine/short/position';
import { SHORT_PRESETS, ShortPresetName } from '../../src/engine/short/rules';
import { legalShortTurns } from '../../src/engine/short/turn';

/*
 * Reading a board diagram back: the SVG parsed as XML, every checker stack,
 * bar and borne-off group by its data attributes, and the cube; PNG bytes
 * decoded. Also seeded self-play samples of every preset to draw.
 */

type Node = Record<string, unknown>;

export interface ReadDiagram {
  readonly width: number;
  readonly height: number;
  /** `side:point` (own numbering) → the count the stack states, and the circles drawn. */
  readonly stacks: Map<string, { count: number; circles: number; label: string | null }>;
  readonly bar: Record<string, number>;
  readonly off: Record<string, number>;
  readonly cube: { value: number; owner: string } | null;
  readonly dice: number[];
  readonly arrows: { from: number; to: number }[];
  readonly desc: string;
  readonly footer: string[];
}

function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (node && typeof node === 'object') {
    visit(node as Node);
    for (const [key, value] of Object.entries(node)) if (!key.startsWith('@_')) walk(value, visit);
  }
}

function all(node: unknown, tag: string): Node[] {
  const found: Node[] = [];
  walk(node, (n) => {
    const v = n[tag];
    if (v === undefined) return;
    for (const child of Array.isArray(v) ? v : [v]) if (child && typeof child === 'object') found.push(child as Node);
  });
  return found;
}

function textOf(node: Node): string {
  const t = node['#text'];
  return t === undefined ? '' : String(t);
}

/** Parses the SVG (which must be well-formed XML) and reads its checkers back. */
export function readDiagram(svg: string): ReadDiagram {
  const valid = XMLValidator.validate(svg);
  if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid)}`);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseAttributeValue: false }).parse(svg) as Node;
  const root = doc.svg as Node;
  const stacks = new Map<string, { count: number; circles: number; label: string | null }>();
  const bar: Record<string, number> = {};
  const off: Record<string, number> = {};
  let cube: ReadDiagram['cube'] = null;
  const dice: number[] = [];
  const arrows: { from: number; to: number }[] = [];
  for (const g of all(root, 'g')) {
    const cls = g['@_class'];
    if (cls === 'stack') {
      const labels = all({ g }, 'text').filter((t) => t['@_class'] === 'count');
      stacks.set(`${g['@_data-side']}:${g['@_data-point']}`, {
        count: Number(g['@_data-count']),
        circles: all({ g }, 'circle').length,
        label: labels.length > 0 ? textOf(labels[0]) : null,
      });
    } else if (cls === 'bar') bar[String(g['@_data-side'])] = Number(g['@_data-count']);
    else if (cls === 'off') off[String(g['@_data-side'])] = Number(g['@_data-count']);
    else if (cls === 'cube') cube = { value: Number(g['@_data-value']), owner: String(g['@_data-owner']) };
    else if (cls === 'die') dice.push(Number(g['@_data-value']));
  }
  for (const line of all(root, 'line')) {
    if (line['@_class'] === 'arrow') arrows.push({ from: Number(line['@_data-from']), to: Number(line['@_data-to']) });
  }
  const footer = all(root, 'text').filter((t) => t['@_class'] === 'footer-line').map(textOf);
  return {
    width: Number(root['@_width']),
    height: Number(root['@_height']),
    stacks,
    bar,
    off,
    cube,
    dice,
    arrows,
    desc: textOf(root.desc as Node),
    footer,
  };
}

/** Width and height from a PNG's bytes, after a full decode (which fails on a broken file). */
export function decodePng(bytes: Buffer): { width: number; height: number } {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height };
}

/**
 * Up to `count` states of seeded games of a long preset: first one of each
 * kind of pending stage the games reach (cascade, debt, re-roll), then more
 * pending states, then plain ones.
 */
export function longSamples(preset: LongPresetName, seed: number, count: number): LongState[] {
  const random = new SeededRandom(seed);
  const byOrigin = new Map<string, LongState[]>();
  const plain: LongState[] = [];
  for (let game = 0; game < 20; game++) {
    let stage = 0;
    playLongGame(LONG_PRESETS[preset], random, (step) => {
      stage++;
      const state = step.chosen.state;
      const origin = state.pending[0]?.origin;
      if (origin) byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), state].slice(0, count));
      else if (stage % 17 === 0 && plain.length < count) plain.push(state);
    });
  }
  const picked: LongState[] = [];
  for (let round = 0; picked.length < Math.ceil(count / 2) && round < count; round++) {
    for (const states of byOrigin.values()) if (states[round] && picked.length < Math.ceil(count / 2)) picked.push(states[round]);
  }
  return [...picked, ...plain].slice(0, count);
}

/** Up to `count` positions of seeded backgammon games, preferring ones with checkers on the bar and borne off. */
export function shortSamples(preset: ShortPresetName, seed: number, count: number): ShortPosition[] {
  const random = new SeededRandom(seed);
  const rules = SHORT_PRESETS[preset];
  const bar: ShortPosition[] = [];
  const off: ShortPosition[] = [];
  const other: ShortPosition[] = [];
  for (let game = 0; game < 10; game++) {
    let position = initialShortPosition(game % 2 === 0 ? 'white' : 'black');
    for (let n = 0; n < 400; n++) {
      const turns = legalShortTurns(rules, position, random.dice());
      if (!turns.ok) throw new Error(turns.error.message);
      const chosen = random.pick(turns.value.turns);
      if (chosen.gameOver) break;
      position = chosen.position;
      if (position.board[25] + position.board[26] > 0) bar.push(position);
      else if (position.board[0] + position.board[27] > 0) off.push(position);
      else if (n % 11 === 0) other.push(position);
    }
  }
  const third = Math.ceil(count / 3);
  return [...bar.slice(0, third), ...off.slice(0, third), ...other].slice(0, count);
}
