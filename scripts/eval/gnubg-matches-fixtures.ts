import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { gzipSync } from 'zlib';

/*
 * Copies the public gnubg matches (../shared/oracles/gnubg-matches) into
 * test/fixtures/oracles/gnubg-matches, gzipped, so that a clean clone runs
 * the match-file tests and `npm run analysis-vs-gnubg`: the `.mat` and
 * `.sgf` files as they are, the 2-ply JSON oracle cut down to the fields
 * the tests and the comparison read, and from the 0-ply oracle only its
 * cube decisions (gnubg's cubeless probabilities and the cubeful equities it
 * derived from them, for test/eval/cube-oracle.test.ts).
 *
 *   npx tsx scripts/eval/gnubg-matches-fixtures.ts
 */
const REPO = resolve(__dirname, '../..');
const SOURCE = resolve(
  process.env.ORACLES_DIR ?? resolve(REPO, '../shared/oracles'),
  'gnubg-matches/matches',
);
const TARGET = resolve(REPO, 'test/fixtures/oracles/gnubg-matches/matches');

type Json = Record<string, unknown>;

function pick(o: unknown, keys: string[]): Json | null {
  if (!o || typeof o !== 'object') return null;
  const out: Json = {};
  for (const k of keys) if ((o as Json)[k] !== undefined) out[k] = (o as Json)[k];
  return out;
}

function trim(oracle: Json): Json {
  const decisions = (oracle.decisions as Json[]).map((d) => {
    const r = pick(d, [
      'game',
      'index',
      'player',
      'action',
      'positionId',
      'matchId',
      'dice',
      'positionIdAfter',
      'points',
      'cube',
      'score',
      'crawford',
    ]) as Json;
    if (d.chequer) {
      const c = d.chequer as Json;
      r.chequer = {
        ...pick(c, ['nMoves', 'unforced', 'bestPositionIdAfter', 'error', 'skill']),
        candidates: (c.candidates as Json[]).map((x) => x.positionIdAfter),
      };
    }
    if (d.cubeDecision)
      r.cubeDecision = pick(d.cubeDecision, ['best', 'correct', 'actual', 'error', 'close', 'skill', 'noDouble', 'doubleTake']);
    if (d.luck) r.luck = pick(d.luck, ['value']);
    return r;
  });
  const stats = oracle.stats as { recomputed: Record<string, Json> };
  const recomputed: Record<string, Json | null> = {};
  for (const p of ['0', '1']) {
    recomputed[p] = pick(stats.recomputed[p], [
      'unforcedMoves',
      'chequerErrorRateMilli',
      'closeCubeDecisions',
      'cubeErrorRateMilli',
      'overallErrorRateMilli',
      'luckTotal',
    ]);
  }
  const games = (oracle.games as Json[]).map((g) =>
    pick(g, ['scoreBefore', 'crawford', 'winner', 'pointsWon', 'resigned', 'records']),
  );
  return {
    match: pick(oracle.match, ['matchLength', 'players', 'rules', 'games', 'finalScore']),
    games,
    decisions,
    stats: { recomputed },
  };
}

/** The 0-ply oracle's cube decisions before a roll or a double, with what gnubg computed them from. */
function cubeDecisions(oracle: Json): Json {
  const decisions = (oracle.decisions as Json[])
    .filter((d) => d.cubeDecision && (d.action === 'move' || d.action === 'double'))
    .map((d) => ({
      ...pick(d, ['game', 'index', 'player', 'action', 'positionId', 'cube', 'score', 'crawford']),
      cubeDecision: pick(d.cubeDecision, ['probs', 'noDouble', 'doubleTake', 'best']),
    }));
  return { match: pick(oracle.match, ['matchLength', 'rules']), decisions };
}

mkdirSync(TARGET, { recursive: true });
for (const name of readdirSync(SOURCE).sort()) {
  const path = resolve(SOURCE, name);
  if (/^m\d\d-[\w-]+\.(mat|sgf)$/.test(name))
    writeFileSync(resolve(TARGET, `${name}.gz`), gzipSync(readFileSync(path), { level: 9 }));
  else if (name.endsWith('.2ply.json')) {
    const oracle = JSON.parse(readFileSync(path, 'utf8')) as Json;
    writeFileSync(resolve(TARGET, `${name}.gz`), gzipSync(JSON.stringify(trim(oracle)), { level: 9 }));
  } else if (name.endsWith('.0ply.json')) {
    const oracle = JSON.parse(readFileSync(path, 'utf8')) as Json;
    writeFileSync(resolve(TARGET, name.replace('.0ply.json', '.0ply-cube.json.gz')), gzipSync(JSON.stringify(cubeDecisions(oracle)), { level: 9 }));
  }
}
console.log(`wrote ${readdirSync(TARGET).length} files to ${TARGET}`);
