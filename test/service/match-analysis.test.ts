import { createFakeEvaluator } from '../../src/eval/fake';
import { Analyzers, EvaluatorSet } from '../../src/service/analysis/evaluators';
import { evaluatorsOf } from '../../src/service/analysis/data';
import { AnalysisService } from '../../src/service/analysis/service';
import { HotCache, valueOf } from '../../src/service/cache';
import { MemoryCache } from '../../src/service/store/memory';
import { ServiceError } from '../../src/service/errors';
import { planMatchAnalysis } from '../../src/service/matches/analysis';
import { judgePlay, luckOver } from '../../src/service/matches/report';
import { DecisionReport, MatchReport } from '../../src/service/matches/types';
import { readOracleText } from '../support/oracles';

/*
 * Whole-match analysis with the fake evaluator (src/eval/fake.ts: the win
 * chance follows the pip counts), so that every figure is reproducible and
 * the bookkeeping can be checked against the decisions it adds up.
 */

function fakeService(): AnalysisService {
  const set: EvaluatorSet = {
    kind: 'fake',
    short: () => createFakeEvaluator({ family: 'short' }),
    long: () => createFakeEvaluator({ family: 'long' }),
  };
  return new AnalysisService(new Analyzers(set));
}

const M03 = readOracleText('gnubg-matches/matches/m03-3pt.mat');
const M12 = readOracleText('gnubg-matches/matches/m12-money.sgf');

function allDecisions(report: MatchReport): DecisionReport[] {
  return report.games.flatMap((g) => g.decisions);
}

describe('planMatchAnalysis with a fake evaluator', () => {
  it('plans a 3-point match: entries, a cost, and a report whose totals add up', async () => {
    const plan = planMatchAnalysis({ format: 'mat', text: M03 }, { plies: 0 }, fakeService());
    expect(plan.cost).toBeGreaterThan(plan.decisions);
    const seen: number[] = [];
    const report = await plan.run({
      progress: (done, total) => {
        expect(total).toBe(plan.decisions);
        seen.push(done);
      },
      aborted: () => false,
    });
    const decisions = allDecisions(report);
    expect(decisions).toHaveLength(plan.decisions);
    expect(seen[seen.length - 1]).toBe(plan.decisions);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Object.keys(report.players)).toEqual(['Deep2ply', 'Noisy04']);
    for (const d of decisions) {
      expect(d.equityLoss).toBeGreaterThanOrEqual(0);
      expect(['move', 'cube']).toContain(d.kind);
      if (d.kind === 'move') expect(d.played).toMatch(/^((bar|\d+)(\/(\d+|off)\*?)+(\(\d\))?( (?=\S)|$))*$/);
    }
    // The double, its take, and the cube decisions before the rolls are all there.
    expect(decisions.filter((d) => d.kind === 'cube' && d.played === 'double')).toHaveLength(1);
    expect(decisions.filter((d) => d.kind === 'cube' && d.played === 'take')).toHaveLength(1);
    for (const [name, p] of Object.entries(report.players)) {
      const mine = decisions.filter((d) => d.player === name);
      const counted = mine.filter((d) => (d.kind === 'move' && d.unforced) || (d.kind === 'cube' && d.close));
      const loss = mine.reduce((s, d) => s + d.equityLoss, 0);
      expect(p.decisions).toBe(counted.length);
      expect(p.errorRate).toBeCloseTo((1000 * loss) / counted.length, 0);
      expect(p.rating).toBeCloseTo(p.errorRate / 2, 0);
      expect(p.doubtful + p.errors + p.blunders).toBe(mine.filter((d) => d.equityLoss > 0.03).length);
      expect(p.blunders).toBe(mine.filter((d) => d.equityLoss > 0.12).length);
      expect(p.luck).toBeCloseTo(
        mine.reduce((s, d) => s + ((d.luck as number | undefined) ?? 0), 0),
        3,
      );
    }
  });

  it('marks a forced move with no loss and values unforced ones by the equity after them', async () => {
    const report = await planMatchAnalysis({ format: 'mat', text: M03 }, { plies: 0 }, fakeService()).run({
      progress: () => {},
      aborted: () => false,
    });
    const moves = allDecisions(report).filter((d) => d.kind === 'move');
    const forced = moves.filter((d) => d.unforced === false);
    expect(forced.length).toBeGreaterThan(0);
    for (const d of forced) expect(d.equityLoss).toBe(0);
    for (const d of moves.filter((m) => m.unforced)) {
      expect(d.equityLoss).toBeCloseTo((d.bestEquity as number) - (d.playedEquity as number), 5);
      if (d.playedPositionIdAfter === d.bestPositionIdAfter) expect(d.equityLoss).toBe(0);
      else expect(d.playedRank).toBeGreaterThan(1);
    }
  });

  it('SH-START-1: the luck of an opening roll counts winning the roll-off, over the 30 ways it could have gone (gnubg)', async () => {
    const report = await planMatchAnalysis({ format: 'sgf', text: M12 }, { plies: 0 }, fakeService()).run({
      progress: () => {},
      aborted: () => false,
    });
    // A money game starts even and the evaluator sees each side alike, so the mean over both players'
    // 15 non-doubles is 0: an opening's luck is the mover's equity after his best play of the roll.
    const openings = report.games.map((g) => g.decisions.find((d) => d.kind === 'move') as DecisionReport);
    expect(openings).toHaveLength(6);
    for (const d of openings) {
      expect(d.unforced).toBe(true);
      expect(d.luck as number).toBeCloseTo(d.bestEquity as number, 4);
      expect(Math.abs(d.luck as number)).toBeGreaterThan(0);
    }
  });

  it('analyses a money session from SGF (equities per unit of the cube)', async () => {
    const plan = planMatchAnalysis({ format: 'sgf', text: M12 }, { plies: 0 }, fakeService());
    const report = await plan.run({ progress: () => {}, aborted: () => false });
    expect(report.matchLength).toBe(0);
    expect(report.games).toHaveLength(6);
    expect(allDecisions(report).filter((d) => d.played === 'drop')).toHaveLength(2);
  });

  it('stops between decisions when the job is cancelled', async () => {
    const plan = planMatchAnalysis({ format: 'mat', text: M03 }, { plies: 0 }, fakeService());
    let done = 0;
    await expect(plan.run({ progress: (d) => (done = d), aborted: () => done >= 5 })).rejects.toMatchObject({
      body: { code: 'ANALYSIS_CANCELLED' },
    });
    expect(done).toBe(5);
  });

  it('refuses a file with an illegal move before anything runs: 400, naming the game, the move and the reason', () => {
    const bad = M03.replace(' 1) 32: 24/21 13/11', ' 1) 32: 24/20 13/11');
    expect(bad).not.toBe(M03);
    let error: unknown;
    try {
      planMatchAnalysis({ format: 'mat', text: bad }, { plies: 0 }, fakeService());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).body).toMatchObject({
      code: 'INVALID_MATCH_FILE',
      game: 1,
      move: 1,
      field: 'text',
    });
    expect((error as ServiceError).body.message).toMatch(
      /game 1, move 1: 32: 24\/20 13\/11 is not a legal play/,
    );
  });

  // Plies outside 0..2 and an unknown format are openapi.yaml's to refuse: test/http/match-analysis-jobs.test.ts.
});

