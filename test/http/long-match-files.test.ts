import request from 'supertest';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { makeMatchLog } from '../../src/engine/long/match-log';
import { LONG_PRESETS, LONG_VARIATIONS, importLongMatch } from '../../src/service/matches/long';
import { ServiceError } from '../../src/service/errors';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { testApp } from '../support/app';
import { Created, playThroughRest } from '../support/sessions';

/*
 * The long-nardy `.mat` dialect: seeded self-play sessions of every
 * long-family preset, exported (GET /v1/games/{id}/export?format=mat),
 * replayed through the session flow with the file's dice, and exported
 * again byte for byte.
 */

let app: App;
beforeAll(async () => {
  app = await testApp({ services: buildServices({ seeds: deterministicSeeds('long-match-files') }) });
});
afterAll(async () => {
  await app.close();
});

async function create(body: object): Promise<Created> {
  const res = await request(app.app).post('/v1/games').send(body);
  expect(res.status).toBe(201);
  return res.body as Created;
}

async function exported(id: string): Promise<string> {
  const res = await request(app.app).get(`/v1/games/${id}/export?format=mat`);
  expect(res.status).toBe(200);
  return res.text;
}

describe('the long-nardy .mat dialect', () => {
  it('covers every long-family preset', () => {
    expect([...LONG_PRESETS].sort()).toEqual(Object.keys(LONG_VARIATIONS).sort());
  });

  it.each(LONG_PRESETS)(
    '%s: a seeded self-play game round-trips (export → import → export is a fixed point)',
    async (variant) => {
      const created = await create({ variant });
      const { state } = await playThroughRest(app.app, created, 21);
      expect(state.status).toBe('finished');
      const text = await exported(created.id);
      expect(text).toContain(`; [Variation "${LONG_VARIATIONS[variant]}"]`);
      expect(makeMatchLog(importLongMatch(text))).toBe(text);
    },
  );

  it('a match to 3 with the cube (doubles, takes, drops) round-trips', async () => {
    const created = await create({ variant: 'long', match: { length: 3 }, cube: true });
    const { state, doubles } = await playThroughRest(app.app, created, 8, 20000, {
      doubleChance: 0.05,
      dropChance: 0.3,
    });
    expect(state.status).toBe('finished');
    expect(doubles).toBeGreaterThan(0);
    const text = await exported(created.id);
    expect(text).toMatch(/doubles => 2/);
    expect(makeMatchLog(importLongMatch(text))).toBe(text);
  });

  it('refuses an illegal play with 400 INVALID_MATCH_FILE naming the game and the move', async () => {
    const created = await create({ variant: 'long' });
    await playThroughRest(app.app, created, 4, 12);
    const text = await exported(created.id);
    const first = /^ +1\) (White|Black) (\d)(\d): (\S+)/m.exec(text);
    expect(first).not.toBeNull();
    // The first play moves a checker two points further than its die allows.
    const [from, to] = first![4].split('/').map(Number);
    const bad = text.replace(first![0], `${first![0].slice(0, -first![4].length)}${from}/${to - 2}`);
    let error: unknown;
    try {
      importLongMatch(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).body).toMatchObject({ code: 'INVALID_MATCH_FILE', game: 1, move: 1 });
  });

  it('refuses a file whose dice run out, and an unknown Variation', () => {
    expect(() =>
      importLongMatch('; [Variation "Chess"]\n\n 0 point match\n\n Game 1\n White : 0     Black : 0\n'),
    ).toThrow(/Variation/);
    expect(() =>
      importLongMatch('; [Variation "LongNardy"]\n\n 0 point match\n\n Game 1\n White : 0     Black : 0\n'),
    ).toThrow(/does not give/);
  });
});
