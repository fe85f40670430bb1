import { createHash } from 'crypto';
import { Dice, parseDice } from '../engine/dice';
import { Segment, parseNotation } from '../engine/notation';
import { Side } from '../engine/side';
import { ShortPosition } from '../engine/short/position';
import { parseXgid } from '../engine/short/xgid';
import { Diagram, DiagramCube, DiagramMatch, DiagramOptions, drawDiagram, longDiagram, shortDiagram } from '../diagram';
import { CachedAnswer, HotCache } from './cache';
import { ServiceError, fail } from './errors';
import { Bound } from '../engine/family';
import { bindNamed, rulesHash } from './request';
import { DiagramQuery } from '../contract/requests';

/*
 * `GET /v1/diagram` and the GraphQL `diagram` field: reads a position (a
 * position ID, gnubg IDs or an XGID, or the opening when none is given),
 * optional dice and a move in notation, and draws the board (src/diagram).
 * Both transports check the query against openapi.yaml's parameters of
 * GET /v1/diagram first (fields, lengths, the dice pattern, the size range,
 * the enums); what is read here is what the schema cannot say.
 */

/** The width in pixels when none is given (openapi.yaml's default fills it in at the edge). */
const DEFAULT_WIDTH = 600;

/** A request read and checked: what to draw and how. */
export interface DiagramRequest {
  readonly diagram: Diagram;
  readonly options: DiagramOptions;
  /** A canonical key of everything the drawing depends on. */
  readonly key: string;
}

/** `6,5`, `6-5` or `65` (the query's pattern). */
function readDice(value: string | undefined): Dice | undefined {
  if (value === undefined) return undefined;
  const digits = value.replace(/[,-]/, '');
  const dice = parseDice([Number(digits[0]), Number(digits[1])]);
  if (!dice.ok) throw ServiceError.from(dice.error);
  return dice.value;
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
function readState<R, S>(bound: Bound<R, S>, body: DiagramQuery, xgid?: (text: string) => ReadState<S>): ReadState<S> {
  const text = body.xgid;
  if (text !== undefined) {
    for (const other of ['position', 'positionId', 'matchId'] as const) {
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
  // A gnubg Match ID (backgammon) also gives the cube and the match score to draw.
  const m = parsed.value.match;
  if (m) {
    read.cube = { value: m.cubeValue, owner: m.cubeOwner };
    read.match = { length: m.matchLength, score: { white: m.score.white, black: m.score.black }, crawford: m.crawford };
  }
  return read;
}

/** The move to draw: notation in the mover's numbering; checked against the rules when the stage is known. */
function readMove<R, S>(bound: Bound<R, S>, state: S, dice: Dice | undefined, text: string | undefined): { text: string; segments: Segment[] } | undefined {
  if (text === undefined) return undefined;
  const segments = parseNotation(text, 'move');
  if (!segments.ok) throw ServiceError.from(segments.error);
  // COM-2: the bar (25) exists in short nardy only; long nardy has no hitting.
  const fault = bound.family.notationFault(segments.value);
  if (fault) throw new ServiceError({ ...fault, field: 'move' });
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
export function readDiagramRequest(input: DiagramQuery): DiagramRequest {
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
  input: DiagramQuery,
  draw: (read: ReadState<S>, extras: DiagramExtras) => Diagram,
): DiagramRequest {
  const given = readDice(input.dice);
  if (given && !b.family.needsDice(read.state)) {
    fail('STAGE_MISMATCH', 'this position owes a cascade or debt stage with known units: it takes no dice (TM-4, TM-7)', { field: 'dice', rule: 'TM-7' });
  }
  const dice = given ?? read.dice;
  const move = readMove(b, read.state, dice, input.move);
  const turn = b.family.sideToAct(read.state);
  const viewer: Side = input.orientation ?? turn;
  const options: DiagramOptions = {
    viewer,
    width: input.size ?? DEFAULT_WIDTH,
    theme: input.theme ?? 'light',
    labels: input.labels ?? viewer,
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
export function diagramSvgNow(input: DiagramQuery): string {
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
export async function diagram(input: DiagramQuery, format: DiagramFormat, cache: HotCache, rasterise: Rasterise): Promise<DiagramAnswer> {
  const request = readDiagramRequest(input);
  const answer = await cache.through(`diagram:${format}:${request.key}`, () => {
    const svg = drawDiagram(request.diagram, request.options);
    return format === 'svg' ? svg : rasterise(svg, request.options.width).toString('base64');
  });
  const text = answer.value ?? (JSON.parse(answer.json) as string);
  const body = format === 'svg' ? Buffer.from(text, 'utf8') : Buffer.from(text, 'base64');
  return { format, body, etag: contentEtag(body), cache: answer.cache };
}
