import { readFileSync } from 'fs';
import { flipBoard } from '../../src/engine/short/board';
import { Probabilities } from '../../src/eval/probabilities';

/** Where the gnubg oracle lives (README there). */
export const ORACLE_DIR = process.env.GNUBG_ORACLE_DIR ?? '/work/shared/oracles/gnubg';

/** The oracle's signed JSON board: points by the on-roll player's numbering, bar/off as [onRoll, opponent]. */
export interface SignedBoard {
  points: number[];
  bar: [number, number];
  off: [number, number];
}

/** Oracle signed board → our short board (src/engine/short/board.ts), seen from the player on roll. */
export function shortBoardOf(signed: SignedBoard): Int8Array {
  const b = new Int8Array(28);
  for (let i = 0; i < 24; i++) b[i + 1] = signed.points[i];
  b[25] = signed.bar[0];
  b[26] = signed.bar[1];
  b[0] = signed.off[0];
  b[27] = signed.off[1];
  return b;
}

/** Our short board → the oracle's signed board. */
export function signedOf(board: Int8Array): SignedBoard {
  const points: number[] = [];
  for (let p = 1; p <= 24; p++) points.push(board[p]);
  return { points, bar: [board[25], board[26]], off: [board[0], board[27]] };
}

/** gnubg's probability array [win, winG, winBG, loseG, loseBG] as our type. */
export function probabilitiesOfArray(a: readonly number[]): Probabilities {
  return { win: a[0], winMars: a[1], winKoks: a[2], loseMars: a[3], loseKoks: a[4] };
}

export interface EvalCase {
  id: string;
  positionId: string;
  board: SignedBoard;
  positionClass: string;
  cube: {
    value: number;
    owner: 'center' | 'onRoll' | 'opponent';
    matchLength: number;
    score: [number, number];
    crawford: boolean;
    jacoby: boolean;
    beavers: boolean;
  };
  evaluations: {
    plies: number;
    probs: number[];
    cubelessEquity: number;
    cubelessMoneyEquity: number;
    cubeful: { equity: number; noDouble: number; doubleTake: number; doublePass: number; mwc?: number };
    action: { decision: string; take: boolean };
    cubelessMwc?: number;
  }[];
}

export function readEvalCases(path = `${ORACLE_DIR}/cases-eval.jsonl`): EvalCase[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as EvalCase);
}

export interface LegalCase {
  id: string;
  board: SignedBoard;
  dice: [number, number];
  tags: string[];
  moves: { steps: number[][]; resultBoard: SignedBoard; equity0: number; probs0: number[] }[];
  eval0: { positionClass: string; probs: number[]; cubelessMoneyEquity: number };
}

export function readLegalCases(path = `${ORACLE_DIR}/cases-legal.jsonl`): LegalCase[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LegalCase);
}

/**
 * Positions with gnubg 0-ply probabilities for the side to move, from the
 * legal-move cases: each case's position before the roll, and every
 * resulting position (turned to the opponent, who is then to move).
 */
export function labelledPositions(cases: readonly LegalCase[], filter: (c: LegalCase) => boolean): { board: Int8Array; probs: number[] }[] {
  const out: { board: Int8Array; probs: number[] }[] = [];
  const seen = new Set<string>();
  const add = (board: Int8Array, probs: number[]) => {
    const key = Array.from(board).join(',');
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ board, probs });
  };
  for (const c of cases) {
    if (!filter(c)) continue;
    add(shortBoardOf(c.board), c.eval0.probs);
    for (const m of c.moves) {
      const after = shortBoardOf(m.resultBoard);
      if (after[0] === 15) continue;
      const p = m.probs0;
      add(flipBoard(after), [1 - p[0], p[3], p[4], p[1], p[2]]);
    }
  }
  return out;
}
