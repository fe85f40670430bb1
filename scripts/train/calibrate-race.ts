import { DEFAULT_RACE_MODEL, RaceModel, createRaceEvaluator, isShortRace } from '../../src/eval/race';
import { readBearoffDatabase } from '../eval/data';
import { labelledPositions, readLegalCases } from '../eval/gnubg-cases';

/**
 * Fits the constants of the race crossing model (race.ts `RaceModel`) to
 * gnubg's 0-ply race evaluations of the positions in the oracle's
 * cases-legal.jsonl (race cases and every position their moves lead to,
 * leaving out positions where both sides are home: those are exact). The
 * bear-off constants are fitted on P(win), the mars ones on the gammon
 * probabilities.
 *
 *   npx tsx scripts/train/calibrate-race.ts
 */
function main(): void {
  const db = readBearoffDatabase('standard');
  const data = labelledPositions(readLegalCases(), (c) => c.tags.includes('race')).filter(({ board }) => {
    if (!isShortRace(board)) return false;
    for (let p = 7; p <= 24; p++) if (board[p] > 0) return true;
    for (let p = 1; p <= 18; p++) if (board[p] < 0) return true;
    return false;
  });
  console.log(`${data.length} race positions with a checker outside home`);
  const out = new Float64Array(5);
  const score = (model: RaceModel): { win: number; mars: number; koks: number; equity: number } => {
    const ev = createRaceEvaluator({ family: 'short', database: () => db, triple: 'backgammon', model });
    let win = 0;
    let mars = 0;
    let koks = 0;
    let equity = 0;
    for (const { board, probs } of data) {
      ev.evaluateInto(board, out, 0);
      equity += Math.abs(
        2 * (out[0] - probs[0]) +
          out[1] -
          probs[1] +
          out[2] -
          probs[2] -
          out[3] +
          probs[3] -
          out[4] +
          probs[4],
      );
      win += Math.abs(out[0] - probs[0]);
      mars += Math.abs(out[1] - probs[1]) + Math.abs(out[3] - probs[3]);
      koks += Math.abs(out[2] - probs[2]) + Math.abs(out[4] - probs[4]);
    }
    return {
      win: win / data.length,
      mars: mars / data.length,
      koks: koks / data.length,
      equity: equity / data.length,
    };
  };
  let model: RaceModel = DEFAULT_RACE_MODEL;
  const before = score(model);
  console.log(
    `default ${JSON.stringify(model)}: win MAE ${before.win.toFixed(4)}, mars MAE ${before.mars.toFixed(4)}, koks MAE ${before.koks.toFixed(4)}, cubeless equity MAE ${before.equity.toFixed(4)}`,
  );
  let bestWin = Infinity;
  for (let a = -2; a <= 4; a += 0.5) {
    for (let b = -6; b <= 6; b += 1) {
      const m = { ...model, perCheckerOutside: a, overshootCredit: b };
      const s = score(m);
      if (s.win < bestWin) {
        bestWin = s.win;
        model = m;
      }
    }
  }
  let bestMars = Infinity;
  let marsModel = model;
  for (let c = 0; c <= 2; c += 1) {
    for (let a = -1; a <= 3; a += 0.25) {
      for (let b = -8; b <= 8; b += 1) {
        const m = { ...model, marsPerCheckerOutside: a, marsOvershootCredit: b, marsMinimumPerChecker: c };
        const s = score(m);
        if (s.mars < bestMars) {
          bestMars = s.mars;
          marsModel = m;
        }
      }
    }
  }
  const after = score(marsModel);
  console.log(
    `fitted ${JSON.stringify(marsModel)}: win MAE ${after.win.toFixed(4)}, mars MAE ${after.mars.toFixed(4)}, koks MAE ${after.koks.toFixed(4)}, cubeless equity MAE ${after.equity.toFixed(4)}`,
  );
}

main();
