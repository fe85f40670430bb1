import { existsSync, readFileSync, readdirSync } from 'fs';
import { resolve } from 'path';
import { gunzipSync } from 'zlib';
import { Analyzers } from '../../src/service/analysis/evaluators';
import { evaluatorsOf } from '../../src/service/analysis/data';
import { MOVER_BAR, OPPONENT_BAR } from '../../src/engine/short/board';
import { parseGnubgPositionId } from '../../src/engine/short/gnubg-id';
import { isShortRace } from '../../src/eval/race/short';
import { AnalysisService } from '../../src/service/analysis/service';
import { planMatchAnalysis } from '../../src/service/matches/analysis';
import { DecisionReport, MatchReport } from '../../src/service/matches/types';

/*
 * Our whole-match analysis against gnubg's on the public gnubg matches
 * (../shared/oracles/gnubg-matches, or the committed copy under
 * test/fixtures/oracles): each `.mat` file analysed at --plies (default 0)
 * with our networks, compared with gnubg 1.07's 2-ply analysis of the same
 * decisions (its README, "Comparing an analyser"):
 * - best chequer play the same as gnubg's (by resulting position) on
 *   unforced moves, and among gnubg's listed candidates;
 * - the same cube action (double / no double, take / pass) on every cube
 *   decision gnubg analysed, and on the doubles, takes and drops played;
 * - per player, our chequer error rate minus gnubg's (mEMG), and whether
 *   players whose gnubg error rates differ by 10 mEMG or more come out in
 *   the same order;
 * - the luck of every roll played against gnubg's, and each player's total.
 *
 * --versus 0 compares with gnubg's 0-ply analysis of the same records
 * instead: how closely our evaluator imitates its teacher on positions of
 * gnubg's own play. Best play is also broken down by gnubg's position class
 * of the position before the move (contact, crashed, race).
 *
 *   npm run analysis-vs-gnubg [-- --plies 1] [-- --versus 0] [-- --only m03-3pt] [-- --data <dir with nets/backgammon.*>]
 */

const REPO = resolve(__dirname, '../..');
const DIRS = [
  process.env.ORACLES_DIR,
  resolve(REPO, '../shared/oracles'),
  resolve(REPO, 'test/fixtures/oracles'),
]
  .filter((d): d is string => !!d)
  .map((d) => resolve(d, 'gnubg-matches/matches'))
  .filter((d) => existsSync(d));

function read(name: string): string {
  for (const dir of DIRS) {
    if (existsSync(resolve(dir, name))) return readFileSync(resolve(dir, name), 'utf8');
    if (existsSync(resolve(dir, `${name}.gz`)))
      return gunzipSync(readFileSync(resolve(dir, `${name}.gz`))).toString('utf8');
  }
  throw new Error(`${name} not found in ${DIRS.join(', ')}`);
}

interface OracleDecision {
  game: number;
  index: number;
  player: number;
  action: string;
  positionId?: string;
  luck?: { value: number } | null;
  chequer?: {
    unforced: boolean;
    bestPositionIdAfter: string;
    candidates: (string | { positionIdAfter: string })[];
  } | null;
  cubeDecision?: { best?: string; correct?: string } | null;
}

interface Oracle {
  match: { players: [string, string]; matchLength: number; rules?: { jacoby?: boolean } };
  decisions: OracleDecision[];
  stats: { recomputed: Record<string, { chequerErrorRateMilli: number; unforcedMoves: number; luckTotal: number }> };
}

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const plies = Number(arg('plies') ?? 0);
const versus = arg('versus') ?? '2';
if (versus !== '0' && versus !== '2') throw new Error('--versus is 0 or 2 (gnubg\'s analyses in the oracle files)');
const only = arg('only');
// --data <dir>: another data directory (its nets/backgammon.*), e.g. a candidate network's; default the tree's.
const dataDir = arg('data') ? resolve(arg('data') as string) : undefined;
const ids = [
  ...new Set(
    DIRS.flatMap((d) => readdirSync(d))
      .map((f) => /^(m\d\d-[\w-]+?)\.mat(\.gz)?$/.exec(f)?.[1])
      .filter((x): x is string => !!x),
  ),
]
  .filter((id) => !only || id === only)
  .sort();

const gnubgDoubles = (best: string | undefined): boolean => best === 'double_take' || best === 'double_pass';
const ourDoubles = (best: string): boolean => best === 'double-take' || best === 'double-pass';
const pct = (a: number, n: number): string => (n > 0 ? `${((100 * a) / n).toFixed(1)}%` : '-');

type PositionClass = 'contact' | 'crashed' | 'race';
const CRASHED_CHECKERS = 6;

/**
 * gnubg's class of the position before a move (its eval.c): a race when no
 * contact is left; crashed when either side has at most 6 checkers left in
 * play beyond those piled on its 1 and 2 points (the positions gnubg gives
 * its own network); contact otherwise.
 */
