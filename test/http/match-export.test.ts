import request from 'supertest';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { makeMat, parseMat } from '../../src/engine/short/mat';
import { replayMatch } from '../../src/engine/short/match-record';
import { parseSgf } from '../../src/engine/short/sgf';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { createFakeEvaluator } from '../../src/eval/fake';
import { Analyzers, EvaluatorSet } from '../../src/service/analysis/evaluators';
import { AnalysisService } from '../../src/service/analysis/service';
import { planReplayedMatch } from '../../src/service/matches/analysis';
import { sessionMatch } from '../../src/service/matches/sessions';
import { testApp } from '../support/app';
import { Created, playThroughRest } from '../support/sessions';

/* A session written as a match file (GET /v1/games/{id}/export, GraphQL gameMatchFile). */

let app: App;
const services = buildServices({ seeds: deterministicSeeds('match-export') });
beforeAll(async () => {
  app = await testApp({ services });
});
afterAll(async () => {
  await app.close();
});

async function create(body: object): Promise<Created> {
  const res = await request(app.app).post('/v1/games').send(body);
  expect(res.status).toBe(201);
  return res.body as Created;
}

describe('GET /v1/games/{id}/export', () => {
  it('writes a seeded 5-point backgammon match with doubles, takes and drops as .mat and SGF that import to the same games and score', async () => {
    const created = await create({ variant: 'backgammon', match: { length: 5 } });
    const { state, doubles } = await playThroughRest(app.app, created, 11, 20000, {
      doubleChance: 0.08,
      dropChance: 0.3,
    });
    expect(state.status).toBe('finished');
    expect(doubles).toBeGreaterThan(0);
    const mat = await request(app.app).get(`/v1/games/${created.id}/export?format=mat`);
    expect(mat.status).toBe(200);
    expect(mat.type).toBe('text/plain');
    const parsed = parseMat(mat.text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const replayed = replayMatch(parsed.value);
    if (!replayed.ok) throw new Error(replayed.error.message);
    expect(replayed.value.finalScore).toEqual([state.match?.score.white, state.match?.score.black]);
    expect(makeMat(replayed.value.record)).toBe(mat.text);
    const sgf = await request(app.app).get(`/v1/games/${created.id}/export?format=sgf`);
    expect(sgf.status).toBe(200);
    const fromSgf = parseSgf(sgf.text);
    if (!fromSgf.ok) throw new Error(fromSgf.error.message);
    const again = replayMatch(fromSgf.value);
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.games.map((g) => g.decisions.map((d) => d.positionId))).toEqual(
      replayed.value.games.map((g) => g.decisions.map((d) => d.positionId)),
    );
    expect(again.value.finalScore).toEqual(replayed.value.finalScore);
  });

  it('gives the job layer a session to analyse, a game in progress included', async () => {
    const created = await create({ variant: 'backgammon', match: { length: 3 } });
    await playThroughRest(app.app, created, 5, 40);
    const match = await sessionMatch(services.sessions, created.id);
    expect(match.games.at(-1)?.winner).toBeNull();
    const fake: EvaluatorSet = {
      kind: 'fake',
      short: () => createFakeEvaluator({ family: 'short' }),
      long: () => createFakeEvaluator({ family: 'long' }),
    };
    const plan = planReplayedMatch(match, { plies: 0 }, new AnalysisService(new Analyzers(fake)));
    const report = await plan.run({ progress: () => {}, aborted: () => false });
    expect(Object.keys(report.players)).toEqual(['White', 'Black']);
    expect(report.games.flatMap((g) => g.decisions)).toHaveLength(plan.decisions);
  });

  it('writes a game in progress without its result, and answers the same through GraphQL', async () => {
    const created = await create({ variant: 'backgammon' });
    await playThroughRest(app.app, created, 3, 9);
    const rest = await request(app.app).get(`/v1/games/${created.id}/export?format=mat`);
    expect(rest.status).toBe(200);
    expect(rest.text).toMatch(
      /^; \[Variation "backgammon"\]\n; \[Jacoby "Off"\]\n\n 0 point match\n\n Game 1\n White : 0 +Black : 0\n +1\) /,
    );
    expect(rest.text).not.toMatch(/Wins/);
    const gql = await request(app.app)
      .post('/graphql')
      .send({
        query: 'query($id: ID!) { gameMatchFile(id: $id, format: "mat") }',
        variables: { id: created.id },
      });
    expect(gql.body.data.gameMatchFile).toBe(rest.text);
  });

  it('refuses an unknown format (400), SGF of a long-family session (400) and an unknown game (404), as JSON', async () => {
    const short = await create({ variant: 'backgammon' });
    const bad = await request(app.app).get(`/v1/games/${short.id}/export?format=txt`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_REQUEST', field: 'format' });
    const long = await create({ variant: 'long' });
    const longAnswer = await request(app.app).get(`/v1/games/${long.id}/export?format=sgf`);
    expect(longAnswer.status).toBe(400);
    expect(longAnswer.headers['content-type']).toMatch(/^application\/json/);
    expect(longAnswer.body.error.code).toBe('INVALID_REQUEST');
    const missing = await request(app.app).get(`/v1/games/${'0'.repeat(32)}/export?format=mat`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.body.error.code).toBe('GAME_NOT_FOUND');
  });
});
