import { createHash } from 'crypto';
import { Dice, parseDice } from '../engine/dice';
import { Segment, parseNotation } from '../engine/notation';
import { Side } from '../engine/side';
import { parseMatchId } from '../engine/short/gnubg-id';
import { ShortPosition } from '../engine/short/position';
import { parseXgid } from '../engine/short/xgid';
import { Diagram, DiagramCube, DiagramMatch, DiagramOptions, drawDiagram, longDiagram, shortDiagram } from '../diagram';
import { CachedAnswer, HotCache } from './cache';
import { ServiceError, fail } from './errors';
import { Bound } from '../engine/family';
import { bindNamed, checkKeys, isPlainObject, rulesHash } from './request';

/*
 * `GET /v1/diagram` and the GraphQL `diagram` field: reads a position (a
 * position ID, gnubg IDs or an XGID, or the opening when none is given),
 * optional dice and a move in notation, and draws the board (src/diagram).
 * REST gives every field as a query string; GraphQL gives typed values; both
 * are read here.
 */

export const DIAGRAM_KEYS = ['variant', 'rules', 'position', 'positionId', 'matchId', 'xgid', 'dice', 'move', 'orientation', 'size', 'theme', 'labels'];

export const DIAGRAM_SIZE = { min: 160, max: 2000, default: 600 } as const;

/** A request read and checked: what to draw and how. */
export interface DiagramRequest {
  readonly diagram: Diagram;
  readonly options: DiagramOptions;
  /** A canonical key of everything the drawing depends on. */
  readonly key: string;
}

function stringField(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) fail('INVALID_REQUEST', `${field} must be a string of at most ${max} characters`, { field });
  return value;
}

/** `6,5`, `6-5`, `65` (a query string) or `[6, 5]` (JSON). */
function readDice(value: unknown): Dice | undefined {
  if (value === undefined || value === null) return undefined;
  let input = value;
  if (typeof value === 'string') {
    const m = /^([1-6])[,-]?([1-6])$/.exec(value.trim());
    if (!m) fail('INVALID_DICE', 'dice are two values 1..6, e.g. 6,5', { field: 'dice' });
    input = [Number(m[1]), Number(m[2])];
  }
  const dice = parseDice(input);
  if (!dice.ok) throw ServiceError.from(dice.error);
  return dice.value;
}

function readSize(value: unknown): number {
  if (value === undefined || value === null) return DIAGRAM_SIZE.default;
  const size = typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : value;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < DIAGRAM_SIZE.min || size > DIAGRAM_SIZE.max) {
    fail('INVALID_REQUEST', `size is the width in pixels, an integer ${DIAGRAM_SIZE.min}..${DIAGRAM_SIZE.max}`, { field: 'size' });
  }
  return size;
}

function readChoice<T extends string>(body: Record<string, unknown>, field: string, allowed: readonly T[], fallback: T): T {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail('INVALID_REQUEST', `${field} must be one of ${allowed.join(', ')}`, { field });
  }
  return value as T;
}

interface ReadState<S> {
  state: S;
  dice?: Dice;
  cube?: DiagramCube;
  match?: DiagramMatch;
}

/** Backgammon: an XGID carries the position, the cube, the score and the dice. */
function fromXgid(text: string): ReadState<ShortPosition> {
  const x = parseXgid(text);
  if (!x.ok) throw ServiceError.from(x.error);
  const xgid = x.value;
  return {
    state: xgid.position,
    ...(xgid.dice ? { dice: xgid.dice } : {}),
    cube: { value: xgid.cubeValue, owner: xgid.cubeOwner },
    match: { length: xgid.matchLength, score: { white: xgid.score.white, black: xgid.score.black }, crawford: xgid.crawford },
  };
}

/** `xgid`: how the family reads an XGID (backgammon only). */
function readState<R, S>(bound: Bound<R, S>, body: Record<string, unknown>, xgid?: (text: string) => ReadState<S>): ReadState<S> {
  const text = stringField(body, 'xgid', 120);
  if (text !== undefined) {
    for (const other of ['position', 'positionId', 'matchId']) {
      if (body[other] !== undefined) fail('INVALID_REQUEST', `give either xgid or ${other}, not both`, { field: 'xgid' });
    }
    if (!xgid) fail('INVALID_REQUEST', 'an XGID describes a backgammon position; long variants take a positionId', { field: 'xgid' });
    return xgid(text);
  }
  if (body.position === undefined && body.positionId === undefined) {
    if (body.matchId !== undefined) fail('INVALID_REQUEST', 'matchId goes with a gnubg positionId', { field: 'matchId' });
    // No position: the opening of the variant with White to move (LN-INIT-1, SH-INIT-1).
    return { state: bound.family.initial(bound.rules, 'white') };
  }
  const parsed = bound.family.parseState(bound.rules, { position: body.position, positionId: body.positionId, matchId: body.matchId });
  if (!parsed.ok) throw ServiceError.from(parsed.error);
  const read: ReadState<S> = { state: parsed.value.state, ...(parsed.value.dice ? { dice: parsed.value.dice } : {}) };
  if (bound.family.family === 'short' && body.matchId !== undefined) {
    const m = parseMatchId(body.matchId);
    if (!m.ok) throw ServiceError.from(m.error);
    read.cube = { value: m.value.cubeValue, owner: m.value.cubeOwner };
    read.match = { length: m.value.matchLength, score: { white: m.value.score.white, black: m.value.score.black }, crawford: m.value.crawford };
  }
  return read;
}

