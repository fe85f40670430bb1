import { boardKey } from '../../../src/engine/short/board';
import { ShortStageSolver } from '../../../src/engine/short/stage';
import { ShortPosition } from '../../../src/engine/short/position';
import { SHORT_STANDARD } from '../../../src/engine/short/rules';
import { legalShortTurns } from '../../../src/engine/short/turn';
import { validateShortPlay } from '../../../src/engine/short/validate';
import { GnubgCase, boardOf, gnubgCasesPath, readGnubgCases } from './support/gnubg-cases';
import { sampled } from '../../support/runs';

/*
 * Differential test against GNU Backgammon 1.07 (../shared/oracles/gnubg):
 * for each of the 2000 cases the legal plays are compared by resulting
 * position (gnubg keeps one step list per position, of its own choosing).
 * A missing oracle file fails the suite with the loader's message; it is
 * never skipped.
 */
const cases: GnubgCase[] = readGnubgCases();

function positionOf(c: GnubgCase): ShortPosition {
  return { turn: 'white', board: boardOf(c.board) };
}

describe(`gnubg differential (${cases.length} cases from ${gnubgCasesPath()})`, () => {
  it('the set of resulting positions equals gnubg’s in every case', () => {
    const disagreements: string[] = [];
    for (const c of cases) {
      const r = legalShortTurns(SHORT_STANDARD, positionOf(c), c.dice);
      if (!r.ok) {
        disagreements.push(`${c.id}: ${r.error.code}`);
        continue;
      }
      const ours = new Set(r.value.turns.map((t) => boardKey(t.board)));
      // gnubg lists no move when nothing can be played; we return the one empty play (MAX-5).
      const theirs = new Set(
        c.moves.length > 0
          ? c.moves.map((m) => boardKey(boardOf(m.resultBoard)))
          : [boardKey(boardOf(c.board))],
      );
      const same = ours.size === theirs.size && [...ours].every((k) => theirs.has(k));
      if (!same)
        disagreements.push(`${c.id}: ${ours.size} plays, gnubg ${theirs.size} (dice ${c.dice.join('-')})`);
    }
    console.log(`gnubg differential: ${cases.length - disagreements.length} of ${cases.length} cases agree`);
    expect(disagreements).toEqual([]);
  });

  it('the solver’s boards where it keeps them are its plays’ boards, in order (and null only when a recorded position is not a play)', () => {
    const solver = new ShortStageSolver();
    let held = 0;
    let copied = 0;
    const differ: string[] = [];
    for (const c of cases) {
      const n = solver.solve(boardOf(c.board), c.dice[0], c.dice[1]);
      const boards = solver.playBoards();
      if (boards === null) {
        copied++;
        continue;
      }
      held++;
      const one = new Int8Array(28);
      for (let k = 0; k < n; k++) {
        if (boards.subarray(k * 28, k * 28 + 28).join(',') !== solver.playBoardInto(k, one).join(',')) differ.push(`${c.id} play ${k}`);
      }
    }
    expect(differ).toEqual([]);
    expect(held).toBeGreaterThan(1500);
    expect(copied).toBeGreaterThan(0);
  });

  it('the units used equal gnubg’s maxSteps, game-winning plays included (MAX-6 read as gnubg does)', () => {
    const differ = cases.filter((c) => {
      const r = legalShortTurns(SHORT_STANDARD, positionOf(c), c.dice);
      return !r.ok || r.value.unitsUsed !== c.maxSteps;
    });
    expect(differ.map((c) => c.id)).toEqual([]);
  });

  it('gnubg’s own step list of every move validates complete, to the same position', () => {
    const refused: string[] = [];
    let moves = 0;
    const walked = sampled(cases);
    for (const c of walked) {
      const position = positionOf(c);
      for (const m of c.moves) {
        moves++;
        const steps = m.steps.map(([from, to]) => ({ from, to }));
        const v = validateShortPlay(SHORT_STANDARD, position, c.dice, steps);
        const ok =
          v.ok &&
          v.value.legal &&
          v.value.complete &&
          boardKey(v.value.turn.board) === boardKey(boardOf(m.resultBoard));
        if (!ok) refused.push(`${c.id} ${m.text}`);
      }
    }
    // Every case's moves in CI, every k-th case's otherwise (see sampled()).
    expect(cases.reduce((n, c) => n + c.moves.length, 0)).toBeGreaterThan(37000);
    expect(moves).toBe(walked.reduce((n, c) => n + c.moves.length, 0));
    expect(refused).toEqual([]);
  });
});
