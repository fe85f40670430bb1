import { OutcomeValues, STANDARD_VALUES } from '../equity';
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
  /** Match equity table (default: gnubg's default, Kazaross-XG2, met.ts). */
  readonly met?: MatchEquityTable;
}

/** Cube efficiency of a contact (or crashed) position: gnubg's 0.68. */
export const DEFAULT_CUBE_EFFICIENCY = 0.68;

/** Cube efficiency of a bear-off, both sides with every checker home: gnubg's 0.6. */
export const BEAROFF_CUBE_EFFICIENCY = 0.6;

/**
 * Cube efficiency of a race from the pip count of the side on roll, as
 * gnubg 1.07 sets it: x = 0.55 + 0.00125 × pips, kept within 0.6 … 0.7. A
 * long race is close to a contact game for the cube; a short one much less
 * (few rolls are left, each swings the chances, and doubles lose their
 * market).
 */
export function raceCubeEfficiency(moverPips: number): number {
  const x = 0.55 + 0.00125 * moverPips;
  return x < 0.6 ? 0.6 : x > 0.7 ? 0.7 : x;
}

/** The position classes the cube efficiency depends on. */
export type CubeClass = 'contact' | 'race' | 'bearoff';

/** Cube efficiency of a position by its class (gnubg's): contact 0.68, race by the pips of the side on roll, bear-off 0.6. */
export function cubeEfficiency(kind: CubeClass, moverPips: number): number {
  switch (kind) {
    case 'contact':
      return DEFAULT_CUBE_EFFICIENCY;
    case 'race':
      return raceCubeEfficiency(moverPips);
    case 'bearoff':
      return BEAROFF_CUBE_EFFICIENCY;
  }
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
 * `jacoby` (CUBE-5, centred cube only): gammons count single until the cube
 * is turned, so the dead equity is 2w − 1 and nobody plays on for a gammon
 * beyond the cash or take point (the live equity stays at ±1 there); the
 * points themselves keep W and L, which are what a turned cube is played for.
 */
export function moneyCubefulEquity(w: number, W: number, L: number, owner: CubeOwner, x: number, jacoby = false): number {
  const centredJacoby = jacoby && owner === 'centre';
  const dead = centredJacoby ? 2 * w - 1 : w * W - (1 - w) * L;
  const tp = (L - 0.5) / (W + L + 0.5);
  const cp = (L + 1) / (W + L + 0.5);
  let live: number;
  switch (owner) {
    case 'centre':
      if (w < tp) live = centredJacoby ? -1 : lerp(w, 0, -L, tp, -1);
      else if (w > cp) live = centredJacoby ? 1 : lerp(w, cp, 1, 1, W);
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
  const jacoby = cube.jacoby === true && cube.owner === 'centre';
  const cubeless = jacoby ? 2 * full.w - 1 : full.w * full.W - (1 - full.w) * full.L;
  const noDouble = moneyCubefulEquity(full.w, full.W, full.L, cube.owner, x, jacoby);
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

/** Shares of a side's wins (or losses) that are single, mars and koks. */
type Shares = readonly [number, number, number];

function sharesOf(total: number, mars: number, koks: number): Shares {
  return total > 1e-9 ? [1 - mars / total, (mars - koks) / total, koks / total] : [1, 0, 0];
}

/**
 * One side of a match game seen by itself: the points it and the other
 * side still need, the kinds of its wins and losses, and its MWC at any
 * score.
 */
interface MatchSide {
  readonly need: number;
  readonly otherNeed: number;
  readonly wins: Shares;
  readonly losses: Shares;
  /** This side's MWC when the game ends with it needing `need` and the other `otherNeed`. */
  mwc(need: number, otherNeed: number): number;
}

/** The side's MWC averaged over its wins (single, mars, koks) at cube v. */
function winMwc(s: MatchSide, v: number): number {
  return s.wins[0] * s.mwc(s.need - v, s.otherNeed) + s.wins[1] * s.mwc(s.need - 2 * v, s.otherNeed) + s.wins[2] * s.mwc(s.need - 3 * v, s.otherNeed);
}

/** The side's MWC averaged over its losses at cube v. */
function loseMwc(s: MatchSide, v: number): number {
  return s.losses[0] * s.mwc(s.need, s.otherNeed - v) + s.losses[1] * s.mwc(s.need, s.otherNeed - 2 * v) + s.losses[2] * s.mwc(s.need, s.otherNeed - 3 * v);
}

/** (target − from) / (to − from), or `fallback` when the two ends meet. */
function fraction(target: number, from: number, to: number, fallback: number): number {
  return Math.abs(to - from) > 1e-12 ? (target - from) / (to - from) : fallback;
}

/**
 * The live-cube cash point of side `s` doubling from cube v to 2v: its
 * P(win) at which the taker `o` is indifferent between taking and passing
 * (CUBE-6). When the cube at 2v is still alive, the taker owns it and
 * cashes at his own cash point one level up, so the doubler's MWC after a
 * take runs linearly from the taker's cash (s loses 2v) at P = 1 − that
 * point to a win at 2v at P = 1; the cash point is where this line meets
 * the MWC of a pass. When the cube at 2v is dead (either side needs no
 * more than 2v), the take is played out at 2v — or at 4v when only the
 * doubler is within 2v of the match, since the taker then redoubles at no
 * risk — and the cash point is where that dead-cube MWC meets the pass.
 */
function liveCashPoint(s: MatchSide, o: MatchSide, v: number): number {
  const pass = s.mwc(s.need - v, s.otherNeed);
  if (s.need <= 2 * v || s.otherNeed <= 2 * v) {
    const played = s.need <= 2 * v && s.otherNeed > 2 * v ? 4 * v : 2 * v;
    const lose = loseMwc(s, played);
    return fraction(pass, lose, winMwc(s, played), 1);
  }
  const theirs = liveCashPoint(o, s, 2 * v);
  const cashed = s.mwc(s.need, s.otherNeed - 2 * v);
  const won = winMwc(s, 2 * v);
  return 1 - theirs * fraction(pass, won, cashed, 0);
}

/**
 * Match play (CUBE-6): Janowski's interpolation in match winning chances
 * (MWC), with the match equity table (gnubg's default, Kazaross-XG2).
 * With c the cube value and a, b the points still needed:
 * - the MWC of a single, mars or koks win or loss at cube c is the table's
 *   value at the score the game ends at (a score reaching 1-away starts the
 *   Crawford game; in and after it, the post-Crawford table); the
 *   dead-cube MWC is their average under the probabilities;
 * - the live-cube MWC is piecewise linear in P(win) through each side's
 *   live cash point (`liveCashPoint`, which looks up the cube levels):
 *   from the losses at P = 0 to the opponent's cash, then to our cash, then
 *   to the wins at P = 1, keeping only the points of the sides with access
 *   to the cube;
 * - cubeful MWC = x · live + (1 − x) · dead.
 * The cube is dead — cubeless MWC — in the Crawford game, when both sides
 * need no more than its value, and at 2-away / 2-away (where doubling at
 * once is right for both). It cannot be turned by a side that already
 * wins the match with a win at its value (the post-Crawford leader among
 * them): "no double".
 */
function matchDecision(p: Probabilities, cube: MatchCube, x: number, met: MatchEquityTable): CubeDecision {
  const a = cube.length - cube.score[0];
  const b = cube.length - cube.score[1];
  const kind = gameKindAt(cube);
  // The score a game of this kind ends at: a pre-Crawford game reaching 1-away starts the Crawford game.
  const after = (ma: number, mb: number) =>
    met.equity(ma, mb, kind !== 'preCrawford' ? 'postCrawford' : ma === 1 || mb === 1 ? 'crawford' : 'preCrawford');
  const w = p.win;
  const mover: MatchSide = {
    need: a,
    otherNeed: b,
    wins: sharesOf(w, p.winMars, p.winKoks),
    losses: sharesOf(1 - w, p.loseMars, p.loseKoks),
    mwc: after,
  };
  const opponent: MatchSide = { need: b, otherNeed: a, wins: mover.losses, losses: mover.wins, mwc: (n, m) => 1 - after(m, n) };
  const dead = (c: number) => w * winMwc(mover, c) + (1 - w) * loseMwc(mover, c);
  const cubeful = (c: number, owner: CubeOwner) => {
    const d = dead(c);
    if (kind === 'crawford' || (a <= c && b <= c) || (a === 2 && b === 2)) return d;
    const win = winMwc(mover, c);
    const lose = loseMwc(mover, c);
    const cash = after(a - c, b);
    const dropped = after(a, b - c);
    const ours = liveCashPoint(mover, opponent, c);
    const theirs = 1 - liveCashPoint(opponent, mover, c);
    let live: number;
    if (owner === 'opponent') live = w <= theirs ? lerp(w, 0, lose, theirs, dropped) : lerp(w, theirs, dropped, 1, win);
    else if (owner === 'mover') live = w <= ours ? lerp(w, 0, lose, ours, cash) : lerp(w, ours, cash, 1, win);
    else if (w <= theirs) live = lerp(w, 0, lose, theirs, dropped);
    else if (w < ours) live = lerp(w, theirs, dropped, ours, cash);
    else live = lerp(w, ours, cash, 1, win);
    return x * live + (1 - x) * d;
  };
  const c = cube.value;
  const lose1 = after(a, b - c);
  const win1 = after(a - c, b);
  const emg = (mwc: number) => (win1 - lose1 > 1e-12 ? (2 * (mwc - lose1)) / (win1 - lose1) - 1 : 0);
  const cubelessMwc = dead(c);
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
 * model on match winning chances from a match equity table (gnubg's
 * default, Kazaross-XG2, unless `options.met`), with live cash points
 * through the cube levels, Crawford and post-Crawford aware. The default
 * efficiency is the contact one; callers pass the position's
 * (`cubeEfficiency`).
 */
export function cubeDecision(p: Probabilities, cube: CubeSituation, options: CubeOptions = {}): CubeDecision {
  const x = options.efficiency ?? DEFAULT_CUBE_EFFICIENCY;
  if (cube.kind === 'money') return moneyDecision(p, cube, x, options.values ?? STANDARD_VALUES);
  return matchDecision(p, cube, x, options.met ?? defaultMatchEquityTable());
}
