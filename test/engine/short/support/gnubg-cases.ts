import { Dice } from '../../../../src/engine/dice';
import { BOARD_LENGTH } from '../../../../src/engine/short/board';
import { oraclePath, readOracleCases } from '../../../support/oracles';

/**
 * The gnubg oracle's legal-move cases (../shared/oracles/gnubg/README.md):
 * 2000 positions with gnubg's complete legal sets. Read through the
 * shared oracle loader, which looks in ../shared/oracles first and throws
 * a clear "oracle file … not found" error when the file is missing.
 */
export interface SignedBoardJson {
  points: number[];
  bar: [number, number];
  off: [number, number];
}

export interface GnubgMove {
  steps: [number, number][];
  text: string;
  resultPositionId: string;
  resultPositionIdMover: string;
  resultBoard: SignedBoardJson;
}

export interface GnubgCase {
  id: string;
  positionId: string;
  board: SignedBoardJson;
  dice: Dice;
  tags: string[];
  count: number;
  maxSteps: number;
  moves: GnubgMove[];
}

export const GNUBG_CASES_FILE = 'gnubg/cases-legal.jsonl';

export function gnubgCasesPath(): string {
  return oraclePath(GNUBG_CASES_FILE);
}

export function readGnubgCases(): GnubgCase[] {
  const cases = readOracleCases<GnubgCase>(GNUBG_CASES_FILE);
  if (cases.length !== 2000)
    throw new Error(`expected 2000 gnubg cases in ${gnubgCasesPath()}, found ${cases.length}`);
  return cases;
}

/**
 * The oracle's signed board (on-roll numbering, `bar`/`off` as [on roll,
 * opponent]) → our board seen from the player on roll.
 */
export function boardOf(json: SignedBoardJson): Int8Array {
  const b = new Int8Array(BOARD_LENGTH);
  for (let i = 0; i < 24; i++) b[i + 1] = json.points[i];
  b[25] = json.bar[0];
  b[26] = json.bar[1];
  b[0] = json.off[0];
  b[27] = json.off[1];
  return b;
}
