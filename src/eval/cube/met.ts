import { once } from '../once';
import { KAZAROSS_XG2_NAME, KAZAROSS_XG2_POST, KAZAROSS_XG2_PRE } from './kazaross-xg2';
/**
 * A match equity table (MET): the chance that a player wins the match at
 * the start of a game, by how many points each side still needs
 * ("a-away, b-away"). Three kinds of game start (CUBE-6):
 * - pre-Crawford, both at 2-away or more, cube centred at 1;
 * - the Crawford game (the leader 1-away, no doubling);
 * - post-Crawford (the leader 1-away, doubling allowed again).
 */
export interface MatchEquityTable {
  readonly name: string;
  /** Longest match covered (away numbers up to this). */
  readonly length: number;
  /** P(win match) needing `a` vs `b` (1 ≤ a, b ≤ length) at the start of a game of `kind`. */
  equity(a: number, b: number, kind: GameKind): number;
}

/** The kind of game a score starts (CUBE-6). */
export type GameKind = 'preCrawford' | 'crawford' | 'postCrawford';

/** The model behind `computeMatchEquityTable`. */
export interface MetModel {
  /** Longest match (away numbers up to this). */
  readonly length: number;
  /** Share of the games won that are won as a gammon (the rest single; backgammons folded in). */
  readonly gammonRate: number;
  /** Steps of the win-probability walk between 0 and 1 (the walk moves ±1/steps per roll). */
  readonly steps: number;
}

/**
 * Default model: gammons in 30 % of wins and a walk of ±1/6 per roll (large
 * swings, so doubles are sometimes lost to market). These two numbers were
 * chosen by a grid search minimising the RMS difference from the published
 * Kazaross-XG2 table up to 15 points (0.0043; the a-priori choice of a 26 %
 * gammon rate and ±1/12 gives 0.0057) — scripts/eval/met-compare.ts,
 * docs/evaluation.md. No published number is stored here.
 */
export const DEFAULT_MET_MODEL: MetModel = Object.freeze({ length: 25, gammonRate: 0.3, steps: 6 });

/**
 * Computes a MET by our own method (docs/evaluation.md, "Match equity"):
 * every game is a symmetric random walk of the cubeless win probability p
 * from 1/2 to 0 or 1, one step per roll, the players rolling in turn; a win
 * is a gammon with probability `gammonRate`. Before each roll the player on
 * roll may double when he has access to the cube (centred or his), and the
 * other side takes or passes, all decisions chosen optimally against the
 * match equities of the scores a game can end at (value iteration). Those
 * come from shorter distances, so the table fills from 1-away upwards:
 * post-Crawford (the leader never doubles; the trailer's free drop comes out
 * by itself), the Crawford game (no cube), then pre-Crawford.
 *
 * Pure and deterministic; about 0.2 s for 25 points.
 */
export function computeMatchEquityTable(model: MetModel = DEFAULT_MET_MODEL): MatchEquityTable {
  const n = model.length;
  // tables[kind][a][b], 0 < a, b ≤ n
  const pre: Float64Array[] = [];
  const crawford: Float64Array[] = [];
  const post: Float64Array[] = [];
  for (let a = 0; a <= n; a++) {
    pre.push(new Float64Array(n + 1));
    crawford.push(new Float64Array(n + 1));
    post.push(new Float64Array(n + 1));
  }
  /** Equity of the score reached after a game of `kind` ended at (a, b). */
  const after = (a: number, b: number, kind: GameKind): number => {
    if (a <= 0) return 1;
    if (b <= 0) return 0;
    if (kind !== 'preCrawford') return post[a][b];
    if (a === 1 || b === 1) return crawford[a][b];
    return pre[a][b];
  };
  const g = model.gammonRate;
  // Post-Crawford and the Crawford game: one side 1-away.
  for (let away = 1; away <= n; away++) {
    for (const [a, b] of away === 1 ? [[1, 1]] : [[1, away], [away, 1]]) {
      post[a][b] = gameValue(a, b, model, (x, y) => after(x, y, 'postCrawford'), true);
    }
    for (const [a, b] of away === 1 ? [[1, 1]] : [[1, away], [away, 1]]) {
      // Crawford game: no cube, p = 1/2.
      const win = (1 - g) * after(a - 1, b, 'crawford') + g * after(a - 2, b, 'crawford');
      const lose = (1 - g) * after(a, b - 1, 'crawford') + g * after(a, b - 2, 'crawford');
      crawford[a][b] = 0.5 * win + 0.5 * lose;
    }
  }
  // Pre-Crawford, by increasing total distance.
  for (let total = 4; total <= 2 * n; total++) {
    for (let a = 2; a <= n; a++) {
      const b = total - a;
      if (b < 2 || b > n) continue;
      pre[a][b] = gameValue(a, b, model, (x, y) => after(x, y, 'preCrawford'), true);
    }
  }
  return metOf(`computed (gammon rate ${model.gammonRate}, walk ±1/${model.steps})`, n, (x, y, kind) => {
    if (x === 1 || y === 1) return kind === 'crawford' ? crawford[x][y] : post[x][y];
    return pre[x][y];
  });
}

/**
 * A MET over `n` points from its entries for 1 ≤ x, y ≤ n: a side that
 * needs no more points has won, and away numbers beyond n are read at n.
 */
function metOf(name: string, n: number, entry: (x: number, y: number, kind: GameKind) => number): MatchEquityTable {
  return Object.freeze({
    name,
    length: n,
    equity(a: number, b: number, kind: GameKind): number {
      if (a <= 0) return 1;
      if (b <= 0) return 0;
      return entry(Math.min(a, n), Math.min(b, n), kind);
    },
  });
}

