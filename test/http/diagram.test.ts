import request from 'supertest';
import { App } from '../../src/http/app';
import { seatCheckers } from '../../src/engine/long/position';
import { makeLongPositionId } from '../../src/engine/long/position-id';
import { LONG_PRESETS, LongPresetName } from '../../src/engine/long/rules';
import { Side } from '../../src/engine/side';
import { makeGnubgPositionId, makeMatchId } from '../../src/engine/short/gnubg-id';
import { shortSeat } from '../../src/engine/short/position';
import { SHORT_PRESETS, ShortPresetName } from '../../src/engine/short/rules';
import { testApp } from '../support/app';
import { decodePng, longSamples, readDiagram, shortSamples } from '../support/diagram';

/*
 * GET /v1/diagram and the GraphQL `diagram` field through the real app:
 * seeded self-play positions of every preset are drawn from their IDs and
 * read back, PNGs decode at the asked size, ETags answer 304, and bad input
 * gets the usual codes.
 */

let app: App;
beforeAll(async () => {
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

const SIDES: readonly Side[] = ['white', 'black'];

async function svgOf(query: Record<string, string>): Promise<string> {
  const res = await request(app.app).get('/v1/diagram').query(query);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
  return Buffer.isBuffer(res.body) ? res.body.toString('utf8') : res.text;
}

function expectStacks(svg: string, seats: Record<Side, { points: ArrayLike<number>; bar: number; off: number }>): void {
  const read = readDiagram(svg);
  let stacks = 0;
  for (const side of SIDES) {
    for (let p = 1; p <= 24; p++) {
      const count = seats[side].points[p];
      if (count > 0) {
        stacks++;
        expect(read.stacks.get(`${side}:${p}`)?.count).toBe(count);
      }
    }
    expect(read.bar[side] ?? 0).toBe(seats[side].bar);
    expect(read.off[side] ?? 0).toBe(seats[side].off);
  }
  expect(read.stacks.size).toBe(stacks);
}

describe('GET /v1/diagram draws self-play positions of every preset from their IDs', () => {
  it.each(Object.keys(LONG_PRESETS) as LongPresetName[])('%s', async (preset) => {
    for (const state of longSamples(preset, 400 + preset.length, 4)) {
      const svg = await svgOf({ variant: preset, positionId: makeLongPositionId(state) });
      const seat = (side: Side) => ({ ...seatCheckers(state.position, side), bar: 0 });
      expectStacks(svg, { white: seat('white'), black: seat('black') });
      const read = readDiagram(svg);
      if (state.pending.length > 0) expect(read.footer.some((l) => l.startsWith('Still to play'))).toBe(true);
    }
  });

  it.each(Object.keys(SHORT_PRESETS) as ShortPresetName[])('%s (gnubg IDs with the cube and the score)', async (preset) => {
    for (const [i, position] of shortSamples(preset, 80 + preset.length, 6).entries()) {
      const owner = i % 2 === 0 ? null : position.turn;
      const matchId = makeMatchId({
        cubeValue: owner ? 4 : 1,
        cubeOwner: owner,
        onRoll: position.turn,
        turn: position.turn,
        crawford: false,
        gameState: 'playing',
        doubleOffered: false,
        resignation: 'none',
        dice: [3, 1],
        matchLength: 5,
        score: { white: 1, black: 2 },
        jacoby: false,
      });
      const svg = await svgOf({ variant: preset, positionId: makeGnubgPositionId(position), matchId });
      const seat = (side: Side) => shortSeat(position, side);
      expectStacks(svg, { white: seat('white'), black: seat('black') });
      const read = readDiagram(svg);
      // §5.6: the Soviet rules play without the cube.
      expect(read.cube).toEqual(SHORT_PRESETS[preset].cube ? { value: owner ? 4 : 1, owner: owner ?? 'center' } : null);
      expect(read.dice).toEqual([3, 1]);
      expect(read.footer[0]).toContain('Match to 5: White 1, Black 2.');
    }
  });

  it('reads an XGID: cube, score, dice and the side on roll', async () => {
    const svg = await svgOf({ variant: 'backgammon', xgid: 'XGID=-b----E-C---eE---c-e----B-:1:-1:-1:42:3:4:1:7:10', orientation: 'white' });
    const read = readDiagram(svg);
    expect(read.cube).toEqual({ value: 2, owner: 'black' });
    expect(read.dice).toEqual([4, 2]);
    expect(read.desc).toContain('Black to move with 4-2');
    expect(read.footer[0]).toContain('Match to 7: White 3, Black 4 (Crawford game).');
    expect(read.stacks.get('white:6')?.count).toBe(5);
  });

  it('draws the opening when no position is given, and a legal move as arrows', async () => {
    const svg = await svgOf({ variant: 'long', dice: '6,5', move: '24/18/13' });
    const read = readDiagram(svg);
    expect(read.stacks.get('white:24')).toEqual({ count: 15, circles: 5, label: '15' });
    expect(read.arrows).toEqual([
      { from: 24, to: 18 },
      { from: 18, to: 13 },
    ]);
  });
});

describe('PNG, caching and the ETag', () => {
  it('rasterises the same drawing at the asked width (format=png or Accept: image/png)', async () => {
    const byQuery = await request(app.app).get('/v1/diagram').query({ variant: 'crazy-gulbar', positionId: '5_fAAABQAA8_PAA.d3333.d4444.d5555.d6666', format: 'png', size: '320' }).buffer(true);
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers['content-type']).toBe('image/png');
    expect(decodePng(byQuery.body as Buffer)).toEqual({ width: 320, height: 282 });
    const byAccept = await request(app.app).get('/v1/diagram').query({ variant: 'backgammon', size: '800' }).set('Accept', 'image/png').buffer(true);
    expect(byAccept.headers['content-type']).toBe('image/png');
    expect(decodePng(byAccept.body as Buffer)).toEqual({ width: 800, height: 704 });
  });

  it('answers 304 to If-None-Match with its content hash, and keeps the drawing in the hot cache', async () => {
    const query = { variant: 'gulbar', theme: 'dark' };
    const first = await request(app.app).get('/v1/diagram').query(query);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const second = await request(app.app).get('/v1/diagram').query(query);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.headers.etag).toBe(first.headers.etag);
    const again = await request(app.app).get('/v1/diagram').query(query).set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    const light = await request(app.app).get('/v1/diagram').query({ variant: 'gulbar' });
    expect(light.headers.etag).not.toBe(first.headers.etag);
  });
});