/** The move to draw: notation in the mover's numbering; checked against the rules when the stage is known. */
function readMove<R, S>(bound: Bound<R, S>, state: S, dice: Dice | undefined, text: string | undefined): { text: string; segments: Segment[] } | undefined {
  if (text === undefined) return undefined;
  const segments = parseNotation(text, 'move');
  if (!segments.ok) throw ServiceError.from(segments.error);
  // COM-2: the bar (25) exists in short nardy only; long nardy has no hitting.
  if (bound.family.family === 'long' && segments.value.some((s) => s.from === 25)) {
    fail('INVALID_NOTATION', 'long nardy has no bar: steps go from a point 1..24', { field: 'move' });
  }
  if (dice || !bound.family.needsDice(state)) {
    const v = bound.family.validate(bound.rules, state, dice, { notation: text });
    if (!v.ok) throw new ServiceError({ ...v.error, field: 'move' });
    if (!v.value.legal) {
      const e = v.value.error;
      fail('ILLEGAL_PLAY', e.message, {
        field: 'move',
        violation: { code: e.code, message: e.message, ...(e.stepIndex !== undefined ? { stepIndex: e.stepIndex } : {}), ...(e.rule ? { rule: e.rule } : {}) },
      });
    }
  }
  return { text: text.trim(), segments: segments.value };
}

/** Reads and checks a diagram request; every failure names its field. */
export function readDiagramRequest(input: unknown): DiagramRequest {
  if (!isPlainObject(input)) fail('INVALID_REQUEST', 'the request must be an object', { field: '' });
  checkKeys(input, DIAGRAM_KEYS);
  const b = bindNamed(input.variant, input.rules);
  switch (b.kind) {
    case 'long':
      return diagramRequest(b, readState(b, input), input, (read, extras) => longDiagram(read.state, extras));
    case 'short': {
      const rules = b.rules;
      return diagramRequest(b, readState(b, input, fromXgid), input, (read, extras) => {
        // CUBE-1: a centred cube of 1 unless the IDs say otherwise; no cube where the variant has none (§5.6).
        const cube = rules.cube ? (read.cube ?? { value: 1, owner: null }) : undefined;
        return shortDiagram(read.state, { ...extras, ...(cube ? { cube } : {}), ...(read.match ? { match: read.match } : {}) });
      });
    }
  }
}

type DiagramExtras = { title: string; dice: Dice | null; move?: { text: string; segments: Segment[] } };

/** The checks, options and cache key common to both families; `draw` makes the family's diagram. */
function diagramRequest<R, S>(
  b: Bound<R, S>,
  read: ReadState<S>,
  input: Record<string, unknown>,
  draw: (read: ReadState<S>, extras: DiagramExtras) => Diagram,
): DiagramRequest {
  const given = readDice(input.dice);
  if (given && !b.family.needsDice(read.state)) {
    fail('STAGE_MISMATCH', 'this position owes a cascade or debt stage with known units: it takes no dice (TM-4, TM-7)', { field: 'dice', rule: 'TM-7' });
  }
  const dice = given ?? read.dice;
  const move = readMove(b, read.state, dice, stringField(input, 'move', 200));
  const turn = b.family.sideToAct(read.state);
  const viewer: Side = readChoice(input, 'orientation', ['white', 'black'] as const, turn);
  const options: DiagramOptions = {
    viewer,
    width: readSize(input.size),
    theme: readChoice(input, 'theme', ['light', 'dark'] as const, 'light'),
    labels: readChoice(input, 'labels', ['white', 'black', 'none'] as const, viewer),
  };
  const extras = { title: b.variant.title, dice: dice ?? null, ...(move ? { move } : {}) };
  const diagram = draw(read, extras);
  const key = [
    b.variant.name,
    rulesHash(b.rules),
    turn,
    b.family.positionId(read.state),
    dice ? dice.join('') : '-',
    move ? move.text : '-',
    diagram.cube ? `${diagram.cube.value}${diagram.cube.owner ?? 'c'}` : '-',
    diagram.match ? `${diagram.match.length}.${diagram.match.score.white}.${diagram.match.score.black}.${diagram.match.crawford ? 1 : 0}` : '-',
    options.viewer,
    options.width,
    options.theme,
    options.labels,
  ].join(':');
  return { diagram, options, key };
}

/** The SVG text of a diagram request. */
export function diagramSvgNow(input: unknown): string {
  const request = readDiagramRequest(input);
  return drawDiagram(request.diagram, request.options);
}

/** A strong validator of the bytes sent: their content hash. */
export function contentEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

export type DiagramFormat = 'svg' | 'png';

export interface DiagramAnswer {
  readonly format: DiagramFormat;
  readonly body: Buffer;
  readonly etag: string;
  readonly cache: CachedAnswer<string>['cache'];
}

/** Something that turns SVG text into PNG bytes (service/diagram-png.ts). */
export type Rasterise = (svg: string, width: number) => Buffer;

/**
 * `GET /v1/diagram`: the drawing as SVG, or as PNG rasterised from the same
 * SVG, through the hot-position cache (PNG bytes are kept as base64 text).
 */
export async function diagram(input: unknown, format: DiagramFormat, cache: HotCache, rasterise: Rasterise): Promise<DiagramAnswer> {
  const request = readDiagramRequest(input);
  const answer = await cache.through(`diagram:${format}:${request.key}`, () => {
    const svg = drawDiagram(request.diagram, request.options);
    return format === 'svg' ? svg : rasterise(svg, request.options.width).toString('base64');
  });
  const text = answer.value ?? (JSON.parse(answer.json) as string);
  const body = format === 'svg' ? Buffer.from(text, 'utf8') : Buffer.from(text, 'base64');
  return { format, body, etag: contentEtag(body), cache: answer.cache };
}