/**
 * The value (P(win match) for player A needing `a`, B needing `b`) of one
 * game started at p = 1/2 with the cube centred at 1, by value iteration
 * over (p, cube, owner, player on roll). `end(x, y)` is the equity of the
 * score the game can end at.
 */
function gameValue(a: number, b: number, model: MetModel, end: (x: number, y: number) => number, cube: boolean): number {
  const k = model.steps;
  const g = model.gammonRate;
  // Cube levels 1, 2, 4, … up to the first that covers both distances (beyond it doubling is pointless).
  const levels: number[] = [1];
  while (cube && levels[levels.length - 1] < Math.max(a, b)) levels.push(levels[levels.length - 1] * 2);
  const nl = levels.length;
  // owner: 0 centre, 1 A, 2 B; turn: 0 A on roll, 1 B on roll
  const idx = (i: number, l: number, o: number, t: number) => ((i * nl + l) * 3 + o) * 2 + t;
  const size = (k + 1) * nl * 6;
  const v = new Float64Array(size);
  const winAt = levels.map((c) => (1 - g) * end(a - c, b) + g * end(a - 2 * c, b));
  const loseAt = levels.map((c) => (1 - g) * end(a, b - c) + g * end(a, b - 2 * c));
  const passA = levels.map((c) => end(a - c, b)); // B passes A's double at cube c
  const passB = levels.map((c) => end(a, b - c)); // A passes B's double at cube c
  for (let l = 0; l < nl; l++) {
    for (let o = 0; o < 3; o++) {
      for (let t = 0; t < 2; t++) {
        for (let i = 0; i <= k; i++) v[idx(i, l, o, t)] = loseAt[l] + ((winAt[l] - loseAt[l]) * i) / k;
      }
    }
  }
  /** Value after the roll of the player on roll `t` at grid point i (the walk moves, the other rolls next). */
  const moved = (i: number, l: number, o: number, t: number): number => {
    const other = 1 - t;
    const up = i + 1 >= k ? winAt[l] : v[idx(i + 1, l, o, other)];
    const down = i - 1 <= 0 ? loseAt[l] : v[idx(i - 1, l, o, other)];
    return 0.5 * (up + down);
  };
  // Gauss-Seidel sweeps (updates in place), highest cube level first: a
  // level only reads itself and the level above it.
  for (let l = nl - 1; l >= 0; l--) {
    for (let iteration = 0; iteration < 10000; iteration++) {
      let change = 0;
      for (let i = 1; i < k; i++) {
        for (let o = 0; o < 3; o++) {
          for (let t = 0; t < 2; t++) {
            let value = moved(i, l, o, t);
            const canDouble = cube && l + 1 < nl && (o === 0 || o === t + 1);
            if (canDouble) {
              if (t === 0) {
                // A doubles; B takes (then owns the cube) or passes, whichever is worse for A.
                const doubled = Math.min(moved(i, l + 1, 2, t), passA[l]);
                if (doubled > value) value = doubled;
              } else {
                const doubled = Math.max(moved(i, l + 1, 1, t), passB[l]);
                if (doubled < value) value = doubled;
              }
            }
            const j = idx(i, l, o, t);
            const d = value - v[j];
            if (d > change) change = d;
            else if (-d > change) change = -d;
            v[j] = value;
          }
        }
      }
      if (change < 1e-12) break;
    }
  }
  // A game starts at p = 1/2 with either player on roll: average the two.
  const mid = k / 2;
  if (Number.isInteger(mid)) return 0.5 * (v[idx(mid, 0, 0, 0)] + v[idx(mid, 0, 0, 1)]);
  const lo = Math.floor(mid);
  return 0.25 * (v[idx(lo, 0, 0, 0)] + v[idx(lo + 1, 0, 0, 0)] + v[idx(lo, 0, 0, 1)] + v[idx(lo + 1, 0, 0, 1)]);
}

/**
 * A MET given as gnubg's tables: `pre[a − 1][b − 1]` before the Crawford
 * game (its 1-away entries are the Crawford game) and `post[b − 1]`, the
 * trailer's MWC needing b against the leader at 1-away after it. Away
 * numbers beyond the table are read at its edge.
 */
export function tabulatedMatchEquityTable(name: string, pre: readonly (readonly number[])[], post: readonly number[]): MatchEquityTable {
  return metOf(name, pre.length, (x, y, kind) => {
    if (kind === 'postCrawford' && (x === 1 || y === 1)) return x === 1 ? 1 - post[y - 1] : post[x - 1];
    return pre[x - 1][y - 1];
  });
}

/**
 * The match equity table gnubg 1.07 uses unless told otherwise (its
 * `show matchequitytable`): Kazaross-XG2, rolled out with eXtreme Gammon
 * to 9 points and gnubg to 15, extended to 25 (kazaross-xg2.ts).
 */
export const kazarossXg2MatchEquityTable: () => MatchEquityTable = once(() =>
  tabulatedMatchEquityTable(KAZAROSS_XG2_NAME, KAZAROSS_XG2_PRE, KAZAROSS_XG2_POST),
);

/** Our computed MET with the default model (built on first use by the pure `computeMatchEquityTable`). */
export const computedMatchEquityTable: () => MatchEquityTable = once(() => computeMatchEquityTable());

/** The default MET of cube decisions: gnubg's default, Kazaross-XG2. */
export const defaultMatchEquityTable: () => MatchEquityTable = kazarossXg2MatchEquityTable;
