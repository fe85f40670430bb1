import request from 'supertest';
import { VARIANTS } from '../../src/engine/variants';
import { cubeDecision } from '../../src/eval/cube/decision';
import { createFakeEvaluator } from '../../src/eval/fake';
import { Probabilities } from '../../src/eval/probabilities';
import { App } from '../../src/http/app';
import { buildServices } from '../../src/app';
import { Analyzers, EvaluatorSet } from '../../src/service/analysis/evaluators';
import { AnalysisService } from '../../src/service/analysis/service';
import { bindOpaque as bind } from '../../src/engine/family';
import { MemoryCache } from '../../src/service/store/memory';
import { testApp } from '../support/app';
import { POSITION_FIELDS, fromGraphql, toGraphql } from '../support/graphql';

/*
 * The analysis endpoints (POST /v1/evaluate, /v1/evaluate/batch,
 * /v1/moves/best, /v1/rollout and their GraphQL fields) with a fake
 * evaluator, so every number in an answer is known: the fake's win chance is
 * ½ + (opponent pips − own pips) / (2 × larger), mars chances a quarter of the
 * square of the win / loss chance, no koks (src/eval/fake.ts).
 */

function fakeSet(version = '1', probabilities?: Probabilities): EvaluatorSet {
  return {
    kind: 'fake',
    short: () => createFakeEvaluator({ family: 'short', version, probabilities }),
    long: () => createFakeEvaluator({ family: 'long', version, probabilities }),
  };
}

let app: App;
beforeAll(async () => {
  app = await testApp({ services: buildServices({ evaluators: fakeSet() }) });
});
afterAll(async () => {
  await app.close();
});