describe('bad input gets the usual codes', () => {
  it.each([
    [{ variant: 'nope' }, 400, 'UNKNOWN_VARIANT', 'variant'],
    [{ variant: 'long', positionId: 'not-an-id' }, 400, 'INVALID_POSITION_ID', 'positionId'],
    [{ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', matchId: 'zzzz' }, 400, 'INVALID_POSITION_ID', 'matchId'],
    [{ variant: 'backgammon', xgid: 'XGID=nonsense' }, 400, 'INVALID_POSITION_ID', 'xgid'],
    [{ variant: 'long', xgid: 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10' }, 400, 'INVALID_REQUEST', 'xgid'],
    [{ variant: 'long', dice: '7,1' }, 400, 'INVALID_DICE', 'dice'],
    [{ variant: 'long', size: '20' }, 400, 'INVALID_REQUEST', 'size'],
    [{ variant: 'long', theme: 'pink' }, 400, 'INVALID_REQUEST', 'theme'],
    [{ variant: 'long', colour: 'red' }, 400, 'UNKNOWN_FIELD', 'colour'],
    [{ variant: 'long', move: '24/x' }, 400, 'INVALID_NOTATION', 'move'],
    [{ variant: 'long', move: 'bar/20' }, 400, 'INVALID_NOTATION', 'move'],
    [{ variant: 'long', dice: '6,5', move: '24/18 24/19' }, 422, 'ILLEGAL_PLAY', 'move'],
    [{ variant: 'crazy', positionId: 'EBAA4_fAAAg__DA.c6666', dice: '6,5' }, 422, 'STAGE_MISMATCH', 'dice'],
  ])('%j → %i %s', async (query, status, code, field) => {
    const res = await request(app.app).get('/v1/diagram').query(query);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, field });
  });

  it('names the broken rule of an illegal move (LN-HEAD-1)', async () => {
    const res = await request(app.app).get('/v1/diagram').query({ variant: 'long', dice: '6,5', move: '24/18 24/19' });
    expect(res.body.error.violation).toMatchObject({ code: 'HEAD_RULE', rule: 'LN-HEAD-1', stepIndex: 1 });
  });
});

describe('GraphQL diagram', () => {
  it('returns the SVG text of the same drawing', async () => {
    const res = await request(app.app)
      .post('/graphql')
      .send({
        query: 'query($input: DiagramInput!) { diagram(input: $input) }',
        variables: { input: { variant: 'crazy', positionId: 'EBAA4_fAAAg__DA.c6666', move: '24/18', orientation: 'black' } },
      });
    expect(res.status).toBe(200);
    const read = readDiagram(res.body.data.diagram);
    expect(read.stacks.get('white:24')?.count).toBe(14);
    expect(read.arrows).toEqual([{ from: 24, to: 18 }]);
    const rest = await svgOf({ variant: 'crazy', positionId: 'EBAA4_fAAAg__DA.c6666', move: '24/18', orientation: 'black' });
    expect(res.body.data.diagram).toBe(rest);
  });

  it('answers a bad position with the same code', async () => {
    const res = await request(app.app)
      .post('/graphql')
      .send({ query: '{ diagram(input: {variant: long, positionId: "nope"}) }' });
    expect(res.body.errors[0].extensions.code).toBe('INVALID_POSITION_ID');
  });
});

describe('the footer', () => {
  it('keeps every line inside the view box, the stages owed included', async () => {
    const svg = await svgOf({ variant: 'crazy-gulbar', positionId: '5_fAAABQAA8_PAA.d3333.d4444.d5555.d6666', size: '900' });
    const lines = [...svg.matchAll(/class="footer-line">([^<]*)</g)].map((m) => m[1]);
    expect(lines.join(' ')).toContain('Black pays debts 3-3-3-3, 4-4-4-4, 5-5-5-5, 6-6-6-6');
    // 19 px DejaVu Sans: at most 0.62 em a character on average; the line starts at x = 74 of 1000.
    for (const line of lines) expect(74 + line.length * 19 * 0.62).toBeLessThanOrEqual(1000);
    const ys = [...svg.matchAll(/<text x="\d+" y="(\d+)"[^>]*class="footer-line"/g)].map((m) => Number(m[1]));
    expect(ys.length).toBe(lines.length);
    expect(Math.max(...ys)).toBeLessThanOrEqual(880);
  });
});
