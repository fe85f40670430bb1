import request from 'supertest';
import { App } from '../../src/http/app';
import { SeededRandom } from '../../src/engine/random';
import { makeShortPositionJson } from '../../src/engine/short/position';
import { VARIANTS } from '../../src/engine/variants';
import { boardOf, GnubgCase, readGnubgCases } from '../engine/short/support/gnubg-cases';
import { LONG_ORACLE_PRESETS, readOracleCases } from '../support/oracles';
import { testApp } from '../support/app';

/*
 * Stateless game states over HTTP, as a game server uses them: whole games
 * to a result for every long-family preset and a backgammon match with the
 * cube, where every offered set of turns is the one POST /v1/moves lists;
 * offered turns against the oracles' legal sets (../shared/oracles); and
 * the refusals (403, 409, 422, 400 naming the field).
 */

let app: App;
beforeAll(async () => {
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

interface Answer {
  state: { rules: Record<string, unknown>; game: { position: object; dice: number[] | null }; match: unknown; status: string };
  expects: { seat: 'white' | 'black'; action: string } | null;
  allowed: Record<'white' | 'black', string[]>;
  events: { type: string }[];
  position: object;
  dice: number[] | null;
  turns?: { steps: { from: number; to: number }[]; notation: string; position: SidesJson }[];
  result?: { winner: string | null; points: number; matchScore?: { white: number; black: number } };
  match: { score: { white: number; black: number }; winner?: string } | null;
}

async function post(path: string, body: object, status = 200): Promise<Answer> {
  const res = await request(app.app).post(path).send(body);
  if (res.status !== status) throw new Error(`${path} ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Answer;
}

const apply = (body: object, status?: number) => post('/v1/game-states/apply', body, status);

/** The rule options of a state as POST /v1/moves takes them (every option, without the family). */
function overrides(rules: Record<string, unknown>): Record<string, unknown> {
  const { family: _family, ...options } = rules;
  return options;
}

/** One seeded action among the allowed ones, with seeded dice: a cube-happy player, as in the session tests. */
function choose(answer: Answer, random: SeededRandom): object {
  const seat = answer.expects!.seat;
  const mine = answer.allowed[seat];
  const die = () => 1 + Math.floor(random.next() * 6);
  if (mine.includes('roll-off')) return { seat, action: 'roll-off', dice: [die(), die()] };
  if (mine.includes('next-game')) return { seat, action: 'next-game' };
  if (mine.includes('double') && random.next() < 0.2) return { seat, action: 'double' };
  if (mine.includes('roll')) return { seat, action: 'roll', dice: [die(), die()] };
  if (mine.includes('take')) return { seat, action: random.next() < 0.8 ? 'take' : 'drop' };
  const turn = answer.turns![Math.floor(random.next() * answer.turns!.length)];
  return { seat, action: 'play', body: { notation: turn.notation } };
}

/** Plays a game (or match) to its end through the stateless API; every offered set of turns is checked against POST /v1/moves. */
async function playOut(options: object, seed: number): Promise<{ answer: Answer; actions: number; doubles: number }> {
  const random = new SeededRandom(seed);
  let answer = await post('/v1/game-states', options);
  let doubles = 0;
  for (let actions = 0; actions < 3000; actions++) {
    if (answer.state.status === 'finished') return { answer, actions, doubles };
    if (answer.expects?.action === 'play') {
      const variant = (options as { variant: string }).variant;
      const moves = await post('/v1/moves', { variant, rules: overrides(answer.state.rules), position: answer.position, ...(answer.dice ? { dice: answer.dice } : {}) });
      expect(answer.turns).toEqual((moves as unknown as { turns: unknown[] }).turns);
    } else expect(answer.turns).toBeUndefined();
    const action = choose(answer, random);
    if ((action as { action: string }).action === 'double') doubles++;
    answer = await apply({ state: answer.state, ...action });
  }
  throw new Error(`${JSON.stringify(options)} did not finish`);
}

interface SideJson {
  points: Record<string, number>;
  bar?: number;
  off?: number;
}
interface SidesJson {
  white: SideJson;
  black: SideJson;
}

/** Both sides' checkers, whatever the key order and zero entries: a resulting position compared by the board alone. */
function boardKey(p: SidesJson): string {
  const side = (s: SideJson) =>
    JSON.stringify([
      Object.entries(s.points)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => [Number(k), n])
        .sort((a, b) => a[0] - b[0]),
      s.bar ?? 0,
      s.off ?? 0,
    ]);
  return `${side(p.white)}|${side(p.black)}`;
}

/** A state a game server might hold: the position on roll, the side to move about to roll. */
function stateOnRoll(base: Answer['state'], turn: 'white' | 'black', position: object): object {
  return {
    ...base,
    expects: { seat: turn, action: 'roll' },
    game: { ...base.game, firstMover: turn, position, dice: null, opening: false },
  };
}

const LONG_PRESETS = VARIANTS.filter((v) => v.family === 'long').map((v) => v.name);

describe('stateless game states: whole games', () => {
  it.each(LONG_PRESETS)('%s: a game to its result, every offered set of turns as POST /v1/moves lists it', async (variant) => {
    const { answer, actions } = await playOut({ variant }, 11);
    expect(answer.result?.winner).toMatch(/white|black/);
    expect(answer.result?.points).toBeGreaterThan(0);
    expect(answer.allowed).toEqual({ white: [], black: [] });
    expect(actions).toBeGreaterThan(20);
  });

  it('backgammon: a match to 3 with the cube to its winner, the match score in the results', async () => {
    let doubled = 0;
    for (const seed of [3, 4]) {
      const { answer, doubles } = await playOut({ variant: 'backgammon', match: { length: 3 } }, seed);
      doubled += doubles;
      const winner = answer.match!.winner as 'white' | 'black';
      expect(answer.match!.score[winner]).toBeGreaterThanOrEqual(3);
      expect(answer.result?.matchScore).toEqual(answer.match!.score);
    }
    expect(doubled).toBeGreaterThan(0);
  });
});

interface LongCase {
  id: string;
  preset: string;
  config: Record<string, unknown>;
  position: SidesJson;
  turn: 'white' | 'black';
  firstTurn: { white: boolean; black: boolean };
  dice?: [number, number];
  units?: number[];
  expected: { results: { position: SidesJson }[] };
}

const ORACLE_PRESET = LONG_ORACLE_PRESETS;

describe('stateless game states: offered turns against the oracles', () => {
  it.each(Object.keys(ORACLE_PRESET))('long-nardy oracle, %s: a roll on a kept state offers exactly the oracle\'s legal results', async (preset) => {
    const variant = ORACLE_PRESET[preset];
    const base = (await post('/v1/game-states', { variant })).state;
    const cases = readOracleCases<LongCase>(`longnardy/cases-${preset}.jsonl`)
      .filter((c) => c.dice && !c.units && Object.keys(c.config).length === 0)
      .slice(0, 25);
    expect(cases.length).toBeGreaterThanOrEqual(20);
    let compared = 0;
    for (const c of cases) {
      const position = { turn: c.turn, ...c.position, firstTurn: c.firstTurn };
      const answer = await apply({ state: stateOnRoll(base, c.turn, position), seat: c.turn, action: 'roll', dice: c.dice });
      const wanted = c.expected.results.map((r) => boardKey(r.position)).sort();
      if (wanted.length === 0) {
        expect([c.id, answer.events.map((e) => e.type).slice(0, 2)]).toEqual([c.id, ['roll', 'no-play']]);
        continue;
      }
      const offered = [...new Set((answer.turns ?? []).map((t) => boardKey(t.position)))].sort();
      expect([c.id, offered]).toEqual([c.id, wanted]);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });

  it('gnubg oracle: a backgammon roll on a kept state offers exactly gnubg\'s legal results', async () => {
    const base = (await post('/v1/game-states', { variant: 'backgammon' })).state;
    // Every 25th case: the file groups its cases by kind (no-play positions together).
    const cases = readGnubgCases().filter((_, i) => i % 25 === 0);
    let compared = 0;
    for (const c of cases as GnubgCase[]) {
      const position = makeShortPositionJson({ turn: 'white', board: boardOf(c.board) });
      const answer = await apply({ state: stateOnRoll(base, 'white', position), seat: 'white', action: 'roll', dice: c.dice });
      const keyOf = (board: GnubgCase['board']) => boardKey(makeShortPositionJson({ turn: 'white', board: boardOf(board) }) as unknown as SidesJson);
      const wanted = c.moves.map((m) => keyOf(m.resultBoard)).sort();
      if (c.count === 0 || c.maxSteps === 0) {
        expect([c.id, answer.events.map((e) => e.type).slice(0, 2)]).toEqual([c.id, ['roll', 'no-play']]);
        continue;
      }
      const offered = (answer.turns ?? []).map((t) => boardKey(t.position)).sort();
      expect([c.id, offered]).toEqual([c.id, wanted]);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(40);
  });
});

describe('stateless game states: refusals', () => {
  async function whiteOnRoll(): Promise<Answer> {
    const created = await post('/v1/game-states', { variant: 'long' });
    return apply({ state: created.state, seat: 'black', action: 'roll-off', dice: [6, 2] });
  }

  it('the other seat is 403 NOT_YOUR_TURN; the expected seat sending another action 409 ACTION_NOT_EXPECTED; both with allowed', async () => {
    const answer = await whiteOnRoll();
    expect(answer.expects).toEqual({ seat: 'white', action: 'roll' });
    const res = await request(app.app).post('/v1/game-states/apply').send({ state: answer.state, seat: 'black', action: 'play', body: { notation: '24/18' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'NOT_YOUR_TURN', expects: { seat: 'white', action: 'roll' }, allowed: ['resign'] });
    const other = await request(app.app).post('/v1/game-states/apply').send({ state: answer.state, seat: 'white', action: 'play', body: { notation: '24/18' } });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'ACTION_NOT_EXPECTED', allowed: ['roll', 'resign'] });
  });

  it('an illegal play is 422 with the rule; a roll without dice 400 naming dice', async () => {
    const answer = await apply({ state: (await whiteOnRoll()).state, seat: 'white', action: 'roll', dice: [6, 5] });
    const res = await request(app.app)
      .post('/v1/game-states/apply')
      .send({ state: answer.state, seat: 'white', action: 'play', body: { steps: [{ from: 24, to: 18 }, { from: 24, to: 19 }] } });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'ILLEGAL_PLAY', violation: { code: 'HEAD_RULE', rule: 'LN-HEAD-1' } });
    const noDice = await request(app.app).post('/v1/game-states/apply').send({ state: (await whiteOnRoll()).state, seat: 'white', action: 'roll' });
    expect(noDice.status).toBe(400);
    expect(noDice.body.error).toMatchObject({ code: 'INVALID_REQUEST', field: 'dice' });
  });

  it('a malformed or impossible state is 400 naming its field: a wrong checker count, a stage that does not fit the position', async () => {
    const answer = await whiteOnRoll();
    const position = { ...answer.state.game.position, white: { points: { 24: 16 }, off: 0 } };
    const wrong = await request(app.app)
      .post('/v1/game-states/apply')
      .send({ state: { ...answer.state, game: { ...answer.state.game, position } }, seat: 'white', action: 'roll', dice: [1, 2] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'WRONG_CHECKER_COUNT', field: expect.stringMatching(/^state\.game\.position/) });
    const stage = await request(app.app)
      .post('/v1/game-states/apply')
      .send({ state: { ...answer.state, expects: { seat: 'white', action: 'play' } }, seat: 'white', action: 'play', body: { notation: '24/13' } });
    expect(stage.status).toBe(400);
    expect(stage.body.error).toMatchObject({ code: 'INVALID_REQUEST', field: 'state.expects' });
    const shape = await request(app.app).post('/v1/game-states/apply').send({ state: { variant: 'long' }, seat: 'white', action: 'roll', dice: [1, 2] });
    expect(shape.status).toBe(400);
    expect(shape.body.error.field).toMatch(/^state/);
  });

  it('the same over GraphQL: newGameState and applyGameState queries', async () => {
    const query = `query($create: CreateGameInput!) { newGameState(input: $create) { state expects { seat action } allowed { white black } } }`;
    const created = await request(app.app).post('/graphql').send({ query, variables: { create: { variant: 'backgammon' } } });
    expect(created.body.errors).toBeUndefined();
    const first = created.body.data.newGameState;
    expect(first.expects).toEqual({ seat: 'white', action: 'roll-off' });
    const apply = `query($input: ApplyGameStateInput!) { applyGameState(input: $input) { expects { seat action } dice stage { units } turns { notation } events { type dice } } }`;
    const rolled = await request(app.app)
      .post('/graphql')
      .send({ query: apply, variables: { input: { state: first.state, seat: 'black', action: 'roll-off', dice: [3, 1] } } });
    expect(rolled.body.errors).toBeUndefined();
    const answer = rolled.body.data.applyGameState;
    expect(answer.expects).toEqual({ seat: 'white', action: 'play' });
    expect(answer.dice).toEqual([3, 1]);
    expect(answer.turns.map((t: { notation: string }) => t.notation)).toContain('8/5 6/5');
    expect(answer.events).toEqual([{ type: 'roll-off', dice: [3, 1] }]);
    const refused = await request(app.app)
      .post('/graphql')
      .send({ query: apply, variables: { input: { state: first.state, seat: 'black', action: 'roll', dice: [3, 1] } } });
    // The roll-off is awaited from either seat: a roll is not what the state expects.
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'ACTION_NOT_EXPECTED', http: { status: 409 } });
  });
});
