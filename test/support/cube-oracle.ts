import { existsSync, readFileSync, readdirSync } from 'fs';
import { resolve } from 'path';
import { gunzipSync } from 'zlib';
import { parseGnubgPositionId } from '../../src/engine/short/gnubg-id';
import { ShortAnalyzer, cubeEfficiencyOf } from '../../src/eval/analysis';
import { CubeAction, CubeDecision, CubeOwner, CubeSituation, cubeDecision } from '../../src/eval/cube/decision';
import { Probabilities } from '../../src/eval/probabilities';

/*
 * The cube decisions of the public gnubg matches (../shared/oracles/gnubg-matches,
 * or the copy under test/fixtures/oracles) against ours, decision by
 * decision: every roll at which gnubg analysed the cube (the player could
 * double, with a cube that still mattered) and every double. gnubg's record
 * gives the cubeless probabilities it evaluated and the no-double and
 * double / take equities (money per cube, EMG in matches) and the action it
 * derived from them.
 */

const REPO = resolve(__dirname, '../..');

export const ORACLE_DIRS: readonly string[] = [process.env.ORACLES_DIR, resolve(REPO, '../shared/oracles'), resolve(REPO, 'test/fixtures/oracles')]
  .filter((d): d is string => !!d)
  .map((d) => resolve(d, 'gnubg-matches/matches'))
  .filter((d) => existsSync(d));

/** A file of the oracle, from the first folder that holds it (plain or gzipped), or null. */
export function readOracleFile(name: string, dirs: readonly string[] = ORACLE_DIRS): string | null {
  for (const dir of dirs) {
    if (existsSync(resolve(dir, name))) return readFileSync(resolve(dir, name), 'utf8');
    if (existsSync(resolve(dir, `${name}.gz`))) return gunzipSync(readFileSync(resolve(dir, `${name}.gz`))).toString('utf8');
  }
  return null;
}

/** The match ids (`m01-1pt` …) with a `.mat` file in the oracle folders. */
export function oracleMatchIds(dirs: readonly string[] = ORACLE_DIRS): string[] {
  const ids = dirs.flatMap((d) => readdirSync(d)).map((f) => /^(m\d\d-[\w-]+?)\.mat(\.gz)?$/.exec(f)?.[1]);
  return [...new Set(ids.filter((x): x is string => !!x))].sort();
}

export interface OracleCube {
  readonly probs: readonly [number, number, number, number, number];
  readonly noDouble: number;
  readonly doubleTake: number;
  readonly best: string;
}

export interface OracleCubeRecord {
  readonly game: number;
  readonly index: number;
  readonly player: 0 | 1;
  readonly action: string;
  readonly positionId: string;
  readonly cube: { readonly value: number; readonly owner: number };
  readonly score: readonly [number, number];
  readonly crawford: boolean;
  readonly cubeDecision?: OracleCube | null;
}

export interface CubeOracle {
  readonly id: string;
  readonly matchLength: number;
  readonly jacoby: boolean;
  /** The rolls and doubles with gnubg's cube decision. */
  readonly records: readonly (OracleCubeRecord & { readonly cubeDecision: OracleCube })[];
}

/**
 * gnubg's cube decisions of one match: `plies` 0 (the full 0-ply oracle, or
 * the fixture's `<id>.0ply-cube.json`) or 2; null when the files are absent.
 */
export function readCubeOracle(id: string, plies: 0 | 2, dirs: readonly string[] = ORACLE_DIRS): CubeOracle | null {
  const text = plies === 0 ? (readOracleFile(`${id}.0ply.json`, dirs) ?? readOracleFile(`${id}.0ply-cube.json`, dirs)) : readOracleFile(`${id}.2ply.json`, dirs);
  if (text === null) return null;
  const oracle = JSON.parse(text) as { match: { matchLength: number; rules?: { jacoby?: boolean } }; decisions: OracleCubeRecord[] };
  return {
    id,
    matchLength: oracle.match.matchLength,
    jacoby: oracle.match.rules?.jacoby === true,
    records: oracle.decisions.filter(
      (d): d is OracleCubeRecord & { cubeDecision: OracleCube } => !!d.cubeDecision && (d.action === 'move' || d.action === 'double'),
    ),
  };
}

