import request from 'supertest';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';
import { toGraphql } from '../support/graphql';

/*
 * POST /v1/score and /v1/cube (and their GraphQL fields): every scoring
 * definition selectable on both transports, with the same answers.
 */

let app: App;
beforeAll(async () => {
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

/** White has borne off all 15; Black's checkers as given. */
const finished = (black: Record<string, number>, blackOff = 0) => ({
  turn: 'black',
  white: { points: {}, off: 15 },
  black: { points: black, off: blackOff },
});

const SCORE_QUERY = `query($input: ScoreInput!) { score(input: $input) {
  winner result multiplier cubeValue points rule explanation checkersLeft
  match { length crawford score { white black } winner nextGameIsCrawford crawfordPlayed } } }`;

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

async function both(input: object): Promise<{ status: number; body: Record<string, unknown> }> {
  const rest = await request(app.app).post('/v1/score').send(input);
  const gql = await request(app.app).post('/graphql').send({ query: SCORE_QUERY, variables: { input: toGraphql(input) } });
  if (rest.status === 200) {
    expect(gql.body.errors).toBeUndefined();
    expect(withoutNulls(gql.body.data.score)).toEqual(withoutNulls(rest.body));
  } else {
    expect(gql.body.errors[0].extensions.code).toBe(rest.body.error.code);
  }
  return { status: rest.status, body: rest.body };
}

describe('POST /v1/score and the score query', () => {
  // Losers: one borne off; none off all home; none off with one on own 20 (start quarter); none off, nothing home.
  const losers = {
    oneOff: finished({ '1': 14 }, 1),
    allHome: finished({ '1': 5, '2': 5, '3': 5 }),
    startQuarter: finished({ '1': 14, '20': 1 }),
    noneHome: finished({ '9': 5, '10': 5, '12': 5 }),
  };
  const table: [string, object, keyof typeof losers, string, number][] = [
    ['K0 default', {}, 'oneOff', 'oin', 1],
    ['K0 default', {}, 'allHome', 'mars', 2],
    ['K0 default', {}, 'startQuarter', 'mars', 2],
    ['K3 koks=startQuarter', { scoring: { koks: 'startQuarter' } }, 'startQuarter', 'koks', 3],
    ['K4 koks=noneInHome', { scoring: { koks: 'noneInHome' } }, 'noneHome', 'koks', 3],
    ['K1/K2 homeMars=triple', { scoring: { homeMars: 'triple' } }, 'allHome', 'home-mars', 3],
    ['K5 sovietLike', { scoring: { mode: 'sovietLike' } }, 'noneHome', 'soviet-4', 4],
    ['K6 perChecker', { scoring: { mode: 'perChecker' } }, 'oneOff', 'per-checker', 14],
  ];
  it.each(table)('long, %s: %s', async (_label, rules, loser, result, points) => {
    const { status, body } = await both({ variant: 'long', rules, position: losers[loser] });
    expect(status).toBe(200);
    expect(body).toMatchObject({ winner: 'white', result, points });
  });

  it.each([
    ['khachapuri', 'oneOff', 'per-checker', 14],
    ['fevga', 'noneHome', 'mars', 2],
    ['giul', 'oneOff', 'oin', 1],
    ['crazy', 'allHome', 'mars', 2],
  ] as const)('%s scores its own way (%s → %s)', async (variant, loser, result, points) => {
    const { body } = await both({ variant, position: losers[loser] });
    expect(body).toMatchObject({ result, points });
  });

  it('the cube multiplies (LN-T34 e); a match moves on with Crawford', async () => {
    const { body } = await both({
      variant: 'long',
      position: losers.allHome,
      cube: { value: 2, owner: 'black', turned: true },
      match: { length: 5, score: { white: 2, black: 1 } },
    });
    expect(body).toMatchObject({ points: 4, cubeValue: 2, match: { score: { white: 6, black: 1 }, winner: 'white' } });
    const crawford = await both({ variant: 'long', position: losers.oneOff, match: { length: 5, score: { white: 3, black: 0 } } });
    expect(crawford.body.match).toMatchObject({ score: { white: 4, black: 0 }, nextGameIsCrawford: true });
  });

  it('resignation and a dropped double', async () => {
    const position = { turn: 'black', white: { points: { '24': 15 } }, black: { points: { '24': 15 } } };
    const resign = await both({ variant: 'long', position, resign: 'mars' });
    expect(resign.body).toMatchObject({ winner: 'white', result: 'resign-mars', points: 2 });
    const drop = await both({ variant: 'long', position, cube: { value: 4, owner: 'white' }, droppedBy: 'white' });
    expect(drop.body).toMatchObject({ winner: 'black', result: 'dropped-cube', points: 4 });
  });

  it('a position that is not finished is 422 GAME_NOT_OVER', async () => {
    const { status, body } = await both({ variant: 'long', position: { turn: 'white', white: { points: { '24': 15 } }, black: { points: { '24': 15 } } } });
    expect(status).toBe(422);
    expect((body.error as { code: string }).code).toBe('GAME_NOT_OVER');
  });

  it('LN-T35 the last-roll draw: both sides off', async () => {
    const { body } = await both({
      variant: 'long',
      rules: { lastRoll: 'drawIfCompletes' },
      position: { turn: 'white', white: { points: {}, off: 15 }, black: { points: {}, off: 15 } },
      firstMover: 'white',
    });
    expect(body).toMatchObject({ winner: null, result: 'draw', points: 0 });
  });

  it('Fevga never takes the cube (CUBE-7)', async () => {
    const { status, body } = await both({ variant: 'fevga', position: losers.oneOff, cube: { value: 2, owner: 'white' } });
    expect(status).toBe(422);
    expect((body.error as { code: string }).code).toBe('CUBE_DISABLED');
  });
});

describe('POST /v1/cube', () => {
  it('double, take, and the errors of the state machine', async () => {
    const doubled = await request(app.app)
      .post('/v1/cube')
      .send({ variant: 'long', context: { onRoll: 'white' }, action: { type: 'double', by: 'white' } });
    expect(doubled.status).toBe(200);
    expect(doubled.body.cube).toMatchObject({ value: 1, offered: { by: 'white' } });
    expect(doubled.body.legalActions.black).toEqual(expect.arrayContaining(['take', 'drop']));
    const taken = await request(app.app)
      .post('/v1/cube')
      .send({ variant: 'long', cube: doubled.body.cube, context: { onRoll: 'white' }, action: { type: 'take', by: 'black' } });
    expect(taken.body.cube).toMatchObject({ value: 2, owner: 'black', turned: true });
    const notOwned = await request(app.app)
      .post('/v1/cube')
      .send({ variant: 'long', cube: taken.body.cube, context: { onRoll: 'white' }, action: { type: 'double', by: 'white' } });
    expect(notOwned.status).toBe(422);
    expect(notOwned.body.error.code).toBe('CUBE_NOT_OWNED');
    const crawford = await request(app.app)
      .post('/v1/cube')
      .send({ variant: 'long', match: { length: 5, score: { white: 4, black: 2 } }, context: { onRoll: 'black' }, action: { type: 'double', by: 'black' } });
    expect(crawford.body.error.code).toBe('CRAWFORD_NO_DOUBLE');
    const afterRoll = await request(app.app)
      .post('/v1/cube')
      .send({ variant: 'long', context: { onRoll: 'white', rolled: true }, action: { type: 'double', by: 'white' } });
    expect(afterRoll.body.error.code).toBe('NOT_BEFORE_ROLL');
    const drop = await request(app.app)
      .post('/v1/cube')
      .send({ variant: 'long', cube: doubled.body.cube, context: { onRoll: 'white' }, action: { type: 'drop', by: 'black' } });
    expect(drop.body.gameOver).toMatchObject({ winner: 'white', result: 'dropped-cube', points: 1 });
    const gql = await request(app.app)
      .post('/graphql')
      .send({
        query: 'query($input: CubeInput!) { cubeAction(input: $input) { cube legalActions { white black } } }',
        variables: { input: { variant: 'long', context: { onRoll: 'white' }, action: { type: 'double', by: 'white' } } },
      });
    expect(gql.body.data.cubeAction).toEqual({ cube: doubled.body.cube, legalActions: doubled.body.legalActions });
  });

  it('refuses an unknown field of config, context or action on both transports (openapi.yaml closes them)', async () => {
    const base = { variant: 'long', context: { onRoll: 'white' }, action: { type: 'double', by: 'white' } };
    for (const [body, field] of [
      [{ ...base, config: { beaver: true, beavers: true } }, 'config.beavers'],
      [{ ...base, context: { onRoll: 'white', dice: [6, 5] } }, 'context.dice'],
      [{ ...base, action: { type: 'double', by: 'white', cube: 2 } }, 'action.cube'],
    ] as const) {
      const rest = await request(app.app).post('/v1/cube').send(body);
      expect(rest.status).toBe(400);
      expect(rest.body.error).toMatchObject({ code: 'UNKNOWN_FIELD', field });
      const gql = await request(app.app)
        .post('/graphql')
        .send({ query: 'query($input: CubeInput!) { cubeAction(input: $input) { cube } }', variables: { input: body } });
      expect(gql.body.errors[0].extensions).toMatchObject({ code: 'UNKNOWN_FIELD', field });
    }
  });
});
