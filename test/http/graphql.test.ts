import request from 'supertest';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';
import { POSITION_FIELDS, fromGraphql, toGraphql } from '../support/graphql';

/* GraphQL answers exactly what REST answers, through the real schema. */

let app: App;
beforeAll(async () => {
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

const start = { turn: 'white', white: { points: { '24': 15 } }, black: { points: { '24': 15 } } };

const MOVES = `query($input: MovesInput!) { moves(input: $input) {
  variant dice diceUsed count stage { actor origin units headAllowance firstTurnException }
  turns { steps { from to } notation ${POSITION_FIELDS} positionId next { kind actor units stages winner } } } }`;
const VALIDATE = `query($input: ValidateInput!) { validateMove(input: $input) {
  legal complete remainingDice stage { actor origin units headAllowance firstTurnException }
  steps { from to } notation ${POSITION_FIELDS} positionId next { kind actor units stages winner }
  error { code message stepIndex rule } } }`;

function gql(query: string, variables: object) {
  return request(app.app).post('/graphql').send({ query, variables });
}



/** Drops the null fields GraphQL fills in for absent optional ones. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

describe('GraphQL parity with REST', () => {
  it.each([
    ['opening', { variant: 'long', position: start, dice: [6, 5] }],
    ['cascade', { variant: 'crazy', position: start, dice: [5, 5] }],
    ['debt', { variant: 'crazy-gulbar', position: { turn: 'white', white: { points: { '20': 1, '1': 14 } }, black: { points: { '20': 14, '5': 1 } } }, dice: [3, 3] }],
    ['backgammon by gnubg IDs', { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', matchId: 'MIEFAAAAAAAA' }],
    ['backgammon bar entry', { variant: 'backgammon', position: { turn: 'white', white: { points: { '13': 5, '8': 4, '6': 5 }, bar: 1 }, black: { points: { '6': 2, '13': 13 } } }, dice: [6, 1] }],
  ])('moves %s', async (_name, input) => {
    const rest = await request(app.app).post('/v1/moves').send(input);
    const res = await gql(MOVES, { input: toGraphql(input) });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.moves.variant).toBe(input.variant.replace(/-/g, '_'));
    expect(withoutNulls(fromGraphql(res.body.data.moves))).toEqual(withoutNulls(rest.body));
  });

  it.each([
    ['complete', { variant: 'long', position: start, dice: [6, 5], notation: '24/13' }],
    ['prefix', { variant: 'long', position: start, dice: [6, 5], steps: [{ from: 24, to: 18 }] }],
    ['illegal', { variant: 'long', position: start, dice: [6, 5], steps: [{ from: 24, to: 18 }, { from: 24, to: 19 }] }],
    ['backgammon must enter first', { variant: 'backgammon', position: { turn: 'white', white: { points: { '13': 5, '8': 4, '6': 5 }, bar: 1 }, black: { points: { '6': 2, '13': 13 } } }, dice: [6, 1], notation: '13/7 bar/24' }],
  ])('validateMove %s', async (_name, input) => {
    const rest = await request(app.app).post('/v1/moves/validate').send(input);
    const res = await gql(VALIDATE, { input: toGraphql(input) });
    expect(res.body.errors).toBeUndefined();
    expect(withoutNulls(fromGraphql(res.body.data.validateMove))).toEqual(withoutNulls(rest.body));
  });

  it('variants and health', async () => {
    const res = await request(app.app).post('/graphql').send({ query: '{ health { status } variants { name russian options { key default } } }' });
    expect(res.body.data.health.status).toBe('ok');
    expect(res.body.data.variants.map((v: { name: string }) => v.name)).toContain('giul');
  });

  it.each([
    ['16 checkers', { variant: 'long', position: { ...start, white: { points: { '24': 16 } } }, dice: [6, 5] }, 'WRONG_CHECKER_COUNT', 'position.white.points.24'],
    ['game over', { variant: 'long', position: { turn: 'black', white: { points: {}, off: 15 }, black: { points: { '1': 15 } } }, dice: [6, 5] }, 'GAME_OVER', 'position'],
  ])('errors carry the same code and field: %s', async (_label, input, code, field) => {
    const res = await gql(MOVES, { input: toGraphql(input) });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code, field });
    expect(JSON.stringify(res.body)).not.toContain('stacktrace');
    expect(JSON.stringify(res.body)).not.toContain('x'.repeat(50));
  });

  // One field is named one way whoever refuses it: the schema (before the rules run) or the rules.
  it.each([
    ['schema: notation too long', { notation: '24/18 '.repeat(40) }, 'INVALID_NOTATION', 'notation'],
    ['rules: notation from the bar in long nardy', { notation: 'bar/18' }, 'INVALID_NOTATION', 'notation'],
    ['schema: a die of 7', { dice: [7, 5], notation: '24/13' }, 'INVALID_DICE', 'dice[0]'],
    ['schema: a step past the bar', { steps: [{ from: 26, to: 18 }] }, 'INVALID_STEPS', 'steps[0].from'],
    ['schema: a negative count of checkers', { position: { ...start, white: { points: { '24': -1 } } }, notation: '24/13' }, 'INVALID_POSITION', 'position.white.points.24'],
    ['rules: 16 checkers', { position: { ...start, white: { points: { '24': 16 } } }, notation: '24/13' }, 'WRONG_CHECKER_COUNT', 'position.white.points.24'],
  ])('validateMove refusals name the field as REST does: %s', async (_label, change, code, field) => {
    const input = { variant: 'long', position: start, dice: [6, 5], ...change };
    const rest = await request(app.app).post('/v1/moves/validate').send(input);
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatchObject({ code, field });
    const res = await gql(VALIDATE, { input: toGraphql(input) });
    expect(res.body.errors[0].extensions).toMatchObject({ code, field, http: { status: rest.status } });
  });

  it('a game action\'s refusal names the field of its REST body, not the GraphQL argument', async () => {
    const created = await request(app.app).post('/v1/games').send({ variant: 'long' });
    const res = await gql('mutation($id: ID!, $play: PlayInput!) { playTurn(id: $id, play: $play) { version } }', { id: created.body.id, play: { notation: 'x'.repeat(201) } });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'INVALID_NOTATION', field: 'notation' });
  });

  it.each([
    ['unknown', 'chess'],
    ['long', 'x'.repeat(100)],
    ['REST alias', 'classic'],
  ])('a variant is the enum VariantName: an %s name is BAD_USER_INPUT before anything runs', async (_label, variant) => {
    const res = await gql(MOVES, { input: { variant, position: start, dice: [6, 5] } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].message).toContain('Value "');
    expect(res.body.errors[0].message).toContain('does not exist in "VariantName" enum');
  });

  it('a stateless game state answers a typed position', async () => {
    const res = await request(app.app).post('/graphql').send({ query: '{ newGameState(input: {variant: backgammon}) { position { turn white { points { point checkers } } } } }' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.newGameState.position.white.points).toEqual([
      { point: 24, checkers: 2 },
      { point: 13, checkers: 5 },
      { point: 8, checkers: 3 },
      { point: 6, checkers: 5 },
    ]);
  });

  it('a typed position lists each point once', async () => {
    const white = { points: [{ point: 24, checkers: 14 }, { point: 24, checkers: 1 }] };
    const res = await gql(MOVES, { input: { variant: 'long', position: { turn: 'white', white, black: { points: [{ point: 24, checkers: 15 }] } }, dice: [6, 5] } });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'INVALID_POSITION', field: 'position.white.points[1]' });
    expect(res.body.errors[0].message).toBe('point 24 is listed twice');
  });

  it('a query that is not valid GraphQL is a clean error', async () => {
    const res = await request(app.app).post('/graphql').send({ query: '{ moves { nope } }' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
