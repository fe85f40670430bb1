import { createHash } from 'crypto';
import { Dice, parseDice } from '../engine/dice';
import { Segment, parseNotation } from '../engine/notation';
import { Side } from '../engine/side';
import { Diagram, DiagramOptions, diagramOf, drawDiagram } from '../diagram';
import { CachedAnswer, HotCache } from './cache';
import { ServiceError, fail } from './errors';
import { Bound, ParsedState, withFamily } from '../engine/family';
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

/** No position: the opening of the variant with White to move (LN-INIT-1, SH-INIT-1); else the request's position, or its XGID where the family reads XGIDs. */
function readState<R, S>(bound: Bound<R, S>, body: DiagramQuery): ParsedState<S> {
  const text = body.xgid;
  if (text !== undefined) {
    for (const other of ['position', 'positionId', 'matchId'] as const) {
      if (body[other] !== undefined) fail('INVALID_REQUEST', `give either xgid or ${other}, not both`, { field: 'xgid' });
    }
    if (!bound.family.readXgid) fail('INVALID_REQUEST', 'an XGID describes a backgammon position; long variants take a positionId', { field: 'xgid' });
    const x = bound.family.readXgid(text);
    if (!x.ok) throw ServiceError.from(x.error);
    return x.value;
  }
  if (body.position === undefined && body.positionId === undefined) {
    if (body.matchId !== undefined) fail('INVALID_REQUEST', 'matchId goes with a gnubg positionId', { field: 'matchId' });
    return { state: bound.family.initial(bound.rules, 'white') };
  }
  const parsed = bound.family.parseState(bound.rules, { position: body.position, positionId: body.positionId, matchId: body.matchId });
  if (!parsed.ok) throw ServiceError.from(parsed.error);
  return parsed.value;
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
  return withFamily(bindNamed(input.variant, input.rules), (b) => diagramRequest(b, readState(b, input), input));
}

/** The checks, options and cache key of a request, and its diagram. */
function diagramRequest<R, S>(b: Bound<R, S>, read: ParsedState<S>, input: DiagramQuery): DiagramRequest {
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
  const m = read.match;
  // CUBE-1: a centred cube of 1 unless the IDs say otherwise; no cube where the rules play without it (LN-SCORE-5, §5.6).
  const config = b.family.cubeConfig(b.rules, undefined);
  const cube = config.ok && config.value.enabled ? (m ? { value: m.cubeValue, owner: m.cubeOwner } : { value: 1, owner: null }) : undefined;
  const diagram = diagramOf(b.family.family, b.family.board(read.state), {
    title: b.variant.title,
    dice: dice ?? null,
    ...(move ? { move } : {}),
    ...(cube ? { cube } : {}),
    ...(m ? { match: { length: m.matchLength, score: { white: m.score.white, black: m.score.black }, crawford: m.crawford } } : {}),
  });
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
