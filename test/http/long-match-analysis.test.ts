import request from 'supertest';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { testApp } from '../support/app';
import { Created, playThroughRest } from '../support/sessions';

/*
 * Whole-match analysis of long nardy and its variants as a job, end to end:
 * seeded self-play sessions of a representative set of presets (classic
 * in a 3-point match with the cube, a cascade preset, presets with re-rolls
 * and debts, Fevga) are exported in the long-nardy dialect, submitted to
 * POST /v1/analyses (the file; then the session id and GraphQL), analysed
 * with the committed networks at 0 plies and read back. Each report is
 * checked: every loss ≥ 0, the best play loses nothing, every play made is
 * legal in the position given, and the per-player totals are the sums of
 * the decisions.
 */

let app: App;
beforeAll(async () => {
  app = await testApp({
    services: buildServices({ seeds: deterministicSeeds('long-match-analysis'), analysisBudgetMs: 60_000 }),
  });
});
afterAll(() => app.close());

interface Decision {
  kind: 'move' | 'cube';
  player: string;
  moveNumber: number;
  dice: [number, number] | null;
  positionId: string;
  matchId: string | null;
  played: string;
  best: string;
  equityLoss: number;
  stage?: string;
  unforced?: boolean;
  close?: boolean;
  skill?: string | null;
  luck?: number;
  bestEquity?: number;
  playedEquity?: number;
  playedPositionIdAfter?: string;
  bestPositionIdAfter?: string;
  lastRoll?: boolean;
  situation: {
    cube: { value: number; owner: string } | null;
    score: { white: number; black: number } | null;
    length: number;
  };
}
interface PlayerReport {
  decisions: number;
  errorRate: number;
  doubtful: number;
  errors: number;
  blunders: number;
  luck: number;
  rating: number;
}
interface Report {
  players: Record<string, PlayerReport>;
  games: { number: number; decisions: Decision[] }[];
  variant: string;
}

