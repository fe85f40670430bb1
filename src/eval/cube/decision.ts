import { OutcomeValues, SINGLE_VALUES, STANDARD_VALUES } from '../equity';
import { Probabilities } from '../probabilities';
import { GameKind, MatchEquityTable, defaultMatchEquityTable } from './met';

/** Who holds the cube, seen from the side to move (CUBE-1…3). */
export type CubeOwner = 'centre' | 'mover' | 'opponent';

/** Money play (CUBE-1…5). */
export interface MoneyCube {
  readonly kind: 'money';
  /** Current cube value (1, 2, 4, …). */
  readonly value: number;
  readonly owner: CubeOwner;
  /** CUBE-5 Jacoby: gammons count single while the cube is centred. */
  readonly jacoby?: boolean;
  /** CUBE-5 beaver: the doubled side may redouble at once and keep the cube. */
  readonly beaver?: boolean;
}

/** Match play (CUBE-6). */
export interface MatchCube {
  readonly kind: 'match';
  readonly value: number;
  readonly owner: CubeOwner;
  /** Match length in points. */
  readonly length: number;
  /** Points already won: [side to move, opponent]; both below `length`. */
  readonly score: readonly [number, number];
  /** This game is the Crawford game (no doubling). */
  readonly crawford: boolean;
}

export type CubeSituation = MoneyCube | MatchCube;

/** What the side to move should do with the cube (before rolling). */
export type CubeAction = 'noDouble' | 'doubleTake' | 'doublePass' | 'tooGood' | 'notAvailable';
/** What the opponent should answer to a double. */
export type CubeResponse = 'take' | 'pass' | 'beaver';

/**
 * A cube decision with its equities, all for the side to move. Money:
 * cubeful equity per unit of the current cube (doublePass is therefore 1).
 * Match: EMG ("equivalent money game": match winning chances rescaled so
 * that losing / winning a single game at the current cube is −1 / +1), with
 * the match winning chances beside them.
 */
export interface CubeDecision {
  readonly action: CubeAction;
  readonly response: CubeResponse;
  /** Cubeful equity with the right action. */
  readonly equity: number;
  readonly noDouble: number;
  /**
   * After double / take. When the opponent should beaver (response
   * `beaver`), doubling is worth twice this (the cube goes to 4, his).
   */
  readonly doubleTake: number;
  readonly doublePass: number;
  /** Cubeless equity (money: with the values in force; match: EMG of the dead-cube chances). */
  readonly cubeless: number;
  /** Match play only: match winning chances. */
  readonly matchWinningChances?: {
    readonly cubeless: number;
    readonly noDouble: number;
    readonly doubleTake: number;
    readonly doublePass: number;
  };
}

/** Options of `cubeDecision`. */
export interface CubeOptions {
  /**
   * Janowski's cube efficiency x (0 = dead cube, 1 = fully live cube).
   * 0.68 is the usual value for contact positions.
   */
  readonly efficiency?: number;
  /** Outcome values for money play (default 1 / 2 / 3). */
  readonly values?: OutcomeValues;
  /** Match equity table (default: our computed one, met.ts). */
  readonly met?: MatchEquityTable;
}

export const DEFAULT_CUBE_EFFICIENCY = 0.68;

/**
 * Cube efficiency for a race from its length: a long race behaves like a
 * contact game for the cube, a short one much less so (few rolls are left,
 * each changes the winning chances a lot, and doubles lose their market).
 * x = 0.5 + 0.002 × (average pips of the two sides), kept within
 * 0.55 … 0.68. Our own rule of thumb, not fitted.
 */
export function raceCubeEfficiency(moverPips: number, opponentPips: number): number {
  const x = 0.5 + 0.001 * (moverPips + opponentPips);
  return x < 0.55 ? 0.55 : x > DEFAULT_CUBE_EFFICIENCY ? DEFAULT_CUBE_EFFICIENCY : x;
}

/**
 * Average points won per win (W) and lost per loss (L), per unit cube.
 */
function winLoseValues(p: Probabilities, values: OutcomeValues): { w: number; W: number; L: number } {
  const w = p.win;
  const l = 1 - w;
  const W = w > 1e-9 ? (values.single * (w - p.winMars) + values.mars * (p.winMars - p.winKoks) + values.koks * p.winKoks) / w : values.single;
  const L = l > 1e-9 ? (values.single * (l - p.loseMars) + values.mars * (p.loseMars - p.loseKoks) + values.koks * p.loseKoks) / l : values.single;
  return { w, W, L };
}

