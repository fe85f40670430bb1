import fc from 'fast-check';
import request from 'supertest';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';
import { runs } from '../support/runs';

/*
 * Abuse: malformed and hostile bodies (huge numbers, deep nesting,
 * prototype-pollution keys, wrong types, mutated valid requests) for every
 * REST operation and GraphQL field. No answer may be a 5xx, and the
 * process must keep serving.
 */

let app: App;
let gameId = '';
let token = '';
beforeAll(async () => {
  app = await testApp();
  const created = await request(app.app).post('/v1/games').send({ variant: 'long', cube: true });
  gameId = created.body.id;
  token = created.body.seats[created.body.state.expects.seat].token;
});
afterAll(async () => {
  await app.close();
});

const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'variant', 'position', 'dice', 'steps', 'rules', 'white', 'points', '24', 'off', 'bar', 'pending', 'units'),
  fc.string({ maxLength: 12 }),
);
const hostileLeaf = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.5, 15, 16, 25, -1, 7, 6, 'long', 'backgammon', 'white', '', null, true, false, [], {}),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 40 }),
);
const { value: hostile } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileLeaf,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 6 }),
  ),
}));
/** A nesting thousands of levels deep, as raw JSON text. */
const deepJson = fc.integer({ min: 100, max: 3000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n));

const VALID: Record<string, object> = {
  '/v1/moves': { variant: 'long', position: { turn: 'white', white: { points: { '24': 15 } }, black: { points: { '24': 15 } } }, dice: [6, 5] },
  '/v1/moves/validate': { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', matchId: 'MIEFAAAAAAAA', notation: '8/5 6/5' },
  '/v1/score': { variant: 'long', position: { turn: 'black', white: { points: {}, off: 15 }, black: { points: { '1': 15 } } }, cube: { value: 2, owner: 'white' } },
  '/v1/cube': { variant: 'backgammon', context: { onRoll: 'white' }, action: { type: 'double', by: 'white' } },
  '/v1/games': { variant: 'crazy', match: { length: 3 } },
  '/v1/evaluate': { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', plies: 0, cube: { value: 1, owner: 'center' }, match: { length: 5, score: { white: 1, black: 2 } } },
  '/v1/evaluate/batch': { positions: [{ variant: 'long', positionId: 'GAAA8_fAAAg__DA' }, { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', cube: { value: 1, owner: 'center' } }] },
  '/v1/moves/best': { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5], plies: 0, limit: 3 },
  // One subtree is mutated per run, so either bound keeps a run short.
  '/v1/rollout': { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 4, timeBudgetMs: 50, truncateAfter: 2, seed: 1 },
};

/** Replaces one random subtree of a valid request by a hostile value. */
function mutate(valid: unknown, path: number[], replacement: unknown): unknown {
  if (path.length === 0 || valid === null || typeof valid !== 'object') return replacement;
  const entries = Object.entries(valid as Record<string, unknown>);
  if (entries.length === 0) return replacement;
  const [key, inner] = entries[path[0] % entries.length];
  const copy: Record<string, unknown> = Array.isArray(valid) ? [...valid] as unknown as Record<string, unknown> : { ...(valid as Record<string, unknown>) };
  copy[key] = mutate(inner, path.slice(1), replacement);
  return copy;
}

async function noServerError(res: request.Response): Promise<void> {
  if (res.status >= 500) throw new Error(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  expect(res.body).toBeDefined();
}

describe('fuzz: no hostile input produces a 5xx', () => {
  for (const [path, valid] of Object.entries(VALID)) {
    it(`POST ${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            hostile.map((v) => JSON.stringify(v) ?? 'null'),
            fc.tuple(fc.array(fc.nat(), { maxLength: 4 }), hostile).map(([p, v]) => JSON.stringify(mutate(valid, p, v)) ?? 'null'),
            deepJson,
            fc.string({ maxLength: 60 }),
          ),
          async (body) => {
            await noServerError(await request(app.app).post(path).set('content-type', 'application/json').send(body));
          },
        ),
        { seed: 4242, numRuns: runs(150) },
      );
    });
  }

  it('session actions with a valid token and hostile bodies and headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('roll', 'play', 'double', 'take', 'drop', 'beaver', 'raccoon', 'resign', 'next-game', 'x', '..%2f'),
        hostile,
        fc.option(fc.string({ maxLength: 30 })),
        fc.option(fc.string({ maxLength: 30 })),
        async (action, body, ifMatch, key) => {
          const req = request(app.app).post(`/v1/games/${gameId}/${action}`).set('authorization', `Bearer ${token}`);
          if (ifMatch !== null) req.set('if-match', ifMatch.replace(/[^\x20-\x7e]/g, ''));
          if (key !== null) req.set('idempotency-key', key.replace(/[^\x20-\x7e]/g, ''));
          await noServerError(await req.send(JSON.stringify(body) ?? 'null').set('content-type', 'application/json'));
        },
      ),
      { seed: 77, numRuns: runs(150) },
    );
    for (const path of [`/v1/games/${'x'.repeat(500)}`, '/v1/games/%00', '/v1/games/__proto__/history', '/v1/games/constructor/fairness']) {
      await noServerError(await request(app.app).get(path));
    }
  });

  it('GraphQL: hostile variables for every field and random query text', async () => {
    const operations = [
      'query($input: MovesInput!) { moves(input: $input) { count } }',
      'query($input: ValidateInput!) { validateMove(input: $input) { legal } }',
      'query($input: ScoreInput!) { score(input: $input) { points } }',
      'query($input: CubeInput!) { cubeAction(input: $input) { cube } }',
      'query($input: EvaluateInput!) { evaluate(input: $input) { equity { cubeless } } }',
      'query($input: EvaluateBatchInput!) { evaluateBatch(input: $input) { count } }',
      'query($input: BestMovesInput!) { bestMoves(input: $input) { count } }',
      'query($input: RolloutInput!) { rollout(input: $input) { settings { seed } } }',
      'mutation($input: CreateGameInput!) { createGame(input: $input) { id } }',
      'query($id: ID!) { game(id: $id) { status } }',
      'mutation($id: ID!, $play: PlayInput!) { playTurn(id: $id, play: $play) { version } }',
      'mutation($id: ID!, $action: String!) { gameAction(id: $id, action: $action) { version } }',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.dictionary(fc.constantFrom('input', 'id', 'play', 'action', '__proto__'), hostile, { maxKeys: 4 }),
        async (query, variables) => {
          await noServerError(await request(app.app).post('/graphql').set('authorization', `Bearer ${token}`).send({ query, variables }));
        },
      ),
      { seed: 99, numRuns: runs(200) },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120 }), async (query) => {
        await noServerError(await request(app.app).post('/graphql').send({ query }));
      }),
      { seed: 100, numRuns: runs(100) },
    );
  });

  it('still serves after all of it', async () => {
    const res = await request(app.app).post('/v1/moves').send(VALID['/v1/moves']);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
  });
});