describe('bestMoves keeping a play (the play made)', () => {
  it('searches the kept play at the full depth, and never serves that answer for the request without it', async () => {
    const cache = new HotCache(new MemoryCache(), 60);
    const service = new AnalysisService(new Analyzers({ kind: 'fake', short: () => createFakeEvaluator({ family: 'short' }), long: () => createFakeEvaluator({ family: 'long' }) }), cache);
    const request = { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', dice: [6, 4], plies: 1 };
    const plain = valueOf(await service.bestMoves(request));
    const left = plain.turns[plain.turns.length - 1];
    expect(left.plies).toBe(0);
    const kept = valueOf(await service.bestMoves({ ...request, keep: left.positionId }));
    expect(kept.turns.find((t) => t.positionId === left.positionId)?.plies).toBe(1);
    expect(kept.turns.filter((t) => t.plies === 1)).toHaveLength(plain.turns.filter((t) => t.plies === 1).length + 1);
    const again = valueOf(await service.bestMoves(request));
    expect(again.turns.find((t) => t.positionId === left.positionId)?.plies).toBe(0);
    expect(cache.hits).toBe(1); // the third request, served the first one's answer
    await service.close();
  });
});

describe('luckOver', () => {
  const rolls = [
    { dice: [2, 1] as [number, number], weight: 2 },
    { dice: [3, 1] as [number, number], weight: 2 },
  ];
  const value = async (dice: readonly number[]): Promise<number> => (dice[0] === 2 ? 0.3 : 0.1);

  it('is the equity of the roll got minus the mean over the rolls', async () => {
    expect(await luckOver(rolls, [1, 2], value)).toBeCloseTo(0.1, 12);
  });

  it('over a roll-off, also minus the mover\'s equities when the opponent wins it', async () => {
    // The opponent's rolls leave the mover −0.3 and −0.1: the mean over the four ways is 0.
    expect(await luckOver(rolls, [1, 2], value, async (dice) => -(await value(dice)))).toBeCloseTo(0.3, 12);
  });
});

describe('judgePlay', () => {
  // Three plays searched at 2 plies and one the root filter left at 1 ply, each with the match equity
  // the judge values it by (the search ranked them by their cubeless equity).
  const turns = [
    { positionId: 'a', plies: 2, value: 0.1 },
    { positionId: 'b', plies: 2, value: 0.3 },
    { positionId: 'c', plies: 1, value: 0.5 },
    { positionId: 'd', plies: 2, value: 0.2 },
  ];

  it('takes the best play among the plays searched deepest, not a shallower one that values higher', () => {
    const j = judgePlay(turns, (t) => t.value, 'a');
    expect(j.best.positionId).toBe('b');
    expect(j.bestEquity).toBe(0.3);
    expect(j.loss).toBeCloseTo(0.2, 12);
    expect(j.playedRank).toBe(3);
  });

  it('ranks a play made that the search left shallower after the deeper ones, with no negative loss', () => {
    const j = judgePlay(turns, (t) => t.value, 'c');
    expect(j.best.positionId).toBe('b');
    expect(j.playedRank).toBe(4);
    expect(j.loss).toBe(0);
  });

  it('ranks by equity alone when every play was searched at the same depth', () => {
    const flat = turns.map((t) => ({ ...t, plies: 0 }));
    expect(judgePlay(flat, (t) => t.value, 'a')).toMatchObject({ best: { positionId: 'c' }, playedRank: 4 });
  });
});

describe('planMatchAnalysis with the trained networks, against gnubg', () => {
  interface OracleDecision {
    game: number;
    index: number;
    action: string;
    chequer?: { unforced: boolean; bestPositionIdAfter: string } | null;
    luck?: { value: number } | null;
  }
  interface Oracle {
    decisions: OracleDecision[];
    stats: { recomputed: Record<string, { chequerErrorRateMilli: number }> };
  }

  it('analyses a 1-point match at 0 plies: the best play agrees with gnubg 2-ply on most unforced moves, error rates close to gnubg', async () => {
    const oracle = JSON.parse(readOracleText('gnubg-matches/matches/m01-1pt.2ply.json')) as Oracle;
    const service = new AnalysisService(new Analyzers(evaluatorsOf('neural')));
    const plan = planMatchAnalysis(
      { format: 'mat', text: readOracleText('gnubg-matches/matches/m01-1pt.mat') },
      { plies: 0 },
      service,
    );
    const report = await plan.run({ progress: () => {}, aborted: () => false });
    const moves = new Map(
      allDecisions(report)
        .filter((d) => d.kind === 'move')
        .map((d) => [`${d.game as number}:${d.index as number}`, d]),
    );
    const unforced = oracle.decisions.filter((o) => o.action === 'move' && o.chequer?.unforced);
    const same = unforced.filter(
      (o) => moves.get(`${o.game}:${o.index}`)?.bestPositionIdAfter === o.chequer?.bestPositionIdAfter,
    );
    // Measured 41 of 51 (80 %); gnubg's own 0-ply reaches 86 % on this match (the oracle's README).
    expect(unforced).toHaveLength(51);
    expect(same.length).toBeGreaterThanOrEqual(38);
    const rates = Object.values(report.players).map((p) => p.chequerErrorRate as number);
    // Measured 2.2 and 20.2 mEMG against gnubg's 0.0 and 16.5.
    [0, 1].forEach((p) =>
      expect(Math.abs(rates[p] - oracle.stats.recomputed[String(p)].chequerErrorRateMilli)).toBeLessThan(7),
    );
    expect(rates[1]).toBeGreaterThan(rates[0] + 10);
    // SH-START-1: the opening roll's luck as gnubg counts it, winning the roll-off included (measured 0.005
    // apart; 0.03 apart when it was over the mover's own rolls only).
    const opening = oracle.decisions.find((o) => o.action === 'move' && o.index === 0) as OracleDecision;
    expect(Math.abs((moves.get('1:0')?.luck as number) - (opening.luck?.value as number))).toBeLessThan(0.015);
  }, 60_000);
});
