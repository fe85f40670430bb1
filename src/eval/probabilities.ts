/**
 * Outcome probabilities of a position, always for the **side to move**
 * (seen from the player about to roll unless a function says otherwise).
 *
 * The five numbers are the ones gnubg reports, in gnubg's order:
 * - `win`: the side to move wins (any kind of win);
 * - `winMars`: it wins a mars / gammon or better (so `winKoks ≤ winMars ≤ win`);
 * - `winKoks`: it wins a koks / backgammon (the triple win);
 * - `loseMars`, `loseKoks`: the same for the opponent (`loseKoks ≤ loseMars ≤ 1 − win`).
 *
 * Long nardy (SPEC LN-SCORE-1…4): mars = the loser bore off nothing
 * (LN-SCORE-2). The default scoring K0 has no koks, so `winKoks` and
 * `loseKoks` are 0 unless a triple definition is configured
 * (`scoring.koks = startQuarter | noneInHome`, `homeMars = triple`, or the
 * Soviet-like 4-point loss); the koks slot then holds the probability of
 * that triple (or quadruple) result. Short nardy (SH-SCORE-1…3): mars =
 * gammon, koks = backgammon.
 */
export interface Probabilities {
  readonly win: number;
  readonly winMars: number;
  readonly winKoks: number;
  readonly loseMars: number;
  readonly loseKoks: number;
}

/** Slots of the flat form used on hot paths (`Float64Array`, 5 per position). */
export const WIN = 0;
export const WIN_MARS = 1;
export const WIN_KOKS = 2;
export const LOSE_MARS = 3;
export const LOSE_KOKS = 4;
/** Numbers per position in the flat form. */
export const OUTPUTS = 5;

/** Reads the five numbers at `offset` of a flat buffer. */
export function probabilitiesAt(flat: ArrayLike<number>, offset = 0): Probabilities {
  return {
    win: flat[offset + WIN],
    winMars: flat[offset + WIN_MARS],
    winKoks: flat[offset + WIN_KOKS],
    loseMars: flat[offset + LOSE_MARS],
    loseKoks: flat[offset + LOSE_KOKS],
  };
}

/** Writes probabilities into a flat buffer at `offset`. */
export function writeProbabilities(p: Probabilities, out: Float64Array, offset = 0): void {
  out[offset + WIN] = p.win;
  out[offset + WIN_MARS] = p.winMars;
  out[offset + WIN_KOKS] = p.winKoks;
  out[offset + LOSE_MARS] = p.loseMars;
  out[offset + LOSE_KOKS] = p.loseKoks;
}

/**
 * The same outcome seen from the other side, in place on a flat buffer:
 * the opponent wins with 1 − win, and the gammon numbers swap.
 */
export function flipInPlace(flat: Float64Array, offset = 0): void {
  const w = flat[offset + WIN];
  const wm = flat[offset + WIN_MARS];
  const wk = flat[offset + WIN_KOKS];
  flat[offset + WIN] = 1 - w;
  flat[offset + WIN_MARS] = flat[offset + LOSE_MARS];
  flat[offset + WIN_KOKS] = flat[offset + LOSE_KOKS];
  flat[offset + LOSE_MARS] = wm;
  flat[offset + LOSE_KOKS] = wk;
}

/** The same outcome seen from the other side. */
export function flipProbabilities(p: Probabilities): Probabilities {
  return { win: 1 - p.win, winMars: p.loseMars, winKoks: p.loseKoks, loseMars: p.winMars, loseKoks: p.winKoks };
}

/**
 * Forces the ordering invariants (`0 ≤ winKoks ≤ winMars ≤ win ≤ 1`,
 * `loseKoks ≤ loseMars ≤ 1 − win`) in place. Heuristic evaluators call it
 * last so that every evaluator's output satisfies them.
 */
export function clampInPlace(flat: Float64Array, offset = 0): void {
  let w = flat[offset + WIN];
  w = w < 0 ? 0 : w > 1 ? 1 : w;
  const l = 1 - w;
  let wm = flat[offset + WIN_MARS];
  wm = wm < 0 ? 0 : wm > w ? w : wm;
  let wk = flat[offset + WIN_KOKS];
  wk = wk < 0 ? 0 : wk > wm ? wm : wk;
  let lm = flat[offset + LOSE_MARS];
  lm = lm < 0 ? 0 : lm > l ? l : lm;
  let lk = flat[offset + LOSE_KOKS];
  lk = lk < 0 ? 0 : lk > lm ? lm : lk;
  flat[offset + WIN] = w;
  flat[offset + WIN_MARS] = wm;
  flat[offset + WIN_KOKS] = wk;
  flat[offset + LOSE_MARS] = lm;
  flat[offset + LOSE_KOKS] = lk;
}

/**
 * If a side has borne off all 15 (the mover's off at [0], the opponent's at
 * `opponentOff`), writes the result for the side to move, the loser's kind
 * from `loserKind`, and returns true. Allocation-free.
 */
export function finishedGameInto<O>(
  board: Int8Array,
  opponentOff: number,
  loserKind: (board: Int8Array, moverLost: boolean, option: O) => 1 | 2 | 3,
  option: O,
  out: Float64Array,
  offset: number,
): boolean {
  if (board[0] === 15) {
    terminalInto(true, loserKind(board, false, option), out, offset);
    return true;
  }
  if (board[opponentOff] === 15) {
    terminalInto(false, loserKind(board, true, option), out, offset);
    return true;
  }
  return false;
}

/** A terminal outcome as probabilities: the side to move has won (or lost) with the given kind. */
export function terminalInto(won: boolean, kind: 1 | 2 | 3, out: Float64Array, offset = 0): void {
  out[offset + WIN] = won ? 1 : 0;
  out[offset + WIN_MARS] = won && kind >= 2 ? 1 : 0;
  out[offset + WIN_KOKS] = won && kind >= 3 ? 1 : 0;
  out[offset + LOSE_MARS] = !won && kind >= 2 ? 1 : 0;
  out[offset + LOSE_KOKS] = !won && kind >= 3 ? 1 : 0;
}
