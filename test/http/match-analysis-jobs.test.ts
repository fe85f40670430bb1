import request from 'supertest';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { readOracleText } from '../support/oracles';
import { testApp } from '../support/app';

/*
 * Whole-match analysis as a job over REST: a gnubg match file is checked
 * when submitted (a bad move is a 400 naming game and move, and nothing is
 * queued), analysed with the committed networks at 0 plies, and read back
 * with a report in the contract's shape.
 */

let app: App;
beforeAll(async () => {
  app = await testApp({ services: buildServices({ analysisBudgetMs: 60_000 }) });
});
afterAll(() => app.close());

const MAT = readOracleText('gnubg-matches/matches/m02-1pt.mat');

async function finished(id: string): Promise<{ status: string; result?: Record<string, unknown>; error?: unknown }> {
  for (let i = 0; i < 3000; i++) {
    const res = await request(app.app).get(`/v1/analyses/${id}`);
    if (['done', 'failed', 'cancelled'].includes(res.body.status)) return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the analysis did not finish');
}

describe('match analysis jobs', () => {
  it('analyses a gnubg match file and answers the report; the same file is the same job', async () => {
    const submitted = await request(app.app).post('/v1/analyses').send({ format: 'mat', text: MAT, plies: 0 });
    expect(submitted.status).toBe(202);
    expect(submitted.headers.location).toBe(`/v1/analyses/${submitted.body.id}`);
    expect(submitted.body.progress.total).toBeGreaterThan(30);
    const job = await finished(submitted.body.id);
    expect(job.status).toBe('done');
    const report = job.result as { players: Record<string, { decisions: number; errorRate: number }>; games: { decisions: { kind: string; equityLoss: number }[] }[] };
    expect(Object.keys(report.players).sort()).toEqual(['Noisy01', 'Noisy08']);
    const decisions = report.games.flatMap((g) => g.decisions);
    expect(decisions.length).toBe(submitted.body.progress.total);
    expect(decisions.every((d) => d.equityLoss >= 0)).toBe(true);
    const again = await request(app.app).post('/v1/analyses').send({ format: 'mat', text: MAT, plies: 0 });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(submitted.body.id);
  });

  it('reads a money .mat without a Jacoby tag with gnubg\'s default (on); the request may say otherwise (CUBE-5)', async () => {
    const session =
      ' 0 point match\n\n Game 1\n White : 0                      Black : 0\n' +
      '  1) 65: 24/18 18/13             61: 24/18 24/23\n' +
      '  2) 31: 8/5 6/5                 51: 23/18 6/5\n' +
      '  3) 33: 24/21 13/10 13/10 13/10 21: 6/5 6/4*\n';
    const cube = async (body: Record<string, unknown>) => {
      const submitted = await request(app.app).post('/v1/analyses').send({ format: 'mat', text: session, plies: 0, ...body });
      expect(submitted.status).toBe(202);
      const job = await finished(submitted.body.id);
      expect(job.status).toBe('done');
      const report = job.result as { games: { decisions: { kind: string }[] }[] };
      return { id: submitted.body.id as string, decisions: report.games.flatMap((g) => g.decisions).filter((d) => d.kind === 'cube') };
    };
    const byDefault = await cube({});
    const on = await cube({ jacoby: true });
    const off = await cube({ jacoby: false });
    expect(byDefault.decisions.length).toBeGreaterThan(0);
    expect(on.decisions).toEqual(byDefault.decisions);
    expect(off.decisions).not.toEqual(byDefault.decisions);
    expect(new Set([byDefault.id, on.id, off.id]).size).toBe(3);
    const bad = await request(app.app).post('/v1/analyses').send({ format: 'mat', text: session, jacoby: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('jacoby');
  });

  it('refuses an illegal move at submission, naming the game and the move', async () => {
    const broken = MAT.replace(/ 1\) (\d\d): [^\s]+/, ' 1) $1: 24/1');
    const res = await request(app.app).post('/v1/analyses').send({ format: 'mat', text: broken });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_MATCH_FILE');
    expect(res.body.error.message).toMatch(/game 1, move 1/);
    expect((await request(app.app).post('/v1/analyses').send({ format: 'xg', text: MAT })).status).toBe(400);
  });

  it('refuses, over REST and GraphQL alike (same code, same field), what breaks the request schema: plies outside 0..2, an unknown format, a file and a gameId', async () => {
    const cases: [Record<string, unknown>, string | undefined][] = [
      [{ format: 'mat', text: MAT, plies: 3 }, 'plies'],
      [{ format: 'mat', text: MAT, plies: -1 }, 'plies'],
      [{ format: 'txt', text: MAT }, 'format'],
      [{ format: 'mat', text: '' }, 'text'],
      [{ format: 'mat', text: MAT, gameId: 'g_1' }, undefined],
      [{ format: 'mat' }, 'text'],
      [{}, 'format'],
    ];
    const mutation = 'mutation($input: MatchAnalysisInput!) { submitMatchAnalysis(input: $input) { id } }';
    for (const [body, field] of cases) {
      const rest = await request(app.app).post('/v1/analyses').send(body);
      expect({ body, status: rest.status, code: rest.body.error?.code, field: rest.body.error?.field }).toEqual({ body, status: 400, code: 'INVALID_REQUEST', field });
      const graphql = await request(app.app).post('/graphql').send({ query: mutation, variables: { input: body } });
      const error = graphql.body.errors?.[0]?.extensions;
      expect({ body, code: error?.code, field: error?.field }).toEqual({ body, code: 'INVALID_REQUEST', field });
    }
    expect((await request(app.app).get('/v1/analyses/ma_none')).status).toBe(404);
  });

  it('is submitted over GraphQL too, as the same job', async () => {
    const res = await request(app.app)
      .post('/graphql')
      .send({ query: 'mutation($input: MatchAnalysisInput!) { submitMatchAnalysis(input: $input) { id kind } }', variables: { input: { format: 'mat', text: MAT, plies: 0 } } });
    expect(res.body.data.submitMatchAnalysis.kind).toBe('match-analysis');
    const rest = await request(app.app).post('/v1/analyses').send({ format: 'mat', text: MAT, plies: 0 });
    expect(rest.body.id).toBe(res.body.data.submitMatchAnalysis.id);
  });
});