function positionClass(positionId: string): PositionClass {
  const parsed = parseGnubgPositionId(positionId, 'white');
  if (!parsed.ok) throw new Error(`oracle position ${positionId}: ${parsed.error.message}`);
  const b = parsed.value.board;
  if (isShortRace(b)) return 'race';
  for (const sign of [1, -1]) {
    // This side's checkers on its points 1..24 (own numbering) and the bar.
    const at = (p: number): number => Math.max(0, sign * b[sign > 0 ? p : 25 - p]);
    let total = sign > 0 ? b[MOVER_BAR] : b[OPPONENT_BAR];
    for (let p = 1; p <= 24; p++) total += at(p);
    const ace = at(1);
    const deuce = at(2);
    if (total <= CRASHED_CHECKERS) return 'crashed';
    if (ace > 1) {
      if (total <= CRASHED_CHECKERS + ace) return 'crashed';
      if (deuce > 1 && 1 + total - (ace + deuce) <= CRASHED_CHECKERS) return 'crashed';
    } else if (deuce >= 1 && total <= CRASHED_CHECKERS + deuce - 1) return 'crashed';
  }
  return 'contact';
}

async function main(): Promise<void> {
  const service = new AnalysisService(new Analyzers(evaluatorsOf('neural', dataDir)));
  const totals = {
    unforced: 0,
    cubelessSame: 0,
    same: 0,
    inTop: 0,
    cube: 0,
    cubeSame: 0,
    actual: 0,
    actualSame: 0,
  };
  // `gnubg0`: gnubg 0-ply's best play the same as the oracle's (the yardstick; all of them with --versus 0).
  const byClass: Record<PositionClass, { unforced: number; same: number; gnubg0: number }> = {
    contact: { unforced: 0, same: 0, gnubg0: 0 },
    crashed: { unforced: 0, same: 0, gnubg0: 0 },
    race: { unforced: 0, same: 0, gnubg0: 0 },
  };
  const players: { id: string; name: string; gnubg: number; ours: number; gnubgLuck: number; ourLuck: number }[] = [];
  // Luck of each roll played (the mover's equity after the best play of his roll minus its mean over the rolls), ours against gnubg's.
  const luck = { rolls: 0, absDiff: 0 };
  const started = Date.now();
  for (const id of ids) {
    const oracle = JSON.parse(read(`${id}.${versus}ply.json`)) as Oracle;
    const gnubg0 = new Map(
      (JSON.parse(read(`${id}.0ply.json`)) as Oracle).decisions.map((o) => [`${o.game}:${o.index}`, o.chequer?.bestPositionIdAfter]),
    );
    // gnubg's analysis set the session's Jacoby rule before importing the .mat file (its README); so does the request.
    const jacoby = oracle.match.matchLength === 0 ? { jacoby: oracle.match.rules?.jacoby === true } : {};
    const plan = planMatchAnalysis({ format: 'mat', text: read(`${id}.mat`) }, { plies, ...jacoby }, service);
    const report: MatchReport = await plan.run({ progress: () => {}, aborted: () => false });
    const ours = new Map<string, DecisionReport[]>();
    for (const g of report.games) {
      for (const d of g.decisions) {
        const key = `${g.number}:${d.index as number}`;
        ours.set(key, [...(ours.get(key) ?? []), d]);
      }
    }
    const m = {
      unforced: 0,
      cubelessSame: 0,
      same: 0,
      inTop: 0,
      cube: 0,
      cubeSame: 0,
      actual: 0,
      actualSame: 0,
    };
    for (const o of oracle.decisions) {
      const mine = ours.get(`${o.game}:${o.index}`) ?? [];
      const move = mine.find((d) => d.kind === 'move');
      if (o.action === 'move' && o.luck && move && typeof move.luck === 'number') {
        luck.rolls++;
        luck.absDiff += Math.abs(move.luck - o.luck.value);
      }
      if (o.action === 'move' && o.chequer?.unforced) {
        if (!move) throw new Error(`${id}: no analysis of game ${o.game} record ${o.index}`);
        m.unforced++;
        const cls = byClass[positionClass(o.positionId as string)];
        cls.unforced++;
        if (gnubg0.get(`${o.game}:${o.index}`) === o.chequer.bestPositionIdAfter) cls.gnubg0++;
        if (move.bestPositionIdAfter === o.chequer.bestPositionIdAfter) {
          m.same++;
          cls.same++;
        }
        if (move.cubelessBestPositionIdAfter === o.chequer.bestPositionIdAfter) m.cubelessSame++;
        const listed = o.chequer.candidates.map((c) => (typeof c === 'string' ? c : c.positionIdAfter));
        if (listed.includes(move.bestPositionIdAfter as string)) m.inTop++;
      }
      if (!o.cubeDecision) continue;
      const cube = mine.find((d) => d.kind === 'cube');
      if (!cube) continue; // a cube gnubg analysed and we hold dead (or the reverse): counted below
      m.cube++;
      const same =
        o.action === 'take' || o.action === 'drop'
          ? (o.cubeDecision.correct === 'pass') === (cube.best === 'drop')
          : gnubgDoubles(o.cubeDecision.best) === ourDoubles(cube.best);
      if (same) m.cubeSame++;
      if (o.action !== 'move') {
        m.actual++;
        if (same) m.actualSame++;
      }
    }
    const gnubgCube = oracle.decisions.filter((o) => o.cubeDecision).length;
    for (const [k, v] of Object.entries(m)) totals[k as keyof typeof totals] += v;
    const rates = oracle.match.players.map((name, p) => {
      const gnubg = oracle.stats.recomputed[String(p)].chequerErrorRateMilli;
      const key = Object.keys(report.players)[p];
      const mine = report.players[key].chequerErrorRate as number;
      const gnubgLuck = oracle.stats.recomputed[String(p)].luckTotal;
      players.push({ id, name: `${id} ${name}`, gnubg, ours: mine, gnubgLuck, ourLuck: report.players[key].luck as number });
      return `${gnubg.toFixed(1)}/${mine.toFixed(1)}`;
    });
    console.log(
      `${id.padEnd(10)} unforced ${String(m.unforced).padStart(4)}  best same ${pct(m.same, m.unforced).padStart(6)}  in top ${pct(m.inTop, m.unforced).padStart(6)}  ` +
        `cube ${String(m.cube).padStart(3)}/${gnubgCube} same ${pct(m.cubeSame, m.cube).padStart(6)}  doubles/takes/drops ${m.actualSame}/${m.actual}  ` +
        `chequer err rate gnubg/ours p0 ${rates[0]} p1 ${rates[1]}`,
    );
  }
  console.log(
    `ALL        unforced ${totals.unforced}  best same ${pct(totals.same, totals.unforced)} (cubeless money ranking: ${pct(totals.cubelessSame, totals.unforced)})  in top ${pct(totals.inTop, totals.unforced)}  ` +
      `cube ${totals.cube} same ${pct(totals.cubeSame, totals.cube)}  doubles/takes/drops same ${pct(totals.actualSame, totals.actual)} (${totals.actualSame}/${totals.actual})`,
  );
  console.log(
    `best same by gnubg's class of the position: ${Object.entries(byClass)
      .map(([k, v]) => `${k} ${pct(v.same, v.unforced)} of ${v.unforced} (gnubg 0-ply ${pct(v.gnubg0, v.unforced)})`)
      .join(', ')}`,
  );
  const luckDiffs = players.map((p) => Math.abs(p.ourLuck - p.gnubgLuck));
  console.log(
    `luck of a roll, |ours − gnubg|: mean ${(luck.absDiff / Math.max(1, luck.rolls)).toFixed(4)} over ${luck.rolls} rolls; ` +
      `per player total, |ours − gnubg|: mean ${(luckDiffs.reduce((a, b) => a + b, 0) / luckDiffs.length).toFixed(3)}, max ${Math.max(...luckDiffs).toFixed(3)} ` +
      `(gnubg's totals: mean |total| ${(players.reduce((a, p) => a + Math.abs(p.gnubgLuck), 0) / players.length).toFixed(3)})`,
  );
  const diffs = players.map((p) => p.ours - p.gnubg);
  const meanAbs = diffs.reduce((s, d) => s + Math.abs(d), 0) / diffs.length;
  console.log(
    `per player chequer error rate, ours − gnubg (mEMG): mean |Δ| ${meanAbs.toFixed(1)}, min ${Math.min(...diffs).toFixed(1)}, max ${Math.max(...diffs).toFixed(1)}`,
  );
  let pairs = 0;
  let ordered = 0;
  let inMatchPairs = 0;
  let inMatchOrdered = 0;
  for (let i = 0; i < players.length; i++) {
    for (let j = i + 1; j < players.length; j++) {
      const a = players[i];
      const b = players[j];
      if (Math.abs(a.gnubg - b.gnubg) < 10) continue;
      const same = Math.sign(a.gnubg - b.gnubg) === Math.sign(a.ours - b.ours);
      pairs++;
      if (same) ordered++;
      if (a.id === b.id) {
        inMatchPairs++;
        if (same) inMatchOrdered++;
      }
    }
  }
  console.log(
    `players whose gnubg error rates differ by ≥ 10 mEMG, ranked the same: ${ordered}/${pairs} pairs of all sides, ${inMatchOrdered}/${inMatchPairs} within a match`,
  );
  console.log(`against gnubg ${versus}-ply; plies ${plies}, evaluator ${service.kind}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await service.close();
}

void main();
