import { CubeSituation, cubeDecision, cubeEfficiency, moneyCubefulEquity, raceCubeEfficiency } from '../../src/eval/cube/decision';
import {
  computeMatchEquityTable,
  computedMatchEquityTable,
  defaultMatchEquityTable,
  kazarossXg2MatchEquityTable,
} from '../../src/eval/cube/met';
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
    expect(raceCubeEfficiency(20)).toBeLessThan(raceCubeEfficiency(100));
  });
});

describe('match equity table (our computed MET)', () => {
  const met = computedMatchEquityTable();

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

describe('match equity table: gnubg 1.07\'s default, Kazaross-XG2 (CUBE-6)', () => {
  const met = kazarossXg2MatchEquityTable();

  it('is the default of cube decisions', () => {
    expect(defaultMatchEquityTable()).toBe(met);
    expect(met.name).toBe('Kazaross XG2 25 point MET');
  });

  it('holds the entries gnubg shows (`show matchequitytable 3`)', () => {
    expect(met.equity(1, 2, 'crawford')).toBe(0.67736);
    expect(met.equity(2, 1, 'crawford')).toBe(0.32264);
    expect(met.equity(3, 2, 'preCrawford')).toBe(0.40053);
    expect(met.equity(2, 1, 'postCrawford')).toBe(0.48803);
    expect(met.equity(3, 1, 'postCrawford')).toBe(0.32264);
    expect(met.equity(1, 3, 'postCrawford')).toBeCloseTo(1 - 0.32264, 12);
  });

  it('is symmetric, even at equal scores and monotone', () => {
    for (let a = 1; a <= 25; a++) {
      for (let b = 1; b <= 25; b++) {
        const kind = a === 1 || b === 1 ? 'crawford' : 'preCrawford';
        expect(met.equity(a, b, kind) + met.equity(b, a, kind)).toBeCloseTo(1, 5);
        if (a > 1) expect(met.equity(a - 1, b, a - 1 === 1 ? 'crawford' : 'preCrawford')).toBeGreaterThanOrEqual(met.equity(a, b, kind));
      }
    }
  });

  it('stays within 0.031 of our computed table up to 15 points (its fit)', () => {
    const ours = computedMatchEquityTable();
    for (let a = 1; a <= 15; a++) {
      for (let b = 1; b <= 15; b++) {
        const kind = a === 1 || b === 1 ? 'crawford' : 'preCrawford';
        expect(Math.abs(ours.equity(a, b, kind) - met.equity(a, b, kind))).toBeLessThan(0.031);
      }
    }
  });
});

describe('cube efficiency by position class (gnubg 1.07)', () => {
  it('contact 0.68, bear-off 0.6, race 0.55 + 0.00125 × the pips of the side on roll within 0.6 … 0.7', () => {
    expect(cubeEfficiency('contact', 150)).toBe(0.68);
    expect(cubeEfficiency('bearoff', 20)).toBe(0.6);
    expect(cubeEfficiency('race', 71)).toBeCloseTo(0.63875, 12);
    expect(cubeEfficiency('race', 30)).toBe(0.6);
    expect(cubeEfficiency('race', 130)).toBe(0.7);
  });
});

/**
 * Hand-checked against gnubg 1.07: its 0-ply cube analysis of decisions of
 * the public gnubg matches (../shared/oracles/gnubg-matches, `<id>.0ply.json`:
 * the cubeless probabilities gnubg evaluated, and the no-double and
 * double / take equities it derived from them, EMG in matches). Fed the same
 * probabilities and gnubg's efficiency of the position, the formulas give
 * gnubg's numbers to its printed precision.
 */
describe('cube decisions equal gnubg\'s from the same probabilities', () => {
  type Probs = [number, number, number, number, number];
  const probs = (v: Probs) => ({ win: v[0], winMars: v[1], winKoks: v[2], loseMars: v[3], loseKoks: v[4] });
  const money = (value: number, owner: 'centre' | 'mover', jacoby = false): CubeSituation => ({ kind: 'money', value, owner, jacoby });
  const match = (length: number, score: [number, number], value = 1, owner: 'centre' | 'mover' = 'centre'): CubeSituation => ({
    kind: 'match',
    value,
    owner,
    length,
    score,
    crawford: false,
  });
  const cases: [string, Probs, CubeSituation, number, number, number, 'noDouble' | 'doubleTake' | 'doublePass' | 'tooGood'][] = [
    // [where in the oracle, probabilities, situation, efficiency, gnubg ND, gnubg DT, gnubg's action]
    ['CUBE-1 money, centred (m11 1:1)', [0.50211, 0.13981, 0.00684, 0.13916, 0.00803], money(1, 'centre'), 0.68, 0.00549, -0.33118, 'noDouble'],
    ['CUBE-1 money, centred (m11 1:8)', [0.61758, 0.3349, 0.05159, 0.07163, 0.00402], money(1, 'centre'), 0.68, 0.72307, 0.83196, 'doubleTake'],
    ['CUBE-1 money, too good (m11 2:22)', [0.70425, 0.39218, 0.04767, 0.03281, 0.00024], money(1, 'centre'), 0.68, 1.00413, 1.42949, 'tooGood'],
    ['CUBE-2 money, own cube (m11 1:11)', [0.40983, 0.10355, 0.00449, 0.29263, 0.03914], money(2, 'mover'), 0.68, -0.26472, -1.20944, 'noDouble'],
    ['CUBE-1 money race, x by pips 71 (m11 3:23)', [0.70195, 0.00005, 0, 0.00005, 0], money(1, 'centre'), 0.63875, 0.5759, 0.61744, 'doubleTake'],
    ['CUBE-5 Jacoby, centred (m12 1:1)', [0.47226, 0.12904, 0.00286, 0.12747, 0.00434], money(1, 'centre', true), 0.68, -0.08054, -0.46962, 'noDouble'],
    ['CUBE-5 Jacoby, centred (m12 1:8)', [0.69979, 0.22956, 0.00364, 0.04706, 0.00143], money(1, 'centre', true), 0.68, 0.74821, 0.96447, 'doubleTake'],
    ['CUBE-5 Jacoby, turned cube counts gammons (m12 1:11)', [0.34826, 0.05312, 0.00179, 0.27145, 0.00471], money(2, 'mover', true), 0.68, -0.40632, -1.49263, 'noDouble'],
    ['CUBE-6 7 points, 0-0 (m09 1:1)', [0.48969, 0.12875, 0.004, 0.13454, 0.00626], match(7, [0, 0]), 0.68, -0.04007, -0.40843, 'noDouble'],
    ['CUBE-6 7 points, 0-0 (m09 1:29)', [0.73145, 0.04341, 0.00025, 0.02451, 0.00097], match(7, [0, 0]), 0.68, 0.70333, 0.79699, 'doubleTake'],
    ['CUBE-6 7 points, 5-4 too good (m09 7:18)', [0.8513, 0.71997, 0.04117, 0.01953, 0.00052], match(7, [5, 4]), 0.68, 1.81471, 1.90823, 'tooGood'],
    ['CUBE-6 3 points, 0-0 (m03 1:8)', [0.6519, 0.31725, 0.03294, 0.07853, 0.00481], match(3, [0, 0]), 0.68, 0.84827, 1.00581, 'doublePass'],
    ['CUBE-6 5 points, own cube at 2 (m06 2:21)', [0.33001, 0.10167, 0.00136, 0.19006, 0.00715], match(5, [1, 0], 2, 'mover'), 0.68, -0.39887, -1.44422, 'noDouble'],
    ['CUBE-6 7 points 0-4, own cube at 2 (m10 2:25)', [0.35388, 0.01144, 0, 0.43975, 0.13324], match(7, [0, 4], 2, 'mover'), 0.68, -0.32374, -0.3066, 'doubleTake'],
    ['CUBE-6 post-Crawford trailer (m04 3:1)', [0.46731, 0.13212, 0.00596, 0.15437, 0.00967], match(3, [1, 2]), 0.68, 0.65472, 0.86924, 'doubleTake'],
  ];

  it.each(cases)('%s', (_where, p, situation, efficiency, noDouble, doubleTake, action) => {
    const d = cubeDecision(probs(p), situation, { efficiency });
    expect(Math.abs(d.noDouble - noDouble)).toBeLessThan(5e-4);
    expect(Math.abs(d.doubleTake - doubleTake)).toBeLessThan(5e-4);
    expect(d.doublePass).toBeCloseTo(1, 9);
    expect(d.action).toBe(action);
  });

  it('CUBE-5 beaver: gnubg 1.07 (`evaluate.py --id 4HPhASjgc/ABMA --plies 0 --beavers`, with and without --jacoby) says "No double, beaver"', () => {
    const opening = probs([0.5021240711212158, 0.13982805609703064, 0.00683930516242981, 0.13914236426353455, 0.008025109767913818]);
    const plain = cubeDecision(opening, { kind: 'money', value: 1, owner: 'centre', beaver: true }, { efficiency: 0.68 });
    expect(plain.action).toBe('noDouble');
    expect(plain.response).toBe('beaver');
    expect(Math.abs(plain.noDouble - 0.0055605)).toBeLessThan(5e-5);
    expect(Math.abs(plain.doubleTake - -0.3310596)).toBeLessThan(5e-5);
    const jacoby = cubeDecision(opening, { kind: 'money', value: 1, owner: 'centre', beaver: true, jacoby: true }, { efficiency: 0.68 });
    expect(jacoby.response).toBe('beaver');
    expect(Math.abs(jacoby.noDouble - 0.0057206)).toBeLessThan(5e-5);
    expect(Math.abs(jacoby.doubleTake - -0.3310596)).toBeLessThan(5e-5);
  });

  it('CUBE-6 at 2-away / 2-away the cube is dead before a double: no double equals the cubeless match winning chances', () => {
    const d = cubeDecision(probs([0.6, 0.15, 0.01, 0.1, 0.005]), match(5, [3, 3]));
    expect(d.matchWinningChances?.noDouble).toBeCloseTo(d.matchWinningChances?.cubeless ?? NaN, 12);
  });

  it('CUBE-6 the post-Crawford leader never doubles', () => {
    const d = cubeDecision(probs([0.6, 0.15, 0.01, 0.1, 0.005]), match(5, [4, 2]));
    expect(d.action).toBe('noDouble');
  });
});