/** The cube situation of a record, seen from the player who may double. */
export function situationOfRecord(oracle: CubeOracle, r: OracleCubeRecord): CubeSituation {
  const owner: CubeOwner = r.cube.owner < 0 ? 'centre' : r.cube.owner === r.player ? 'mover' : 'opponent';
  if (oracle.matchLength === 0) return { kind: 'money', value: r.cube.value, owner, jacoby: oracle.jacoby };
  const other = r.player === 0 ? 1 : 0;
  return { kind: 'match', value: r.cube.value, owner, length: oracle.matchLength, score: [r.score[r.player], r.score[other]], crawford: r.crawford };
}

export function probabilitiesOfGnubg(p: OracleCube['probs']): Probabilities {
  return { win: p[0], winMars: p[1], winKoks: p[2], loseMars: p[3], loseKoks: p[4] };
}

/** Whether gnubg's best action (`double_take`…) or ours (`doubleTake`…) is a double. */
export function isDouble(action: string | CubeAction): boolean {
  return action === 'double_take' || action === 'double_pass' || action === 'doubleTake' || action === 'doublePass';
}

export interface CubeComparison {
  readonly record: OracleCubeRecord & { readonly cubeDecision: OracleCube };
  readonly situation: CubeSituation;
  readonly efficiency: number;
  readonly probabilities: Probabilities;
  readonly ours: CubeDecision;
  /** The same double / no double as gnubg. */
  readonly sameDouble: boolean;
  /** The same take / pass as gnubg (a take when double / take is at most the pass's 1). */
  readonly sameTake: boolean;
}

/**
 * Our cube decision of every record: from gnubg's own probabilities
 * (`probabilities: 'gnubg'`, which isolates the cube formulas) or from our
 * analyzer's evaluation at `plies`; always with our cube efficiency of the
 * position.
 */
export function compareCubeDecisions(oracle: CubeOracle, analyzer: ShortAnalyzer, source: 'gnubg' | 'ours', plies = 0): CubeComparison[] {
  return oracle.records.map((record) => {
    const position = parseGnubgPositionId(record.positionId, 'white');
    if (!position.ok) throw new Error(`${oracle.id} ${record.game}:${record.index}: ${position.error.message}`);
    const e = analyzer.evaluate(position.value, source === 'gnubg' ? 0 : plies);
    if (!e.ok) throw new Error(`${oracle.id} ${record.game}:${record.index}: ${e.error.message}`);
    const probabilities = source === 'gnubg' ? probabilitiesOfGnubg(record.cubeDecision.probs) : e.value.probabilities;
    const situation = situationOfRecord(oracle, record);
    const efficiency = cubeEfficiencyOf(e.value);
    const ours = cubeDecision(probabilities, situation, { efficiency });
    const g = record.cubeDecision;
    return {
      record,
      situation,
      efficiency,
      probabilities,
      ours,
      sameDouble: isDouble(g.best) === isDouble(ours.action),
      sameTake: g.doubleTake <= 1 === ours.doubleTake <= 1 + 1e-9,
    };
  });
}

/** Counts and mean absolute differences of a set of comparisons. */
export function summarise(rows: readonly CubeComparison[]): { n: number; sameDouble: number; sameTake: number; noDoubleError: number; doubleTakeError: number } {
  const n = rows.length;
  const mean = (f: (r: CubeComparison) => number) => (n > 0 ? rows.reduce((s, r) => s + f(r), 0) / n : 0);
  return {
    n,
    sameDouble: rows.filter((r) => r.sameDouble).length,
    sameTake: rows.filter((r) => r.sameTake).length,
    noDoubleError: mean((r) => Math.abs(r.ours.noDouble - r.record.cubeDecision.noDouble)),
    doubleTakeError: mean((r) => Math.abs(r.ours.doubleTake - r.record.cubeDecision.doubleTake)),
  };
}