/** Linear interpolation of y between (x0, y0) and (x1, y1) at x. */
function lerp(x: number, x0: number, y0: number, x1: number, y1: number): number {
  if (x1 - x0 < 1e-12) return x >= x1 ? y1 : y0;
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

/**
 * Money cubeful equity per unit cube (Janowski's model): x · live + (1 − x) · dead.
 * The live-cube equity is piecewise linear in P(win), with the take point
 * TP = (L − ½)/(W + L + ½) and cash point CP = (L + 1)/(W + L + ½) of a
 * perfectly efficient cube: centred, −1 below TP and +1 above CP (played on
 * for the gammon beyond CP when W > 1, and symmetrically below TP);
 * owned, from −L at 0 to +1 at CP; owned by the opponent, from −1 at TP to W at 1.
 */
export function moneyCubefulEquity(w: number, W: number, L: number, owner: CubeOwner, x: number): number {
  const dead = w * W - (1 - w) * L;
  const tp = (L - 0.5) / (W + L + 0.5);
  const cp = (L + 1) / (W + L + 0.5);
  let live: number;
  switch (owner) {
    case 'centre':
      if (w < tp) live = lerp(w, 0, -L, tp, -1);
      else if (w > cp) live = lerp(w, cp, 1, 1, W);
      else live = lerp(w, tp, -1, cp, 1);
      break;
    case 'mover':
      live = w < cp ? lerp(w, 0, -L, cp, 1) : lerp(w, cp, 1, 1, W);
      break;
    case 'opponent':
      live = w < tp ? lerp(w, 0, -L, tp, -1) : lerp(w, tp, -1, 1, W);
      break;
  }
  return x * live + (1 - x) * dead;
}

/** Classifies a decision from the three equities (same units), gnubg style. */
function classify(
  noDouble: number,
  doubleTake: number,
  doublePass: number,
  canBeaver: boolean,
): { action: CubeAction; response: CubeResponse; equity: number; doubleTakeShown: number } {
  const pass = doubleTake >= doublePass;
  // CUBE-5 beaver: the taker redoubles at once (keeping the cube) when taking is good for him.
  const beaver = !pass && canBeaver && doubleTake < 0;
  const response: CubeResponse = pass ? 'pass' : beaver ? 'beaver' : 'take';
  const doubled = pass ? doublePass : beaver ? 2 * doubleTake : doubleTake;
  const doubleTakeShown = doubleTake;
  // A tie goes to the double only when it cashes (a certain win is taken
  // at once, gnubg's "double, pass"); a double that is taken for no gain
  // (a dead cube) is not made.
  if (doubled > noDouble + 1e-9 || (pass && doubled >= noDouble - 1e-9)) return { action: pass ? 'doublePass' : 'doubleTake', response, equity: doubled, doubleTakeShown };
  // Not doubling is better: "too good" when even a pass would give less than playing on.
  if (noDouble > doublePass) return { action: 'tooGood', response, equity: noDouble, doubleTakeShown };
  return { action: 'noDouble', response, equity: noDouble, doubleTakeShown };
}

function moneyDecision(p: Probabilities, cube: MoneyCube, x: number, values: OutcomeValues): CubeDecision {
  const full = winLoseValues(p, values);
  // CUBE-5 Jacoby: with the cube centred, gammons and backgammons count single.
  const nd = cube.jacoby && cube.owner === 'centre' ? winLoseValues(p, SINGLE_VALUES) : full;
  const cubeless = nd.w * nd.W - (1 - nd.w) * nd.L;
  const noDouble = moneyCubefulEquity(nd.w, nd.W, nd.L, cube.owner, x);
  if (cube.owner === 'opponent') {
    return { action: 'notAvailable', response: 'take', equity: noDouble, noDouble, doubleTake: noDouble, doublePass: 1, cubeless };
  }
  const doubleTake = 2 * moneyCubefulEquity(full.w, full.W, full.L, 'opponent', x);
  const c = classify(noDouble, doubleTake, 1, cube.beaver === true);
  return { action: c.action, response: c.response, equity: c.equity, noDouble, doubleTake: c.doubleTakeShown, doublePass: 1, cubeless };
}

/** The kind of the game being played at a score (CUBE-6). */
function gameKindAt(cube: MatchCube): GameKind {
  const a = cube.length - cube.score[0];
  const b = cube.length - cube.score[1];
  if (cube.crawford) return 'crawford';
  if (a === 1 || b === 1) return 'postCrawford';
  return 'preCrawford';
}

/**
 * Match play: the same Janowski interpolation in match winning chances
 * (MWC). With c the cube value, a and b the points still needed:
 * - the MWC of winning a game as single / mars / koks at cube c is the
 *   table's equity at the score that game ends at; the dead-cube MWC is
 *   their average under the probabilities;
 * - the live-cube MWC is piecewise linear in P(win) (keeping the mars and
 *   koks shares of wins and losses), through the cash point (where the
 *   opponent's dead-cube MWC after taking a double to 2c equals passing)
 *   and the take point (the same for the side to move);
 * - cubeful MWC = x · live + (1 − x) · dead.
 * No double in the Crawford game; a cube that can no longer matter (the
 * doubler needs no more than the current value… ) comes out as "no double".
 */
function matchDecision(p: Probabilities, cube: MatchCube, x: number, met: MatchEquityTable): CubeDecision {
  const a = cube.length - cube.score[0];
  const b = cube.length - cube.score[1];
  const kind = gameKindAt(cube);
  const after = (ma: number, mb: number) => met.equity(ma, mb, kind === 'preCrawford' && (ma === 1 || mb === 1) ? 'crawford' : kind === 'preCrawford' ? 'preCrawford' : 'postCrawford');
  const w = p.win;
  const l = 1 - w;
  // Shares of wins / losses by kind.
  const wm = w > 1e-9 ? p.winMars / w : 0;
  const wk = w > 1e-9 ? p.winKoks / w : 0;
  const lm = l > 1e-9 ? p.loseMars / l : 0;
  const lk = l > 1e-9 ? p.loseKoks / l : 0;
  const winMwc = (c: number) => (1 - wm) * after(a - c, b) + (wm - wk) * after(a - 2 * c, b) + wk * after(a - 3 * c, b);
  const loseMwc = (c: number) => (1 - lm) * after(a, b - c) + (lm - lk) * after(a, b - 2 * c) + lk * after(a, b - 3 * c);
  const dead = (q: number, c: number) => q * winMwc(c) + (1 - q) * loseMwc(c);
  /** P(win) where the dead MWC at cube c equals `target`. */
  const solve = (c: number, target: number) => {
    const lo = loseMwc(c);
    const hi = winMwc(c);
    return hi - lo > 1e-12 ? Math.min(1, Math.max(0, (target - lo) / (hi - lo))) : 1;
  };
  const cubeful = (c: number, owner: CubeOwner) => {
    const d = dead(w, c);
    // Cash point: the opponent passes a double to 2c when taking is worse for him.
    const cp = solve(2 * c, after(a - c, b));
    // Take point: the side to move passes the opponent's double to 2c below it.
    const tp = solve(2 * c, after(a, b - c));
    const W = winMwc(c);
    const L = loseMwc(c);
    const cash = after(a - c, b);
    const dropped = after(a, b - c);
    let live: number;
    const canMover = owner !== 'opponent' && kind !== 'crawford' && a > c;
    const canOpponent = owner !== 'mover' && kind !== 'crawford' && b > c;
    if (canMover && canOpponent) {
      if (w < tp) live = lerp(w, 0, L, tp, dropped);
      else if (w > cp) live = lerp(w, cp, cash, 1, W);
      else live = lerp(w, tp, dropped, cp, cash);
    } else if (canMover) {
      live = w < cp ? lerp(w, 0, L, cp, cash) : lerp(w, cp, cash, 1, W);
    } else if (canOpponent) {
      live = w < tp ? lerp(w, 0, L, tp, dropped) : lerp(w, tp, dropped, 1, W);
    } else live = d;
    return x * live + (1 - x) * d;
  };
  const c = cube.value;
  const lose1 = after(a, b - c);
  const win1 = after(a - c, b);
  const emg = (mwc: number) => (win1 - lose1 > 1e-12 ? (2 * (mwc - lose1)) / (win1 - lose1) - 1 : 0);
  const cubelessMwc = dead(w, c);
  const ndMwc = cubeful(c, cube.owner);
  const dpMwc = win1;
  if (cube.owner === 'opponent' || kind === 'crawford') {
    return {
      action: 'notAvailable',
      response: 'take',
      equity: emg(ndMwc),
      noDouble: emg(ndMwc),
      doubleTake: emg(ndMwc),
      doublePass: 1,
      cubeless: emg(cubelessMwc),
      matchWinningChances: { cubeless: cubelessMwc, noDouble: ndMwc, doubleTake: ndMwc, doublePass: dpMwc },
    };
  }
  const dtMwc = cubeful(2 * c, 'opponent');
  // A dead cube: the side to move already wins the match with any win at this value.
  const decision = a <= c ? { action: 'noDouble' as const, response: dtMwc >= dpMwc ? ('pass' as const) : ('take' as const), equity: ndMwc } : classify(ndMwc, dtMwc, dpMwc, false);
  return {
    action: decision.action,
    response: decision.response,
    equity: emg(decision.equity),
    noDouble: emg(ndMwc),
    doubleTake: emg(dtMwc),
    doublePass: emg(dpMwc),
    cubeless: emg(cubelessMwc),
    matchWinningChances: { cubeless: cubelessMwc, noDouble: ndMwc, doubleTake: dtMwc, doublePass: dpMwc },
  };
}

/**
 * The cube decision of the side to move, before rolling, from cubeless
 * probabilities (evaluation, not rules: the rules of offering and
 * answering are src/engine/scoring). Money play uses Janowski's
 * cube-efficiency model, Jacoby and beaver aware; match play the same
 * model on match winning chances from a match equity table (ours by
 * default, met.ts), Crawford and post-Crawford aware.
 */
export function cubeDecision(p: Probabilities, cube: CubeSituation, options: CubeOptions = {}): CubeDecision {
  const x = options.efficiency ?? DEFAULT_CUBE_EFFICIENCY;
  if (cube.kind === 'money') return moneyDecision(p, cube, x, options.values ?? STANDARD_VALUES);
  return matchDecision(p, cube, x, options.met ?? defaultMatchEquityTable());
}
