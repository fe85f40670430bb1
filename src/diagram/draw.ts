import { HEAD as LONG_HEAD, otherPoint as otherLongPoint } from '../engine/long/board';
import { otherPoint as otherShortPoint } from '../engine/short/board';
import { Side, otherSide } from '../engine/side';
import { Diagram, DiagramArrow, DiagramFamily, DiagramOptions, DiagramStage, DiagramTheme } from './model';

/*
 * The board diagram as SVG text: a pure function of a `Diagram` and the
 * drawing options (no I/O), so the same text is sent as image/svg+xml,
 * rasterised to PNG and returned by GraphQL.
 *
 * Layout, in the viewer's own numbering v (COM-2) — the same for both
 * families (GEO-L3, GEO-S1): v1..v12 run along the bottom row from right to
 * left, v13..v24 along the top row from left to right, the bar splits each
 * row after six points, the borne-off tray is on the right. Seen this way
 * the viewer's home (v1..v6) is the bottom-right quarter in both games; in
 * long nardy the viewer's head is v24 (top right) and the opponent's is v12
 * (bottom left, COM-5), and both sides run counter-clockwise (GEO-L1).
 *
 * Every stack is a `<g class="stack">` whose data attributes say the side,
 * the point in that side's own numbering and the count, so that tests (and
 * scripts) read the drawing back without geometry.
 */

const WIDTH = 1000;
const HEIGHT = 880;
const POINT = 62;
const RADIUS = 28;
const CHECKER = 58;
const SHOWN = 5;
const LEFT = 74;
const BAR_LEFT = LEFT + 6 * POINT;
const BAR_WIDTH = 68;
const RIGHT = BAR_LEFT + BAR_WIDTH;
const INNER_RIGHT = RIGHT + 6 * POINT;
const TOP = 74;
const ROW = 290;
const GAP = 78;
const BOTTOM = TOP + 2 * ROW + GAP;
const MIDDLE = TOP + ROW + GAP / 2;
const TRAY_LEFT = INNER_RIGHT + 24;
const TRAY_WIDTH = 66;
const SLAB = 17;

/** The colours of one theme, each by its role in the drawing. */
interface Palette {
  readonly background: string;
  readonly frame: string;
  readonly board: string;
  readonly pointDark: string;
  readonly pointLight: string;
  readonly home: string;
  readonly text: string;
  readonly muted: string;
  readonly checker: Record<Side, { readonly fill: string; readonly stroke: string; readonly text: string }>;
  readonly arrow: string;
  readonly cube: string;
  readonly die: string;
  readonly pip: string;
}

type PlainColour = Exclude<keyof Palette, 'checker'>;
type CheckerColour = `${Side}.${keyof Palette['checker'][Side]}`;

/** Every colour of the drawing as one row: [role, light theme, dark theme]. */
const COLOURS: readonly (readonly [PlainColour | CheckerColour, string, string])[] = [
  ['background', '#ffffff', '#15171a'],
  ['frame', '#6b4a2b', '#3b2c1f'],
  ['board', '#f4e6c8', '#2d3a2f'],
  ['pointDark', '#9c4f2e', '#7a3b2a'],
  ['pointLight', '#d9b27c', '#8f7a55'],
  ['home', '#e9d4a6', '#36473a'],
  ['text', '#1d1d1d', '#ececec'],
  ['muted', '#5a5a5a', '#b4b4b4'],
  ['white.fill', '#fbfbf7', '#efefe6'],
  ['white.stroke', '#2b2b2b', '#9a9a9a'],
  ['white.text', '#1d1d1d', '#151515'],
  ['black.fill', '#2a2a2a', '#111111'],
  ['black.stroke', '#000000', '#8a8a8a'],
  ['black.text', '#f5f5f5', '#f0f0f0'],
  ['arrow', '#1565c0', '#64b5f6'],
  ['cube', '#fffdf5', '#e8e2cf'],
  ['die', '#ffffff', '#f4f4f4'],
  ['pip', '#1d1d1d', '#151515'],
];

