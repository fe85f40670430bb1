import { existsSync, readFileSync } from 'fs';
import { DEFAULT_MET_MODEL, MetModel, computeMatchEquityTable } from '../../src/eval/cube/met';
import { parseMetXml } from './met-xml';

/**
 * Compares our computed match equity table with a published one in gnubg's
 * MET XML format (read at run time from a local gnubg install; nothing of it
 * is stored in this repository).
 *
 *   npx tsx scripts/eval/met-compare.ts [--met /usr/share/gnubg/met/Kazaross-XG2.xml] [--search]
 */
function compare(model: MetModel, published: { pre: number[][]; post: number[] }, upTo: number, print: boolean): number {
  const ours = computeMatchEquityTable({ ...model, length: Math.max(upTo, model.length) });
  let sum = 0;
  let max = 0;
  let count = 0;
  let worst = '';
  for (let a = 1; a <= upTo; a++) {
    for (let b = 1; b <= upTo; b++) {
      const kind = a === 1 || b === 1 ? 'crawford' : 'preCrawford';
      const d = ours.equity(a, b, kind) - published.pre[a - 1][b - 1];
      sum += d * d;
      count++;
      if (Math.abs(d) > max) {
        max = Math.abs(d);
        worst = `${a}-away/${b}-away`;
      }
    }
  }
  for (let b = 2; b <= upTo; b++) {
    const d = ours.equity(b, 1, 'postCrawford') - published.post[b - 1];
    sum += d * d;
    count++;
    if (Math.abs(d) > max) {
      max = Math.abs(d);
      worst = `post-Crawford ${b}-away/1-away`;
    }
  }
  const rms = Math.sqrt(sum / count);
  if (print) {
    console.log(`${ours.name}: up to ${upTo} points, RMS difference ${rms.toFixed(4)}, largest ${max.toFixed(4)} (${worst})`);
    const sample: [number, number, 'preCrawford' | 'crawford' | 'postCrawford'][] = [
      [2, 1, 'crawford'], [3, 1, 'crawford'], [2, 1, 'postCrawford'], [3, 1, 'postCrawford'], [2, 2, 'preCrawford'],
      [3, 2, 'preCrawford'], [4, 2, 'preCrawford'], [5, 3, 'preCrawford'], [7, 5, 'preCrawford'], [11, 9, 'preCrawford'],
    ];
    for (const [a, b, kind] of sample) {
      const pub = kind === 'postCrawford' ? published.post[a - 1] : published.pre[a - 1][b - 1];
      console.log(`  ${a}-away vs ${b}-away (${kind}): ours ${ours.equity(a, b, kind).toFixed(4)}, published ${pub.toFixed(4)}`);
    }
  }
  return rms;
}

function main(): void {
  const i = process.argv.indexOf('--met');
  const path = i >= 0 ? process.argv[i + 1] : '/usr/share/gnubg/met/Kazaross-XG2.xml';
  if (!existsSync(path)) {
    console.log(`${path} not found (apt-get install gnubg provides it)`);
    return;
  }
  const published = parseMetXml(readFileSync(path, 'utf8'));
  if (process.argv.includes('--search')) {
    let best = { rms: Infinity, model: DEFAULT_MET_MODEL };
    for (const steps of [4, 5, 6, 7, 8, 10]) {
      for (const gammonRate of [0.24, 0.26, 0.28, 0.3, 0.32, 0.34]) {
        const model = { length: 15, gammonRate, steps };
        const rms = compare(model, published, 15, false);
        if (rms < best.rms) best = { rms, model };
      }
    }
    console.log(`best model: ${JSON.stringify(best.model)} (RMS ${best.rms.toFixed(4)})`);
  }
  compare(DEFAULT_MET_MODEL, published, 15, true);
}

main();
