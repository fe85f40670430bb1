import { SHORT_STANDARD } from '../../src/engine/short/rules';
import { Analyzers } from '../../src/service/analysis/evaluators';
import { evaluatorsOf } from '../../src/service/analysis/data';
import { CubeComparison, compareCubeDecisions, oracleMatchIds, readCubeOracle, summarise } from '../../test/support/cube-oracle';

/*
 * Our cube decisions against gnubg's, decision by decision, on the public
 * gnubg matches (test/support/cube-oracle.ts):
 * - `--probs gnubg` (default): our cube formulas fed gnubg's own 0-ply
 *   cubeless probabilities, compared with gnubg's 0-ply no-double /
 *   double-take equities: any difference is the formulas' (cube efficiency,
 *   match equity table, live-cube model, Jacoby), not the network's;
 * - `--probs ours [--plies N]`: our network's probabilities at N plies,
 *   compared with gnubg's 2-ply analysis (`--ref 2`, the default) or its
 *   0-ply one (`--ref 0`).
 *
 *   npx tsx scripts/eval/cube-vs-gnubg.ts [--probs gnubg|ours] [--plies 0] [--ref 0|2] [--only m09-7pt] [--verbose]
 */

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const source = arg('probs') === 'ours' ? 'ours' : 'gnubg';
const plies = Number(arg('plies') ?? 0);
const ref = (arg('ref') ?? (source === 'gnubg' ? '0' : '2')) === '0' ? 0 : 2;
const only = arg('only');
const verbose = process.argv.includes('--verbose');

const pct = (a: number, n: number) => `${((100 * a) / Math.max(1, n)).toFixed(1).padStart(5)}%`;
const fixed = (v: number) => v.toFixed(3);

function describe(id: string, c: CubeComparison): string {
  const r = c.record;
  const g = r.cubeDecision;
  const s = c.situation;
  const p = c.probabilities;
  return (
    `  ${id} ${r.game}:${r.index} ${r.action} cube ${s.value}/${s.owner} ${s.kind === 'match' ? `score ${s.score.join('-')}${s.crawford ? ' C' : ''}` : s.jacoby ? 'Jacoby' : ''} x ${c.efficiency.toFixed(3)} ` +
    `p ${[p.win, p.winMars, p.winKoks, p.loseMars, p.loseKoks].map(fixed).join(' ')} ` +
    `gnubg ND ${fixed(g.noDouble)} DT ${fixed(g.doubleTake)} ${g.best} | ours ND ${fixed(c.ours.noDouble)} DT ${fixed(c.ours.doubleTake)} ${c.ours.action}`
  );
}

function main(): void {
  const analyzer = new Analyzers(evaluatorsOf('neural')).short(SHORT_STANDARD);
  const all: CubeComparison[] = [];
  for (const id of oracleMatchIds().filter((x) => !only || x === only)) {
    const oracle = readCubeOracle(id, ref);
    if (!oracle) throw new Error(`${id}: no ${ref}-ply oracle`);
    const rows = compareCubeDecisions(oracle, analyzer, source, plies);
    if (verbose) for (const c of rows) if (!c.sameDouble || !c.sameTake) console.log(describe(id, c));
    all.push(...rows);
    const m = summarise(rows);
    console.log(
      `${id.padEnd(10)} decisions ${String(m.n).padStart(4)}  double same ${pct(m.sameDouble, m.n)}  take same ${pct(m.sameTake, m.n)}  mean |dND| ${m.noDoubleError.toFixed(4)}  mean |dDT| ${m.doubleTakeError.toFixed(4)}`,
    );
  }
  const t = summarise(all);
  console.log(
    `ALL        decisions ${t.n}  double same ${pct(t.sameDouble, t.n)}  take same ${pct(t.sameTake, t.n)}  mean |dND| ${t.noDoubleError.toFixed(4)}  mean |dDT| ${t.doubleTakeError.toFixed(4)}  ` +
      `(probabilities: ${source === 'gnubg' ? 'gnubg 0-ply' : `ours at ${plies} plies`}, against gnubg ${ref}-ply)`,
  );
}

main();