/** One column of `COLOURS` as a palette. */
function palette(column: 1 | 2): Palette {
  const colour = new Map<string, string>(COLOURS.map((row) => [row[0], row[column]]));
  const plain = Object.fromEntries(COLOURS.filter((row) => !row[0].includes('.')).map((row) => [row[0], row[column]]));
  const checker = (side: Side) => ({
    fill: colour.get(`${side}.fill`) as string,
    stroke: colour.get(`${side}.stroke`) as string,
    text: colour.get(`${side}.text`) as string,
  });
  return { ...(plain as Record<PlainColour, string>), checker: { white: checker('white'), black: checker('black') } };
}

const PALETTES: Record<DiagramTheme, Palette> = { light: palette(1), dark: palette(2) };

const SIDE_NAME: Record<Side, string> = { white: 'White', black: 'Black' };

/** What differs between the families' boards, seen in the viewer's numbering. */
interface BoardLayout {
  /** COM-5: the same point in the other side's numbering. */
  readonly otherSidePoint: (p: number) => number;
  /** Left edge of the opponent's home: long v13..v18 (top left), short v19..v24 (top right). */
  readonly opponentHomeLeft: number;
  /** GEO-L1: the own point of each side's head; null where there is none (backgammon). */
  readonly head: number | null;
}

const LAYOUTS: Record<DiagramFamily, BoardLayout> = {
  long: { otherSidePoint: otherLongPoint, opponentHomeLeft: LEFT, head: LONG_HEAD },
  short: { otherSidePoint: otherShortPoint, opponentHomeLeft: RIGHT, head: null },
};

/** COM-5: the same point in the other side's numbering. */
export function otherSidePoint(family: DiagramFamily, p: number): number {
  return LAYOUTS[family].otherSidePoint(p);
}

/** A side's own point → the viewer's numbering. */
function viewerPoint(family: DiagramFamily, side: Side, viewer: Side, p: number): number {
  return side === viewer ? p : otherSidePoint(family, p);
}

/** Left edge of the column of viewer point v. */
function columnX(v: number): number {
  const column = v <= 12 ? 12 - v : v - 13;
  return column < 6 ? LEFT + column * POINT : RIGHT + (column - 6) * POINT;
}

function isTop(v: number): boolean {
  return v >= 13;
}

/** Centre of the i-th checker (from the edge) on viewer point v. */
function slot(v: number, i: number): { x: number; y: number } {
  const x = columnX(v) + POINT / 2;
  const k = Math.min(i, SHOWN - 1);
  const y = isTop(v) ? TOP + RADIUS + 1 + k * CHECKER : BOTTOM - RADIUS - 1 - k * CHECKER;
  return { x, y };
}

/** Centre of the i-th checker on the bar: the viewer's in the top half, the opponent's in the bottom half. */
function barSlot(viewersOwn: boolean, i: number): { x: number; y: number } {
  const k = Math.min(i, 3);
  const x = BAR_LEFT + BAR_WIDTH / 2;
  return viewersOwn ? { x, y: MIDDLE - GAP / 2 - RADIUS - 4 - k * CHECKER } : { x, y: MIDDLE + GAP / 2 + RADIUS + 4 + k * CHECKER };
}

