import { shortCubeEfficiency } from '../../src/eval/analysis';
import { CubeDecision, CubeSituation, cubeDecision } from '../../src/eval/cube/decision';
import { cubelessEquity } from '../../src/eval/equity';
import { Probabilities } from '../../src/eval/probabilities';
import { createShortEvaluator } from '../../src/eval/short/evaluator';
import { ShortSearch } from '../../src/eval/short/search';
import { readBearoffDatabase } from './data';
import { EvalCase, probabilitiesOfArray, readEvalCases, shortBoardOf } from './gnubg-cases';

/**
 * Compares our probabilities, equities and cube decisions with gnubg's on
 * the oracle's cases-eval.jsonl (300 positions, money and match cubes).
 *
 *   npx tsx scripts/eval/eval-error.ts [--plies 0] [--vs 0|2] [--json]
 *
 * `--plies`: our search depth (0 = the static evaluator). `--vs`: which of
 * gnubg's evaluations to compare with (its 0-ply or 2-ply). Prints mean
 * absolute errors overall and by gnubg's position class (contact, crashed,
 * race, bearoff1, bearoff2), and the share of cube decisions that agree.
 */
interface Row {
  readonly id: string;
  readonly positionClass: string;
  readonly probs: number[];
  readonly equity: number;
  readonly cubeful: number;
  readonly noDouble: number;
  /** NaN when the side to move has no access to the cube (gnubg's number is meaningless then). */
  readonly doubleTake: number;
  readonly decisionAgrees: boolean;
  readonly takeAgrees: boolean;
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** The oracle's cube state → ours (seen from the player on roll). */
export function situationOf(c: EvalCase['cube']): CubeSituation {
  const owner = c.owner === 'center' ? 'centre' : c.owner === 'onRoll' ? 'mover' : 'opponent';
  if (c.matchLength > 0) {
    return { kind: 'match', value: c.value, owner, length: c.matchLength, score: [c.score[0], c.score[1]], crawford: c.crawford };
  }
  return { kind: 'money', value: c.value, owner, jacoby: c.jacoby, beaver: c.beavers };
}

/** Our decision in the oracle's vocabulary (engine.py `classify_cube`). */
export function gnubgDecisionOf(d: CubeDecision, crawford = false): { decision: string; take: boolean | null } {
  // gnubg says "no double" in the Crawford game, where we say the double is not available.
  if (crawford && d.action === 'notAvailable') return { decision: 'no_double', take: true };
  const take = d.action === 'notAvailable' ? null : d.response !== 'pass';
  switch (d.action) {
    case 'noDouble':
      return { decision: 'no_double', take };
    case 'doubleTake':
      return { decision: d.response === 'beaver' ? 'double_beaver' : 'double_take', take };
    case 'doublePass':
      return { decision: 'double_pass', take };
    case 'tooGood':
      return { decision: 'too_good', take };
    case 'notAvailable':
      return { decision: 'not_available', take };
  }
}

function main(): void {
  const plies = option('plies', 0);
  const vs = option('vs', 0);
  const evaluator = createShortEvaluator({ database: () => readBearoffDatabase('standard') });
  const search = new ShortSearch(evaluator);
  const cases = readEvalCases();
  const rows: Row[] = [];
  for (const c of cases) {
    const board = shortBoardOf(c.board);
    const ours: Probabilities = plies === 0 ? evaluator.evaluate(board) : search.evaluate(board, plies);
    const ref = c.evaluations.find((e) => e.plies === vs);
    if (!ref) throw new Error(`case ${c.id} has no ${vs}-ply evaluation`);
    const theirs = probabilitiesOfArray(ref.probs);
    const situation = situationOf(c.cube);
    const efficiency = shortCubeEfficiency(board);
    const decision = cubeDecision(ours, situation, { efficiency });
    const mapped = gnubgDecisionOf(decision, c.cube.crawford);
    rows.push({
      id: c.id,
      positionClass: c.positionClass,
      probs: [ours.win - theirs.win, ours.winMars - theirs.winMars, ours.winKoks - theirs.winKoks, ours.loseMars - theirs.loseMars, ours.loseKoks - theirs.loseKoks],
      equity: cubelessEquity(ours) - ref.cubelessMoneyEquity,
      cubeful: decision.equity - ref.cubeful.equity,
      noDouble: decision.noDouble - ref.cubeful.noDouble,
      doubleTake: ref.action.decision === 'not_available' || c.cube.crawford ? NaN : decision.doubleTake - ref.cubeful.doubleTake,
      decisionAgrees: mapped.decision === ref.action.decision || (mapped.decision === 'double_beaver' && ref.action.decision === 'double_take'),
      takeAgrees: mapped.take === ref.action.take,
    });
  }
  const groups: [string, Row[]][] = [
    ['all', rows],
    ['race + bearoff', rows.filter((r) => ['race', 'bearoff1', 'bearoff2'].includes(r.positionClass))],
    ...['contact', 'crashed', 'race', 'bearoff1', 'bearoff2'].map((k) => [k, rows.filter((r) => r.positionClass === k)] as [string, Row[]]),
  ];
  const mae = (list: Row[], f: (r: Row) => number) => {
    const values = list.map(f).filter((v) => !Number.isNaN(v));
    return values.reduce((s, v) => s + Math.abs(v), 0) / Math.max(1, values.length);
  };
  const pct = (list: Row[], f: (r: Row) => boolean) => (100 * list.filter(f).length) / Math.max(1, list.length);
  const summary = groups.map(([name, list]) => ({
    class: name,
    n: list.length,
    win: mae(list, (r) => r.probs[0]),
    winMars: mae(list, (r) => r.probs[1]),
    winKoks: mae(list, (r) => r.probs[2]),
    loseMars: mae(list, (r) => r.probs[3]),
    loseKoks: mae(list, (r) => r.probs[4]),
    cubelessEquity: mae(list, (r) => r.equity),
    cubefulEquity: mae(list, (r) => r.cubeful),
    noDouble: mae(list, (r) => r.noDouble),
    doubleTake: mae(list, (r) => r.doubleTake),
    decisionAgreement: pct(list, (r) => r.decisionAgrees),
    takeAgreement: pct(list, (r) => r.takeAgrees),
  }));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ plies, vs, evaluator: `${evaluator.name} ${evaluator.version}`, summary }, null, 2));
    return;
  }
  console.log(`ours: ${evaluator.name} (${evaluator.version}) at ${plies} ply; gnubg at ${vs} ply; ${cases.length} cases`);
  console.log('class           n   win     wMars   wKoks   lMars   lKoks   equity  cubeful  ND      DT      decision take');
  for (const s of summary) {
    const f = (v: number) => v.toFixed(4).padStart(7);
    console.log(
      `${s.class.padEnd(15)} ${String(s.n).padStart(3)} ${f(s.win)} ${f(s.winMars)} ${f(s.winKoks)} ${f(s.loseMars)} ${f(s.loseKoks)} ${f(s.cubelessEquity)} ${f(s.cubefulEquity)}  ${f(s.noDouble)} ${f(s.doubleTake)} ${s.decisionAgreement.toFixed(0).padStart(6)} % ${s.takeAgreement.toFixed(0).padStart(3)} %`,
    );
  }
}

main();
