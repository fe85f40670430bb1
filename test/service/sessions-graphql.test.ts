import request from 'supertest';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { SeededRandom } from '../../src/engine/random';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { testApp } from '../support/app';

/* Complete games through GraphQL mutations, for every preset. */

const PRESETS = ['long', 'nardgammon', 'crazy', 'gulbar', 'crazy-gulbar', 'khachapuri', 'fevga', 'giul', 'gulbara-intl', 'backgammon', 'short-soviet'];

const GAME_FIELDS = `id status version game dice positionId expects { seat action }
  legalTurns { steps { from to } notation } result { winner result points rule }
  match { length score { white black } winner }`;

let app: App;
beforeAll(async () => {
  app = await testApp({ services: buildServices({ seeds: deterministicSeeds('graphql-tests') }) });
});
afterAll(async () => {
  await app.close();
});

async function gql(query: string, variables: object, token?: string) {
  const req = request(app.app).post('/graphql');
  if (token) req.set('authorization', `Bearer ${token}`);
  const res = await req.send({ query, variables });
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data;
}

describe('sessions over GraphQL', () => {
  it.each(PRESETS)('%s: two players play a complete seeded game', async (variant) => {
    const created = (
      await gql(`mutation($input: CreateGameInput!) { createGame(input: $input) { id seats { white { token } black { token } } state { ${GAME_FIELDS} } } }`, {
        input: { variant: variant.replace(/-/g, '_'), match: { length: 1 } },
      })
    ).createGame;
    const tokens = { white: created.seats.white.token, black: created.seats.black.token };
    let state = created.state;
    const random = new SeededRandom(23);
    let actions = 0;
    while (state.status === 'playing' && actions < 20000) {
      const { seat, action } = state.expects;
      const token = tokens[seat as 'white' | 'black'];
      if (action === 'play') {
        const turn = random.pick(state.legalTurns as { steps: { from: number; to: number }[] }[]);
        state = (await gql(`mutation($id: ID!, $play: PlayInput!) { playTurn(id: $id, play: $play) { ${GAME_FIELDS} } }`, { id: created.id, play: { steps: turn.steps } }, token)).playTurn;
      } else {
        const name = action === 'respond' ? 'take' : action;
        state = (await gql(`mutation($id: ID!, $action: SessionAction!) { gameAction(id: $id, action: $action) { ${GAME_FIELDS} } }`, { id: created.id, action: name }, token)).gameAction;
      }
      actions++;
    }
    expect(state.status).toBe('finished');
    expect(state.result.winner).toMatch(/white|black/);
    const history = (await gql('query($id: ID!) { gameHistory(id: $id) { type seat } }', { id: created.id })).gameHistory;
    expect(history.at(-1).type).toBe('game-over');
    const fairness = (await gql('query($id: ID!) { gameFairness(id: $id) { games { commitment seed rolls { dice } } } }', { id: created.id })).gameFairness;
    expect(fairness.games[0].seed).toMatch(/^[0-9a-f]{64}$/);
  });

  it('errors carry the same codes as REST: a missing token is UNAUTHORIZED', async () => {
    const created = (await gql('mutation { createGame(input: {variant: long}) { id state { expects { seat } } } }', {})).createGame;
    const res = await request(app.app)
      .post('/graphql')
      .send({ query: 'mutation($id: ID!) { gameAction(id: $id, action: roll) { version } }', variables: { id: created.id } });
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    const bad = await request(app.app)
      .post('/graphql')
      .send({ query: 'mutation($id: ID!) { gameAction(id: $id, action: jump) { version } }', variables: { id: created.id } });
    // Actions are the enum SessionAction: an unknown one is refused before anything runs.
    expect(bad.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(bad.body.errors[0].message).toBe('Value "jump" does not exist in "SessionAction" enum.');
  });

  it('action options sent as null are absent, as REST without the headers; a stale expectedVersion is VERSION_CONFLICT', async () => {
    const created = (await gql('mutation { createGame(input: {variant: long}) { id seats { white { token } black { token } } state { version expects { seat } } } }', {})).createGame;
    const seat = created.state.expects.seat as 'white' | 'black';
    const token = created.seats[seat].token;
    const roll = 'mutation($id: ID!, $options: ActionOptions) { gameAction(id: $id, action: roll, options: $options) { version } }';
    const stale = await request(app.app)
      .post('/graphql')
      .set('authorization', `Bearer ${token}`)
      .send({ query: roll, variables: { id: created.id, options: { expectedVersion: created.state.version + 5 } } });
    expect(stale.body.errors[0].extensions.code).toBe('VERSION_CONFLICT');
    // The Idempotency-Key header's bounds (1..200 characters, openapi.yaml) hold for the option.
    for (const idempotencyKey of ['', 'k'.repeat(201)]) {
      const refused = await request(app.app)
        .post('/graphql')
        .set('authorization', `Bearer ${token}`)
        .send({ query: roll, variables: { id: created.id, options: { idempotencyKey } } });
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST' });
    }
    const rolled = (await gql(roll, { id: created.id, options: { expectedVersion: null, idempotencyKey: null } }, token)).gameAction;
    expect(rolled.version).toBe(created.state.version + 1);
  });
});
