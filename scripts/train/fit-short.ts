import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { HEADS } from '../../src/eval/linear';
import { isShortRace } from '../../src/eval/race';
import { SHORT_FEATURES, shortFeatures } from '../../src/eval/short/features';
import { fitLogistic } from './fit';
import { labelledPositions, readLegalCases, shortBoardOf } from '../eval/gnubg-cases';

/**
 * Fits the backgammon contact evaluator's weights (src/eval/short/weights.ts)
 * by logistic regression on gnubg 0-ply probabilities of contact positions:
 * - the oracle's cases-legal.jsonl (each position and every position its
 *   legal moves lead to);
 * - optionally more labelled positions written by scripts/eval/label-gnubg.ts
 *   (`--extra file.jsonl`, lines `{"board": signed board, "probs": [5]}`).
 *
 *   npx tsx scripts/train/fit-short.ts [--extra data.jsonl ...] [--lambda 1] [--dry-run]
 *
 * Prints the fit's mean absolute error on a held-out tenth of the data.
 */
function args(): { extra: string[]; lambda: number; dryRun: boolean } {
  const extra: string[] = [];
  let lambda = 1;
  let dryRun = false;
  for (let i = 2; i < process.argv.length; i++) {
    const a = process.argv[i];
    if (a === '--extra') extra.push(process.argv[++i]);
    else if (a === '--lambda') lambda = Number(process.argv[++i]);
    else if (a === '--dry-run') dryRun = true;
  }
  return { extra, lambda, dryRun };
}

function main(): void {
  const { extra, lambda, dryRun } = args();
  const data = labelledPositions(readLegalCases(), () => true);
  for (const file of extra) {
    if (!existsSync(file)) throw new Error(`${file} not found`);
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { board: Parameters<typeof shortBoardOf>[0]; probs: number[] };
      data.push({ board: shortBoardOf(row.board), probs: row.probs });
    }
  }
  const contact = data.filter((d) => !isShortRace(d.board) && d.board[0] < 15 && d.board[27] < 15);
  console.log(`${data.length} labelled positions, ${contact.length} with contact`);
  // Deterministic split: every tenth position is held out.
  const train = contact.filter((_, i) => i % 10 !== 0);
  const test = contact.filter((_, i) => i % 10 === 0);
  const rowsOf = (set: typeof contact) =>
    set.map((d) => {
      const f = new Float64Array(SHORT_FEATURES);
      shortFeatures(d.board, f);
      return f;
    });
  const trainRows = rowsOf(train);
  const testRows = rowsOf(test);
  const weights = new Float64Array(HEADS * SHORT_FEATURES);
  // Head targets and sample weights (linear.ts): P(win); P(wm | w) weighted by w; …
  const headData = (set: typeof contact, h: number) => {
    const targets = new Float64Array(set.length);
    const w = new Float64Array(set.length);
    set.forEach((d, i) => {
      const [win, wm, wk, lm, lk] = d.probs;
      const lose = 1 - win;
      const ratio = (a: number, b: number) => (b > 1e-9 ? Math.min(1, a / b) : 0);
      switch (h) {
        case 0:
          targets[i] = win;
          w[i] = 1;
          break;
        case 1:
          targets[i] = ratio(wm, win);
          w[i] = win;
          break;
        case 2:
          targets[i] = ratio(wk, wm);
          w[i] = wm;
          break;
        case 3:
          targets[i] = ratio(lm, lose);
          w[i] = lose;
          break;
        case 4:
          targets[i] = ratio(lk, lm);
          w[i] = lm;
          break;
      }
    });
    return { targets, weights: w };
  };
  for (let h = 0; h < HEADS; h++) {
    const t0 = Date.now();
    const { targets, weights: sw } = headData(train, h);
    const head = fitLogistic({ rows: trainRows, targets, weights: sw }, SHORT_FEATURES, lambda);
    weights.set(head, h * SHORT_FEATURES);
    console.log(`head ${h} fitted in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  // Held-out error of the five probabilities and of the cubeless equity.
  const sig = (z: number) => 1 / (1 + Math.exp(-z));
  const mae = new Float64Array(6);
  testRows.forEach((f, i) => {
    const z = new Float64Array(HEADS);
    for (let h = 0; h < HEADS; h++) for (let k = 0; k < SHORT_FEATURES; k++) z[h] += weights[h * SHORT_FEATURES + k] * f[k];
    const win = sig(z[0]);
    const wm = win * sig(z[1]);
    const wk = wm * sig(z[2]);
    const lm = (1 - win) * sig(z[3]);
    const lk = lm * sig(z[4]);
    const ours = [win, wm, wk, lm, lk];
    const truth = test[i].probs;
    for (let k = 0; k < 5; k++) mae[k] += Math.abs(ours[k] - truth[k]);
    const eq = (p: number[]) => 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4];
    mae[5] += Math.abs(eq(ours) - eq(truth));
  });
  console.log(
    `held-out MAE (n=${test.length}): win ${(mae[0] / test.length).toFixed(4)}, winMars ${(mae[1] / test.length).toFixed(4)}, ` +
      `winKoks ${(mae[2] / test.length).toFixed(4)}, loseMars ${(mae[3] / test.length).toFixed(4)}, loseKoks ${(mae[4] / test.length).toFixed(4)}, ` +
      `equity ${(mae[5] / test.length).toFixed(4)}`,
  );
  if (dryRun) return;
  const version = `fit-${SHORT_FEATURES}f-${contact.length}-${lambda}`;
  const lines: string[] = [];
  for (let i = 0; i < weights.length; i += 8) {
    lines.push('  ' + Array.from(weights.slice(i, i + 8), (v) => Number(v.toPrecision(6)).toString()).join(', ') + ',');
  }
  const text = `/*
 * Generated by scripts/train/fit-short.ts — do not edit by hand.
 * Logistic regression of ${HEADS} heads (linear.ts) on ${contact.length} contact positions
 * labelled with gnubg 0-ply probabilities; L2 penalty ${lambda}.
 */
export const SHORT_WEIGHTS_VERSION = '${version}';

// prettier-ignore
export const SHORT_CONTACT_WEIGHTS: Float64Array = Float64Array.from([
${lines.join('\n')}
]);
`;
  const path = join(__dirname, '..', '..', 'src', 'eval', 'short', 'weights.ts');
  writeFileSync(path, text);
  console.log(`wrote ${path} (${version})`);
}

main();