function trayPoint(viewersOwn: boolean): { x: number; y: number } {
  return { x: TRAY_LEFT + TRAY_WIDTH / 2, y: viewersOwn ? BOTTOM - 60 : TOP + 60 };
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function n(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function text(x: number, y: number, content: string, attrs: string): string {
  return `<text x="${n(x)}" y="${n(y)}" ${attrs}>${escape(content)}</text>`;
}

function unitsText(units: readonly number[]): string {
  return units.join('-');
}

function stageText(stage: DiagramStage, actor: Side): string {
  const who = SIDE_NAME[actor];
  switch (stage.origin) {
    case 'roll':
      return `${who} rolls`;
    case 'reroll':
      return `${who} rolls again (re-roll)`;
    case 'cascade':
      return `${who} plays cascade ${unitsText(stage.units ?? [])}${stage.last ? ' (last stage)' : ''}`;
    case 'debt':
      return `${who} pays debt ${unitsText(stage.units ?? [])}`;
  }
}

/** The text alternative of the whole board (the SVG `<desc>`, also used by the board page). */
export function describeDiagram(d: Diagram): string {
  const parts: string[] = [`${d.title}. ${SIDE_NAME[d.turn]} to move`];
  if (d.dice) parts[0] += ` with ${d.dice[0]}-${d.dice[1]}`;
  parts[0] += '.';
  for (const side of ['white', 'black'] as const) {
    const seat = d.seats[side];
    const stacks: string[] = [];
    for (let p = 24; p >= 1; p--) if (seat.points[p] > 0) stacks.push(`${seat.points[p]} on ${p}`);
    if (seat.bar > 0) stacks.push(`${seat.bar} on the bar`);
    if (seat.off > 0) stacks.push(`${seat.off} off`);
    parts.push(`${SIDE_NAME[side]} (own numbering, ${seat.pips} pips): ${stacks.join(', ') || 'no checkers'}.`);
  }
  if (d.pending.length > 0) parts.push(`Still to play: ${d.pending.map((s) => stageText(s, d.turn)).join('; ')}.`);
  if (d.firstTurn) {
    const first = (['white', 'black'] as const).filter((s) => d.firstTurn?.[s]).map((s) => SIDE_NAME[s]);
    if (first.length > 0) parts.push(`First turn still to play: ${first.join(' and ')}.`);
  }
  if (d.cube) parts.push(`Cube ${d.cube.value}, ${d.cube.owner ? `owned by ${SIDE_NAME[d.cube.owner]}` : 'centred'}.`);
  if (d.match) parts.push(matchText(d.match));
  if (d.moveText !== undefined) parts.push(`Move drawn: ${d.moveText || 'no move'}.`);
  return parts.join(' ');
}

function matchText(match: NonNullable<Diagram['match']>): string {
  if (match.length === 0) return 'Money game.';
  return `Match to ${match.length}: White ${match.score.white}, Black ${match.score.black}${match.crawford ? ' (Crawford game)' : ''}.`;
}

function drawPoints(d: Diagram, o: DiagramOptions, c: Palette): string {
  let out = '<g class="points">';
  for (let v = 1; v <= 24; v++) {
    const x = columnX(v);
    const fill = v % 2 === 0 ? c.pointDark : c.pointLight;
    const tip = isTop(v) ? TOP + ROW - 16 : BOTTOM - ROW + 16;
    const base = isTop(v) ? TOP : BOTTOM;
    out += `<polygon class="point" data-viewer-point="${v}" points="${x},${base} ${x + POINT},${base} ${x + POINT / 2},${tip}" fill="${fill}"/>`;
  }
  out += '</g>';
  if (o.labels !== 'none') {
    const labelSide = o.labels;
    out += `<g class="labels" font-size="17" fill="${c.muted}" text-anchor="middle">`;
    for (let v = 1; v <= 24; v++) {
      const label = labelSide === o.viewer ? v : otherSidePoint(d.family, v);
      const y = isTop(v) ? TOP - 20 : BOTTOM + 32;
      out += text(columnX(v) + POINT / 2, y, String(label), `class="label" data-viewer-point="${v}"`);
    }
    out += '</g>';
  }
  return out;
}

/** Tints of both homes and, where the family has them, the heads (GEO-L2). */
function drawQuarters(d: Diagram, o: DiagramOptions, c: Palette): string {
  const opponent = otherSide(o.viewer);
  const { opponentHomeLeft, head } = LAYOUTS[d.family];
  let out = `<rect class="home" data-side="${o.viewer}" x="${RIGHT}" y="${MIDDLE + GAP / 2}" width="${6 * POINT}" height="${ROW}" fill="${c.home}"/>`;
  out += `<rect class="home" data-side="${opponent}" x="${opponentHomeLeft}" y="${TOP}" width="${6 * POINT}" height="${ROW}" fill="${c.home}"/>`;
  out += text(RIGHT + 6, MIDDLE + GAP / 2 - 6, `${SIDE_NAME[o.viewer]} home`, `font-size="15" fill="${c.muted}"`);
  out += text(opponentHomeLeft + 6, MIDDLE - GAP / 2 + 18, `${SIDE_NAME[opponent]} home`, `font-size="15" fill="${c.muted}"`);
  if (head !== null) {
    // GEO-L1: each head is own point 24 — the viewer's at v24, the opponent's at v12.
    for (const side of [o.viewer, opponent]) {
      const v = viewerPoint(d.family, side, o.viewer, head);
      const x = columnX(v);
      const y = isTop(v) ? MIDDLE - GAP / 2 + 18 : MIDDLE + GAP / 2 - 6;
      out += `<rect class="head" data-side="${side}" x="${x + 2}" y="${isTop(v) ? TOP : BOTTOM - 8}" width="${POINT - 4}" height="8" fill="${c.checker[side].fill}" stroke="${c.checker[side].stroke}"/>`;
      // The heads are corner points: anchor the label inside the board.
      const atLeft = x === LEFT;
      out += text(atLeft ? x + 2 : x + POINT - 2, y, `${SIDE_NAME[side]} head`, `font-size="13" fill="${c.muted}" text-anchor="${atLeft ? 'start' : 'end'}"`);
    }
  }
  return out;
}

function checkerCircle(x: number, y: number, side: Side, c: Palette): string {
  return `<circle class="checker" cx="${n(x)}" cy="${n(y)}" r="${RADIUS}" fill="${c.checker[side].fill}" stroke="${c.checker[side].stroke}" stroke-width="2"/>`;
}

function countLabel(x: number, y: number, count: number, side: Side, c: Palette): string {
  return text(x, y + 8, String(count), `class="count" font-size="24" font-weight="bold" text-anchor="middle" fill="${c.checker[side].text}"`);
}

function drawStacks(d: Diagram, o: DiagramOptions, c: Palette): string {
  let out = '<g class="checkers">';
  for (const side of ['white', 'black'] as const) {
    const seat = d.seats[side];
    for (let p = 1; p <= 24; p++) {
      const count = seat.points[p];
      if (!count) continue;
      const v = viewerPoint(d.family, side, o.viewer, p);
      out += `<g class="stack" data-side="${side}" data-point="${p}" data-viewer-point="${v}" data-count="${count}">`;
      for (let i = 0; i < Math.min(count, SHOWN); i++) {
        const { x, y } = slot(v, i);
        out += checkerCircle(x, y, side, c);
      }
      // Stacks above five show their count on the outermost checker drawn.
      if (count > SHOWN) {
        const { x, y } = slot(v, SHOWN - 1);
        out += countLabel(x, y, count, side, c);
      }
      out += '</g>';
    }
    if (seat.bar > 0) {
      const own = side === o.viewer;
      out += `<g class="bar" data-target="bar" data-side="${side}" data-count="${seat.bar}">`;
      for (let i = 0; i < Math.min(seat.bar, 4); i++) {
        const { x, y } = barSlot(own, i);
        out += checkerCircle(x, y, side, c);
      }
      if (seat.bar > 1) {
        const { x, y } = barSlot(own, Math.min(seat.bar, 4) - 1);
        out += countLabel(x, y, seat.bar, side, c);
      }
      out += '</g>';
    }
    if (seat.off > 0) {
      const own = side === o.viewer;
      out += `<g class="off" data-target="off" data-side="${side}" data-count="${seat.off}">`;
      for (let i = 0; i < seat.off; i++) {
        const y = own ? BOTTOM - (i + 1) * SLAB : TOP + i * SLAB;
        out += `<rect class="borne-off" x="${TRAY_LEFT + 6}" y="${y + 1}" width="${TRAY_WIDTH - 12}" height="${SLAB - 2}" rx="3" fill="${c.checker[side].fill}" stroke="${c.checker[side].stroke}"/>`;
      }
      const labelY = own ? BOTTOM - seat.off * SLAB - 8 : TOP + seat.off * SLAB + 20;
      out += text(TRAY_LEFT + TRAY_WIDTH / 2, labelY, `${seat.off} off`, `font-size="15" text-anchor="middle" fill="${c.text}"`);
      out += '</g>';
    }
  }
  return out + '</g>';
}

function dieFace(x: number, y: number, value: number, size: number, c: Palette, cls: string): string {
  const q = size / 4;
  const spots: Record<number, [number, number][]> = {
    1: [[0, 0]],
    2: [[-1, -1], [1, 1]],
    3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  };
  let out = `<g class="${cls}" data-value="${value}"><rect x="${n(x - size / 2)}" y="${n(y - size / 2)}" width="${size}" height="${size}" rx="${n(size / 6)}" fill="${c.die}" stroke="#333" stroke-width="2"/>`;
  for (const [dx, dy] of spots[value] ?? []) out += `<circle cx="${n(x + dx * q)}" cy="${n(y + dy * q)}" r="${n(size / 11)}" fill="${c.pip}"/>`;
  return out + '</g>';
}

/** The dice in the half of the side to move (right for the viewer, left for the opponent, as at a real board). */
function drawDice(d: Diagram, o: DiagramOptions, c: Palette): string {
  const centre = d.turn === o.viewer ? RIGHT + 3 * POINT : LEFT + 3 * POINT;
  if (d.dice) {
    return dieFace(centre - 32, MIDDLE, d.dice[0], 50, c, 'die') + dieFace(centre + 32, MIDDLE, d.dice[1], 50, c, 'die');
  }
  const stage = d.pending[0];
  if (stage && stage.units) {
    // A cascade or debt stage has known units and no roll (TM-2, TM-4): small dice with its name.
    const units = stage.units;
    let out = `<g class="stage-dice" data-origin="${stage.origin}">`;
    const start = centre - ((units.length - 1) * 38) / 2;
    units.forEach((u, i) => {
      out += dieFace(start + i * 38, MIDDLE - 4, u, 32, c, 'unit');
    });
    out += text(centre, MIDDLE + 28, stage.origin, `font-size="13" text-anchor="middle" fill="${c.muted}"`);
    return out + '</g>';
  }
  return '';
}

/** Centre of where a step starts or ends, in the mover's own numbering (0 = off, 25 = bar). */
function stepPoint(d: Diagram, o: DiagramOptions, p: number, leaving: boolean): { x: number; y: number } {
  const own = d.turn === o.viewer;
  if (p === 0) return trayPoint(own);
  if (p === 25) return barSlot(own, 0);
  const v = viewerPoint(d.family, d.turn, o.viewer, p);
  const seat = d.seats[d.turn];
  const count = seat.points[p] ?? 0;
  return slot(v, leaving ? Math.max(count - 1, 0) : count);
}

function drawArrows(d: Diagram, o: DiagramOptions, c: Palette): string {
  if (d.arrows.length === 0) return '';
  let out = `<g class="move" data-side="${d.turn}">`;
  d.arrows.forEach((a: DiagramArrow, i) => {
    const from = stepPoint(d, o, a.from, true);
    const to = stepPoint(d, o, a.to, false);
    out += `<line class="arrow" data-from="${a.from}" data-to="${a.to}" data-index="${i}" x1="${n(from.x)}" y1="${n(from.y)}" x2="${n(to.x)}" y2="${n(to.y)}" stroke="${c.arrow}" stroke-width="6" stroke-linecap="round" marker-end="url(#arrowhead)" opacity="0.9"/>`;
    if (a.hit) out += `<circle class="hit" cx="${n(to.x)}" cy="${n(to.y)}" r="${RADIUS + 4}" fill="none" stroke="${c.arrow}" stroke-width="4" stroke-dasharray="6 5"/>`;
  });
  return out + '</g>';
}

/** CUBE-1: the cube sits on the owner's side of the board, in the middle when centred. */
function drawCube(d: Diagram, o: DiagramOptions, c: Palette): string {
  if (!d.cube) return '';
  const size = 50;
  const y = d.cube.owner === null ? MIDDLE - size / 2 : d.cube.owner === o.viewer ? BOTTOM - size - 4 : TOP + 4;
  // A centred cube shows 64, as on a real cube; the data attribute keeps its value.
  const face = d.cube.owner === null && d.cube.value === 1 ? 64 : d.cube.value;
  return (
    `<g class="cube" data-value="${d.cube.value}" data-owner="${d.cube.owner ?? 'center'}">` +
    `<rect x="10" y="${y}" width="${size}" height="${size}" rx="6" fill="${c.cube}" stroke="#333" stroke-width="2"/>` +
    text(35, y + 33, String(face), `font-size="${face >= 100 ? 16 : 22}" font-weight="bold" text-anchor="middle" fill="#1d1d1d"`) +
    '</g>'
  );
}

/**
 * The most characters a footer line holds: the view box's width right of the
 * board's left edge at 19 px DejaVu Sans, whose glyphs average under 0.62 em
 * (digits 0.64 em), with a margin.
 */
const FOOTER_CHARACTERS = Math.floor((WIDTH - LEFT - 20) / (19 * 0.62));

/** A text broken at spaces into lines of at most `max` characters (a longer word stays whole). */
function wrap(line: string, max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current && current.length + 1 + word.length > max) {
      out.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) out.push(current);
  return out;
}

/** The stages still owed, consecutive debts of one side together (`Black pays debts 3-3-3-3, 4-4-4-4`). */
function pendingText(d: Diagram): string {
  const parts: string[] = [];
  let debts: string[] = [];
  const flush = () => {
    if (debts.length > 0) parts.push(`${SIDE_NAME[d.turn]} pays ${debts.length > 1 ? 'debts' : 'debt'} ${debts.join(', ')}`);
    debts = [];
  };
  for (const stage of d.pending) {
    if (stage.origin === 'debt') {
      debts.push(unitsText(stage.units ?? []));
      continue;
    }
    flush();
    parts.push(stageText(stage, d.turn));
  }
  flush();
  return `Still to play: ${parts.join('; ')}`;
}

function footer(d: Diagram, c: Palette): string {
  const lines: string[] = [];
  const pipLine = `Pips: White ${d.seats.white.pips} · Black ${d.seats.black.pips}`;
  lines.push(d.match ? `${pipLine} · ${matchText(d.match)}` : pipLine);
  if (d.pending.length > 0) lines.push(...wrap(pendingText(d), FOOTER_CHARACTERS));
  if (d.firstTurn) {
    const first = (['white', 'black'] as const).filter((s) => d.firstTurn?.[s]).map((s) => SIDE_NAME[s]);
    lines.push(
      first.length > 0
        ? `First turn still to play: ${first.join(' and ')} (head rule LN-HEAD-2)`
        : 'Both sides move counter-clockwise from their heads',
    );
  }
  if (d.moveText !== undefined) lines.push(...wrap(`Move: ${d.moveText || '(none)'}`, FOOTER_CHARACTERS));
  let out = `<g class="footer" font-size="19" fill="${c.text}">`;
  lines.slice(0, 4).forEach((line, i) => {
    out += text(LEFT, BOTTOM + 14 + 46 + i * 24, line, `class="footer-line"`);
  });
  return out + '</g>';
}

/**
 * Draws a board diagram as a standalone SVG document (UTF-8 text). Pure:
 * the same diagram and options always give the same text.
 */
export function drawDiagram(d: Diagram, o: DiagramOptions): string {
  const c = PALETTES[o.theme];
  const height = Math.round((o.width * HEIGHT) / WIDTH);
  const title = `${d.title}: ${SIDE_NAME[d.turn]} to move${d.dice ? ` (${d.dice[0]}-${d.dice[1]})` : ''}`;
  const description = describeDiagram(d);
  let svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${o.width}" height="${height}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="diagram-title diagram-desc" font-family="DejaVu Sans, Verdana, sans-serif" data-family="${d.family}" data-turn="${d.turn}" data-viewer="${o.viewer}">` +
    `<title id="diagram-title">${escape(title)}</title><desc id="diagram-desc">${escape(description)}</desc>` +
    `<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${c.arrow}"/></marker></defs>` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${c.background}"/>` +
    text(LEFT, 30, title, `class="title" font-size="22" font-weight="bold" fill="${c.text}"`) +
    `<rect class="frame" x="${LEFT - 14}" y="${TOP - 14}" width="${INNER_RIGHT - LEFT + 28}" height="${BOTTOM - TOP + 28}" rx="8" fill="${c.frame}"/>` +
    `<rect x="${LEFT}" y="${TOP}" width="${6 * POINT}" height="${BOTTOM - TOP}" fill="${c.board}"/>` +
    `<rect x="${RIGHT}" y="${TOP}" width="${6 * POINT}" height="${BOTTOM - TOP}" fill="${c.board}"/>` +
    `<rect class="bar-strip" data-target="bar" x="${BAR_LEFT}" y="${TOP}" width="${BAR_WIDTH}" height="${BOTTOM - TOP}" fill="#000000" fill-opacity="0"/>` +
    `<rect class="tray" data-target="off" x="${TRAY_LEFT}" y="${TOP - 14}" width="${TRAY_WIDTH}" height="${BOTTOM - TOP + 28}" rx="6" fill="${c.frame}" opacity="0.55"/>`;
  svg += drawQuarters(d, o, c);
  svg += drawPoints(d, o, c);
  svg += drawStacks(d, o, c);
  svg += drawDice(d, o, c);
  svg += drawCube(d, o, c);
  svg += drawArrows(d, o, c);
  svg += footer(d, c);
  return svg + '</svg>';
}