/** The starting position of a variant, White to move, as JSON. */
function startOf(name: string): object {
  const variant = VARIANTS.find((v) => v.name === name)!;
  const bound = bind(variant, undefined);
  if (!bound.ok) throw new Error(bound.error.message);
  return bound.value.family.positionView(bound.value.family.initial(bound.value.rules, 'white'));
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

const PROBS = 'win winMars winKoks loseMars loseKoks';
const EVALUATION = `variant positionId sideToMove probabilities { ${PROBS} } equity { cubeless cubeful }
  cubeDecision { action response equity noDouble doubleTake doublePass cubeless efficiency matchWinningChances { cubeless noDouble doubleTake doublePass } }
  pips { white black } race evaluator { name version plies requestedPlies }`;
const TURN = `steps { from to } notation ${POSITION_FIELDS} positionId next { kind actor units stages winner }`;

/** A GraphQL query of the REST input, its answer with the REST variant names (to compare with REST). */
async function gql(query: string, input: object): Promise<{ data?: Record<string, unknown>; errors?: { extensions: Record<string, unknown> }[] }> {
  const res = await request(app.app).post('/graphql').send({ query, variables: { input: toGraphql(input) } });
  const body = res.body as { data?: Record<string, unknown>; errors?: { extensions: Record<string, unknown> }[] };
  return { ...body, data: fromGraphql(body.data) as Record<string, unknown> | undefined };
}

describe('POST /v1/evaluate', () => {
  it.each(VARIANTS.map((v) => [v.name]))('%s: the start is even for the fake, on both transports', async (name) => {
    const input = { variant: name, position: startOf(name) };
    const rest = await request(app.app).post('/v1/evaluate').send(input);
    expect(rest.status).toBe(200);
    expect(rest.body.probabilities).toEqual({ win: 0.5, winMars: 0.0625, winKoks: 0, loseMars: 0.0625, loseKoks: 0 });
    expect(rest.body.equity).toEqual({ cubeless: 0 });
    expect(rest.body.evaluator).toEqual({ name: 'fake', version: '1', plies: 0, requestedPlies: 0 });
    expect(rest.body.sideToMove).toBe('white');
    expect(rest.body.pips.white).toBe(rest.body.pips.black);
    const g = await gql(`query($input: EvaluateInput!) { evaluate(input: $input) { ${EVALUATION} } }`, input);
    expect(withoutNulls(g.data?.evaluate)).toEqual(rest.body);
  });

  it('reports pips by colour and the fake formula for the side to move', async () => {
    // Black to move, 10 pips ahead in the race: win = ½ + 10 / (2 × 40).
    const position = { turn: 'black', white: { points: { '5': 8 }, off: 7 }, black: { points: { '3': 10 }, off: 5 } };
    const res = await request(app.app).post('/v1/evaluate').send({ variant: 'backgammon', position });
    expect(res.status).toBe(200);
    expect(res.body.pips).toEqual({ white: 40, black: 30 });
    expect(res.body.probabilities.win).toBeCloseTo(0.625, 6);
    expect(res.body.race).toBe(true);
  });

  it('money cube: the decision is the cube model on the evaluated probabilities, owner seen from the side to move', async () => {
    const p: Probabilities = { win: 0.72, winMars: 0.2, winKoks: 0.01, loseMars: 0.05, loseKoks: 0.002 };
    const fixed = await testApp({ services: buildServices({ evaluators: fakeSet('fixed', p) }) });
    try {
      const base = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA' };
      const centred = await request(fixed.app).post('/v1/evaluate').send({ ...base, cube: { value: 1, owner: 'center' } });
      const jacoby = await request(fixed.app).post('/v1/evaluate').send({ ...base, rules: { jacoby: true }, cube: { value: 1, owner: 'center' } });
      expect(centred.status).toBe(200);
      const expected = cubeDecision(p, { kind: 'money', value: 1, owner: 'centre', jacoby: false, beaver: false }, { efficiency: 0.68 });
      expect(centred.body.cubeDecision.action).toBe(expected.action);
      expect(centred.body.cubeDecision.noDouble).toBeCloseTo(expected.noDouble, 5);
      expect(centred.body.cubeDecision.doubleTake).toBeCloseTo(expected.doubleTake, 5);
      expect(centred.body.equity.cubeful).toBe(centred.body.cubeDecision.equity);
      // CUBE-5 Jacoby (off in the backgammon preset): gammons count single while the cube is centred and unturned.
      const withJacoby = cubeDecision(p, { kind: 'money', value: 1, owner: 'centre', jacoby: true, beaver: false }, { efficiency: 0.68 });
      expect(jacoby.body.cubeDecision.noDouble).toBeCloseTo(withJacoby.noDouble, 5);
      expect(jacoby.body.cubeDecision.noDouble).not.toBeCloseTo(centred.body.cubeDecision.noDouble, 3);
      // White is on roll (no Match ID); a cube Black owns cannot be turned by White.
      const theirs = await request(fixed.app).post('/v1/evaluate').send({ ...base, cube: { value: 2, owner: 'black', turned: true } });
      expect(theirs.body.cubeDecision.action).toBe('notAvailable');
      const mine = await request(fixed.app).post('/v1/evaluate').send({ ...base, cube: { value: 2, owner: 'white', turned: true } });
      expect(mine.body.cubeDecision.action).not.toBe('notAvailable');
    } finally {
      await fixed.close();
    }
  });

  it('match play: the score is read for the side to move', async () => {
    const p: Probabilities = { win: 0.6, winMars: 0.15, winKoks: 0, loseMars: 0.1, loseKoks: 0 };
    const fixed = await testApp({ services: buildServices({ evaluators: fakeSet('fixed', p) }) });
    try {
      const position = { turn: 'black', white: { points: { '6': 5, '8': 3, '13': 5, '24': 2 } }, black: { points: { '6': 5, '8': 3, '13': 5, '24': 2 } } };
      const res = await request(fixed.app)
        .post('/v1/evaluate')
        .send({ variant: 'backgammon', position, match: { length: 7, score: { white: 2, black: 4 } } });
      expect(res.status).toBe(200);
      const expected = cubeDecision(p, { kind: 'match', value: 1, owner: 'centre', length: 7, score: [4, 2], crawford: false }, { efficiency: 0.68 });
      expect(res.body.cubeDecision.action).toBe(expected.action);
      expect(res.body.cubeDecision.matchWinningChances.noDouble).toBeCloseTo(expected.matchWinningChances!.noDouble, 5);
    } finally {
      await fixed.close();
    }
  });

  it('is cached per evaluator version: new weights never serve an old answer', async () => {
    const cacheStore = new MemoryCache();
    const v1 = await testApp({ services: buildServices({ evaluators: fakeSet('v1'), cacheStore }) });
    const v2 = await testApp({ services: buildServices({ evaluators: fakeSet('v2'), cacheStore }) });
    try {
      const input = { variant: 'long', positionId: 'GAAA8_fAAAg__DA', plies: 1 };
      const first = await request(v1.app).post('/v1/evaluate').send(input);
      const again = await request(v1.app).post('/v1/evaluate').send(input);
      expect([first.headers['x-cache'], again.headers['x-cache']]).toEqual(['MISS', 'HIT']);
      expect(again.body).toEqual(first.body);
      const other = await request(v2.app).post('/v1/evaluate').send(input);
      expect(other.headers['x-cache']).toBe('MISS');
      expect(other.body.evaluator.version).toBe('v2');
      const deeper = await request(v1.app).post('/v1/evaluate').send({ ...input, plies: 2 });
      expect(deeper.headers['x-cache']).toBe('MISS');
    } finally {
      await v1.close();
      await v2.close();
    }
  });

  it.each([
    ['plies out of range', { variant: 'long', positionId: 'GAAA8_fAAAg__DA', plies: 3 }, 400, 'INVALID_REQUEST', 'plies'],
    ['an unknown field', { variant: 'long', positionId: 'GAAA8_fAAAg__DA', depth: 1 }, 400, 'UNKNOWN_FIELD', 'depth'],
    ['no position', { variant: 'long' }, 400, 'INVALID_REQUEST', 'position'],
    ['an unknown variant', { variant: 'chess', positionId: 'GAAA8_fAAAg__DA' }, 400, 'UNKNOWN_VARIANT', 'variant'],
    ['a cube in Fevga (CUBE-7)', { variant: 'fevga', position: startOf('fevga'), cube: { value: 1, owner: 'center' } }, 422, 'CUBE_DISABLED', 'cube'],
    ['a cube with an offer pending', { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', cube: { value: 1, owner: 'center', offered: { by: 'white' } } }, 400, 'INVALID_CUBE', 'cube.offered'],
    [
      'a cube while a cascade stage is pending',
      {
        variant: 'crazy',
        position: { turn: 'white', white: { points: { '4': 1, '24': 14 } }, black: { points: { '24': 15 } }, firstTurn: { white: false, black: true }, pending: [{ actor: 'white', origin: 'cascade', units: [6, 6, 6, 6] }] },
        cube: { value: 1, owner: 'center' },
      },
      422,
      'STAGE_MISMATCH',
      'position.pending',
    ],
    ['a finished game', { variant: 'long', position: { turn: 'black', white: { points: {}, off: 15 }, black: { points: { '1': 15 } } } }, 422, 'GAME_OVER', 'position'],
  ] as const)('answers %s with %i %s', async (_label, input, status, code, field) => {
    const res = await request(app.app).post('/v1/evaluate').send(input);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    if (field !== undefined) expect(res.body.error.field).toBe(field);
    const g = await gql(`query($input: EvaluateInput!) { evaluate(input: $input) { variant } }`, input);
    expect(g.errors?.length).toBeGreaterThan(0);
  });
});

describe('the search budget (ANALYSIS_BUDGET_MS)', () => {
  it('answers at fewer plies when the search runs out of time, and says so', async () => {
    let now = 0;
    const service = new AnalysisService(new Analyzers(fakeSet()), undefined, { searchBudgetMs: 5, clock: () => (now += 10) });
    const e = await service.evaluate({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', plies: 2 });
    expect(e.value!.evaluator).toMatchObject({ plies: 0, requestedPlies: 2 });
    const best = await service.bestMoves({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', dice: [6, 4], plies: 2 });
    expect(best.value!.evaluator).toMatchObject({ requestedPlies: 2 });
    expect(best.value!.evaluator.plies).toBeLessThan(2);
    const unhurried = new AnalysisService(new Analyzers(fakeSet()), undefined, { clock: () => 0 });
    expect((await unhurried.evaluate({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', plies: 2 })).value!.evaluator.plies).toBe(2);
  });
});

describe('POST /v1/evaluate/batch', () => {
  it('answers each position in order, with its own error where it has one', async () => {
    const input = {
      positions: [
        { variant: 'long', positionId: 'GAAA8_fAAAg__DA' },
        { variant: 'chess', positionId: 'GAAA8_fAAAg__DA' },
        { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', plies: 1 },
      ],
    };
    const res = await request(app.app).post('/v1/evaluate/batch').send(input);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2]);
    expect(res.body.results[0].evaluation.variant).toBe('long');
    expect(res.body.results[1].error).toEqual({ code: 'UNKNOWN_VARIANT', message: 'unknown variant "chess"; see GET /v1/variants', field: 'positions[1].variant' });
    expect(res.body.results[2].evaluation.evaluator.plies).toBe(1);
    // Over GraphQL a variant is the enum VariantName, so the item that fails is one the rules refuse.
    const refused = { ...input, positions: input.positions.map((p, i) => (i === 1 ? { variant: 'long', positionId: 'nope' } : p)) };
    const restRefused = await request(app.app).post('/v1/evaluate/batch').send(refused);
    expect(restRefused.body.results[1].error).toMatchObject({ code: 'INVALID_POSITION_ID', field: 'positions[1].positionId' });
    const g = await gql(
      `query($input: EvaluateBatchInput!) { evaluateBatch(input: $input) { count results { index evaluation { ${EVALUATION} } error { code message field rule } } } }`,
      refused,
    );
    expect(withoutNulls(g.data?.evaluateBatch)).toEqual(restRefused.body);
  });

  it.each([
    ['an empty batch', { positions: [] }],
    ['more than 64 positions', { positions: Array.from({ length: 65 }, () => ({ variant: 'long', positionId: 'GAAA8_fAAAg__DA' })) }],
    ['more than 4 positions at 2 plies', { positions: Array.from({ length: 5 }, () => ({ variant: 'long', positionId: 'GAAA8_fAAAg__DA', plies: 2 })) }],
    ['no positions', {}],
  ])('rejects %s with 400', async (_label, input) => {
    const res = await request(app.app).post('/v1/evaluate/batch').send(input);
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('positions');
  });

  it('rejects a position that breaks the EvaluateRequest schema as a whole, naming it', async () => {
    const input = { positions: [{ variant: 'long', positionId: 'GAAA8_fAAAg__DA' }, { variant: 'long', positionId: 'GAAA8_fAAAg__DA', plies: 7 }] };
    const res = await request(app.app).post('/v1/evaluate/batch').send(input);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_REQUEST', field: 'positions[1].plies' });
  });
});

interface RankedTurn {
  rank: number;
  steps: { from: number; to: number }[];
  positionId: string;
  equity: number;
  equityDiff: number;
  plies: number;
}

describe('POST /v1/moves/best', () => {
  it.each(VARIANTS.map((v) => [v.name]))('%s: ranks exactly the plays of /v1/moves, best first, on both transports', async (name) => {
    for (const dice of [
      [6, 5],
      [4, 4],
    ]) {
      const input = { variant: name, position: startOf(name), dice };
      const moves = await request(app.app).post('/v1/moves').send(input);
      const best = await request(app.app).post('/v1/moves/best').send({ ...input, plies: 1 });
      expect(best.status).toBe(200);
      expect(best.body.count).toBe(moves.body.count);
      expect(best.body.stage).toEqual(moves.body.stage);
      const turns = best.body.turns as RankedTurn[];
      expect(new Set(turns.map((t) => t.positionId))).toEqual(new Set(moves.body.turns.map((t: { positionId: string }) => t.positionId)));
      const top = turns[0].equity;
      turns.forEach((t, i) => {
        expect(t.rank).toBe(i + 1);
        expect(t.equityDiff).toBeCloseTo(t.equity - top, 5);
        if (i > 0 && t.plies === turns[i - 1].plies) expect(t.equity).toBeLessThanOrEqual(turns[i - 1].equity);
      });
      const g = await gql(
        `query($input: BestMovesInput!) { bestMoves(input: $input) { variant dice count stage { actor origin units headAllowance firstTurnException } evaluator { name version plies requestedPlies }
          turns { rank ${TURN} probabilities { ${PROBS} } equity equityDiff plies } } }`,
        { ...input, plies: 1 },
      );
      expect(withoutNulls(g.data?.bestMoves)).toEqual(best.body);
    }
  });

  it('searches one ply unless told (two in backgammon), the static evaluator in the presets whose doubles cascade, on both transports', async () => {
    for (const { name, family } of VARIANTS) {
      const input = { variant: name, position: startOf(name), dice: [6, 5] };
      const cascade = name === 'crazy' || name === 'crazy-gulbar' || name === 'giul' || name === 'gulbara-intl';
      const plies = cascade ? 0 : family === 'short' ? 2 : 1;
      const res = await request(app.app).post('/v1/moves/best').send(input);
      expect(res.status).toBe(200);
      expect(res.body.evaluator.requestedPlies).toBe(plies);
      const g = await gql(`query($input: BestMovesInput!) { bestMoves(input: $input) { evaluator { requestedPlies } } }`, input);
      expect(g.data?.bestMoves).toEqual({ evaluator: { requestedPlies: plies } });
    }
  });

  it('cuts the list at limit but counts every play, and caches the answer', async () => {
    const input = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', dice: [3, 1], limit: 2 };
    const res = await request(app.app).post('/v1/moves/best').send(input);
    expect(res.body.count).toBe(16);
    expect(res.body.turns).toHaveLength(2);
    const again = await request(app.app).post('/v1/moves/best').send(input);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.body).toEqual(res.body);
  });

  it('plays a pending stage without dice', async () => {
    const position = { turn: 'white', white: { points: { '4': 1, '24': 14 } }, black: { points: { '24': 15 } }, firstTurn: { white: false, black: true }, pending: [{ actor: 'white', origin: 'cascade', units: [6, 6, 6, 6] }] };
    const res = await request(app.app).post('/v1/moves/best').send({ variant: 'crazy', position });
    expect(res.status).toBe(200);
    expect(res.body.dice).toBeNull();
    expect(res.body.stage.origin).toBe('cascade');
  });

  it('asks for dice when the side to move rolls', async () => {
    const res = await request(app.app).post('/v1/moves/best').send({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_DICE', field: 'dice' });
  });
});

describe('POST /v1/rollout', () => {
  it('rolls out a position: seeded, repeatable, within the trial budget', async () => {
    const input = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 36, seed: 3, truncateAfter: 6 };
    const a = await request(app.app).post('/v1/rollout').send(input);
    const b = await request(app.app).post('/v1/rollout').send(input);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.body.settings).toEqual({ trials: 36, timeBudgetMs: 2000, seed: 3, truncateAfter: 6, settleRaces: false, luckAdjust: false });
    expect(a.body.estimate.trials).toBeLessThanOrEqual(36);
    expect(a.body.estimate.trials).toBeGreaterThanOrEqual(1);
    expect(a.body.estimate.probabilities.win).toBeGreaterThanOrEqual(0);
    expect(a.body.estimate.probabilities.win).toBeLessThanOrEqual(1);
    const g = await gql(
      `query($input: RolloutInput!) { rollout(input: $input) { variant positionId sideToMove evaluator { name version plies requestedPlies }
        settings { trials timeBudgetMs seed truncateAfter settleRaces luckAdjust }
        estimate { probabilities { ${PROBS} } standardErrors { ${PROBS} } equity equityStandardError trials truncatedTrials stoppedBy } } }`,
      input,
    );
    expect(withoutNulls(g.data?.rollout)).toEqual(a.body);
  });

  it('rolls out every play of a roll, best first', async () => {
    const input = { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5], trials: 12, seed: 1, truncateAfter: 4 };
    const moves = await request(app.app).post('/v1/moves').send({ variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] });
    const res = await request(app.app).post('/v1/rollout').send(input);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(moves.body.count);
    expect(res.body.turns[0]).toMatchObject({ rank: 1, equityDiff: 0 });
  });

  it('luck adjustment keeps the seeded trials and reports itself', async () => {
    const input = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 6, seed: 5, truncateAfter: 2 };
    const plain = await request(app.app).post('/v1/rollout').send(input);
    const adjusted = await request(app.app).post('/v1/rollout').send({ ...input, luckAdjust: true });
    expect(adjusted.status).toBe(200);
    expect(adjusted.body.settings.luckAdjust).toBe(true);
    expect(adjusted.body.estimate.trials).toBe(plain.body.estimate.trials);
  });

  it('draws and reports a seed when none is given', async () => {
    const res = await request(app.app).post('/v1/rollout').send({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 1, truncateAfter: 1 });
    expect(res.status).toBe(200);
    expect(Number.isInteger(res.body.settings.seed)).toBe(true);
  });

  it.each([
    ['too many trials', { trials: 100_000 }],
    ['a budget beyond 10 s', { timeBudgetMs: 60_000 }],
    ['a negative seed', { seed: -1 }],
    ['settleRaces not a boolean', { settleRaces: 'yes' }],
  ])('rejects %s with 400', async (_label, extra) => {
    const res = await request(app.app).post('/v1/rollout').send({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });
});
