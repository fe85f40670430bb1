import { cubeDecision, moneyCubefulEquity, raceCubeEfficiency } from '../../src/eval/cube/decision';
import { computeMatchEquityTable, defaultMatchEquityTable } from '../../src/eval/cube/met';
import { Probabilities } from '../../src/eval/probabilities';

function p(win: number, winMars = 0, loseMars = 0, winKoks = 0, loseKoks = 0): Probabilities {
  return { win, winMars, winKoks, loseMars, loseKoks };
}

const money = { kind: 'money', value: 1, owner: 'centre' } as const;

describe('money cube decisions (Janowski, x = 0.68)', () => {
  it('an even game is no double; the opponent would take', () => {
    const d = cubeDecision(p(0.5), money);
    expect(d.action).toBe('noDouble');
    expect(d.response).toBe('take');
    expect(d.noDouble).toBeCloseTo(0, 9);
    expect(d.doublePass).toBe(1);
  });

  it('an even game with beavers: a double would be beavered (CUBE-5)', () => {
    const d = cubeDecision(p(0.5), { ...money, beaver: true });
    expect(d.action).toBe('noDouble');
    expect(d.response).toBe('beaver');
  });

  it('no gammons: double / take in the window, double / pass beyond the take point', () => {
    expect(cubeDecision(p(0.72), money).action).toBe('doubleTake');
    const pass = cubeDecision(p(0.9), money);
    expect(pass.action).toBe('doublePass');
    expect(pass.response).toBe('pass');
    expect(pass.equity).toBe(1);
  });

  it('very high odds with many gammons: too good to double (play on for the gammon)', () => {
    const d = cubeDecision(p(0.9, 0.6), money);
    expect(d.action).toBe('tooGood');
    expect(d.noDouble).toBeGreaterThan(1);
  });

  it('a certain single win is cashed: double / pass', () => {
    expect(cubeDecision(p(1), money).action).toBe('doublePass');
  });

  it('Jacoby (CUBE-5): gammons do not count while the cube is centred, so a gammonish position doubles instead of playing on', () => {
    expect(cubeDecision(p(0.9, 0.6), money).action).toBe('tooGood');
    expect(cubeDecision(p(0.9, 0.6), { ...money, jacoby: true }).action).toBe('doublePass');
  });

  it('an opponent-owned cube cannot be turned', () => {
    const d = cubeDecision(p(0.8), { kind: 'money', value: 2, owner: 'opponent' });
    expect(d.action).toBe('notAvailable');
  });

  it('owning the cube is worth more than a centred cube, which is worth more than the opponent owning it', () => {
    for (const w of [0.3, 0.5, 0.7]) {
      const own = moneyCubefulEquity(w, 1, 1, 'mover', 0.68);
      const centre = moneyCubefulEquity(w, 1, 1, 'centre', 0.68);
      const theirs = moneyCubefulEquity(w, 1, 1, 'opponent', 0.68);
      expect(own).toBeGreaterThan(centre - 1e-12);
      expect(centre).toBeGreaterThan(theirs - 1e-12);
    }
  });

  it('a more efficient cube lets the opponent take longer (his take point falls)', () => {
    const lastTake = (x: number) => {
      let last = 0;
      for (let w = 0.5; w <= 1; w += 0.001) if (cubeDecision(p(w), money, { efficiency: x }).response !== 'pass') last = w;
      return last;
    };
    expect(lastTake(0.8)).toBeGreaterThan(lastTake(0.5));
    expect(raceCubeEfficiency(10, 10)).toBeLessThan(raceCubeEfficiency(100, 100));
  });
});

describe('match equity table (our computed MET)', () => {
  const met = defaultMatchEquityTable();

  it('is symmetric and even at equal scores', () => {
    for (let a = 1; a <= 11; a++) {
      for (let b = 1; b <= 11; b++) {
        const kind = a === 1 || b === 1 ? 'crawford' : 'preCrawford';
        expect(met.equity(a, b, kind) + met.equity(b, a, kind)).toBeCloseTo(1, 9);
      }
      expect(met.equity(a, a, a === 1 ? 'crawford' : 'preCrawford')).toBeCloseTo(0.5, 9);
    }
  });

  it('is monotone: needing fewer points is better', () => {
    for (let a = 2; a <= 15; a++) {
      for (let b = 2; b <= 15; b++) {
        expect(met.equity(a - 1, b, a - 1 === 1 ? 'crawford' : 'preCrawford')).toBeGreaterThanOrEqual(met.equity(a, b, 'preCrawford') - 1e-12);
      }
    }
  });

  it('post-Crawford: the trailer at 2-away has a free drop against him, so he is close to even', () => {
    const trailer = met.equity(2, 1, 'postCrawford');
    expect(trailer).toBeGreaterThan(0.45);
    expect(trailer).toBeLessThanOrEqual(0.5);
    // The Crawford game itself (no cube) is much worse for the trailer.
    expect(met.equity(2, 1, 'crawford')).toBeLessThan(trailer);
  });

  it('is deterministic', () => {
    // A shorter table gives the same entries (each score only depends on shorter ones).
    const again = computeMatchEquityTable({ length: 9, gammonRate: 0.3, steps: 6 });
    expect(again.equity(7, 5, 'preCrawford')).toBe(met.equity(7, 5, 'preCrawford'));
  });
});

describe('match cube decisions (CUBE-6)', () => {
  const match = (score: [number, number], extra: Partial<{ crawford: boolean; owner: 'centre' | 'mover' | 'opponent'; value: number }> = {}) =>
    ({ kind: 'match', value: 1, owner: 'centre', length: 7, score, crawford: false, ...extra }) as const;

  it('no doubling in the Crawford game', () => {
    expect(cubeDecision(p(0.8), match([6, 3], { crawford: true })).action).toBe('notAvailable');
  });

  it('post-Crawford: the leader never doubles; the trailer doubles at once', () => {
    expect(cubeDecision(p(0.8), match([6, 3])).action).toBe('noDouble');
    const trailer = cubeDecision(p(0.4), match([3, 6]));
    expect(['doubleTake', 'doublePass']).toContain(trailer.action);
  });

  it('double match point: the cube is dead, no double', () => {
    const d = cubeDecision(p(0.7), match([6, 6]));
    expect(d.action).toBe('noDouble');
    expect(d.matchWinningChances?.noDouble).toBeCloseTo(0.7, 9);
  });

  it('reports equities in EMG and match winning chances that agree with the table at the start', () => {
    const d = cubeDecision(p(0.5, 0.13, 0.13), match([0, 0]));
    expect(d.action).toBe('noDouble');
    expect(d.matchWinningChances?.cubeless).toBeCloseTo(0.5, 6);
    expect(Math.abs(d.cubeless)).toBeLessThan(1e-6);
  });
});