async function finished(
  id: string,
): Promise<{ status: string; progress: { done: number; total: number }; result?: Report; error?: unknown }> {
  for (let i = 0; i < 6000; i++) {
    const res = await request(app.app).get(`/v1/analyses/${id}`);
    expect(res.status).toBe(200);
    if (['done', 'failed', 'cancelled'].includes(res.body.status)) return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the analysis did not finish');
}

async function selfPlay(
  body: object,
  seed: number,
  options: { doubleChance?: number; dropChance?: number } = {},
): Promise<{ id: string; text: string }> {
  const res = await request(app.app).post('/v1/games').send(body);
  expect(res.status).toBe(201);
  const created = res.body as Created;
  const { state } = await playThroughRest(app.app, created, seed, 20_000, options);
  expect(state.status).toBe('finished');
  const exported = await request(app.app).get(`/v1/games/${created.id}/export?format=mat`);
  expect(exported.status).toBe(200);
  return { id: created.id, text: exported.text };
}

/** Every play made is legal where the report says it was made, and lands where it says. */
async function checkPlays(variant: string, rules: object | undefined, decisions: Decision[]): Promise<void> {
  for (const d of decisions) {
    if (d.kind !== 'move' || d.played === 'no play' || d.lastRoll) continue;
    const res = await request(app.app)
      .post('/v1/moves/validate')
      .send({
        variant,
        ...(rules ? { rules } : {}),
        positionId: d.positionId,
        ...(d.dice ? { dice: d.dice } : {}),
        notation: d.played,
      });
    expect({
      at: `${d.player} ${d.moveNumber}`,
      status: res.status,
      legal: res.body.legal,
      complete: res.body.complete,
    }).toEqual({
      at: `${d.player} ${d.moveNumber}`,
      status: 200,
      legal: true,
      complete: true,
    });
    expect(res.body.positionId).toBe(d.playedPositionIdAfter);
  }
}

/** The report's own arithmetic: losses, marks and the per-player totals. */
function checkReport(report: Report, total: number): Decision[] {
  const decisions = report.games.flatMap((g) => g.decisions);
  expect(decisions.length).toBe(total);
  for (const d of decisions) {
    expect(d.equityLoss).toBeGreaterThanOrEqual(0);
    expect(d.matchId).toBeNull();
    if (d.kind === 'move' && d.unforced) {
      // The best play loses nothing; the play made loses best − played.
      expect(d.bestEquity).toBeGreaterThanOrEqual((d.playedEquity as number) - 1e-9);
      expect(d.equityLoss).toBeCloseTo((d.bestEquity as number) - (d.playedEquity as number), 5);
      if (d.bestPositionIdAfter === d.playedPositionIdAfter) expect(d.equityLoss).toBe(0);
    }
    if (d.kind === 'move' && !d.unforced) {
      expect(d.equityLoss).toBe(0);
      expect(d.best).toBe(d.played);
    }
    const expected =
      d.equityLoss > 0.12
        ? 'blunder'
        : d.equityLoss > 0.06
          ? 'error'
          : d.equityLoss > 0.03
            ? 'doubtful'
            : null;
    if (d.skill !== undefined) expect(d.skill).toBe(expected);
  }
  for (const [name, p] of Object.entries(report.players)) {
    const mine = decisions.filter((d) => d.player === name);
    const counted = mine.filter((d) => (d.kind === 'move' && d.unforced) || (d.kind === 'cube' && d.close));
    const loss = mine
      .filter((d) => d.kind === 'cube' || d.unforced)
      .reduce((sum, d) => sum + d.equityLoss, 0);
    expect(p.decisions).toBe(counted.length);
    expect(p.doubtful).toBe(mine.filter((d) => d.skill === 'doubtful').length);
    expect(p.errors).toBe(mine.filter((d) => d.skill === 'error').length);
    expect(p.blunders).toBe(mine.filter((d) => d.skill === 'blunder').length);
    if (p.decisions > 0) {
      expect(p.errorRate).toBeCloseTo((1000 * loss) / p.decisions, 0);
      expect(p.rating).toBeCloseTo((500 * loss) / p.decisions, 0);
    }
    expect(p.luck).toBeCloseTo(
      mine.reduce((sum, d) => sum + (d.luck ?? 0), 0),
      2,
    );
  }
  return decisions;
}

const CASES: { name: string; body: object; stages: string[]; cube?: boolean }[] = [
  {
    name: 'long (a 3-point match with the cube)',
    body: { variant: 'long', match: { length: 3 }, cube: true },
    stages: ['roll'],
    cube: true,
  },
  { name: 'crazy (cascades)', body: { variant: 'crazy' }, stages: ['roll', 'cascade'] },
  {
    name: 'crazy-gulbar (cascades and debts)',
    body: { variant: 'crazy-gulbar' },
    stages: ['roll', 'cascade', 'debt'],
  },
  { name: 'gulbar (re-rolls and debts)', body: { variant: 'gulbar' }, stages: ['roll', 'reroll', 'debt'] },
  { name: 'fevga', body: { variant: 'fevga' }, stages: ['roll'] },
];

/** The sessions analysed above, by variant. */
const sessions = new Map<string, string>();

describe('whole-match analysis of the long family', () => {
  it.each(CASES)(
    '$name: a seeded self-play match analysed as a job through REST',
    async ({ body, stages, cube }) => {
      const variant = (body as { variant: string }).variant;
      const { id, text } = await selfPlay(body, 21, cube ? { doubleChance: 0.05, dropChance: 0.3 } : {});
      sessions.set(variant, id);
      const submitted = await request(app.app).post('/v1/analyses').send({ format: 'mat', text, plies: 0 });
      expect(submitted.status).toBe(202);
      const job = await finished(submitted.body.id);
      expect(job.error).toBeUndefined();
      expect(job.status).toBe('done');
      const report = job.result as Report;
      expect(report.variant).toBe(variant);
      expect(Object.keys(report.players).sort()).toEqual(['Black', 'White']);
      const decisions = checkReport(report, job.progress.total);
      const seen = new Set(decisions.filter((d) => d.kind === 'move').map((d) => d.stage));
      for (const stage of stages) expect(seen).toContain(stage);
      expect(decisions.some((d) => d.unforced)).toBe(true);
      if (cube) {
        const actions = new Set(decisions.filter((d) => d.kind === 'cube').map((d) => d.played));
        expect(actions).toContain('no-double');
        expect(actions).toContain('double');
        expect(decisions.every((d) => d.situation.cube !== null && d.situation.length === 3)).toBe(true);
      } else {
        expect(decisions.every((d) => d.kind === 'move' && d.situation.cube === null)).toBe(true);
      }
      await checkPlays(variant, undefined, decisions);
    },
    240_000,
  );

  it('a long-family session by its id, and its file over GraphQL, are the same job as its file over REST', async () => {
    const id = sessions.get('crazy');
    expect(id).toBeDefined();
    const exported = await request(app.app).get(`/v1/games/${id}/export?format=mat`);
    const byId = await request(app.app).post('/v1/analyses').send({ gameId: id, plies: 0 });
    const byFile = await request(app.app)
      .post('/v1/analyses')
      .send({ format: 'mat', text: exported.text, plies: 0 });
    expect(byId.status).toBe(200);
    expect(byId.body.id).toBe(byFile.body.id);
    const graphql = await request(app.app)
      .post('/graphql')
      .send({
        query: 'mutation($input: MatchAnalysisInput!) { submitMatchAnalysis(input: $input) { id kind } }',
        variables: { input: { format: 'mat', text: exported.text, plies: 0 } },
      });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.submitMatchAnalysis.id).toBe(byId.body.id);
    const read = await request(app.app)
      .post('/graphql')
      .send({
        query: 'query($id: ID!) { job(id: $id) { status progress { done total } result } }',
        variables: { id: byId.body.id },
      });
    expect(read.body.errors).toBeUndefined();
    const job = read.body.data.job;
    expect(job.status).toBe('done');
    const decisions = checkReport(job.result as Report, job.progress.total);
    expect(decisions.some((d) => d.stage === 'cascade')).toBe(true);
  });

  it('refuses an illegal play in a long-family file at submission, naming the game and the line', async () => {
    const { text } = await selfPlay({ variant: 'long' }, 3);
    const first = /^ +1\) (White|Black) (\d)(\d): (\S+)/m.exec(text);
    expect(first).not.toBeNull();
    const [from, to] = first![4].split('/').map(Number);
    const bad = text.replace(first![0], `${first![0].slice(0, -first![4].length)}${from}/${to - 2}`);
    const res = await request(app.app).post('/v1/analyses').send({ format: 'mat', text: bad, plies: 0 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_MATCH_FILE', game: 1, move: 1 });
  }, 120_000);
});
