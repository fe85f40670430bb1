import { readdirSync } from 'fs';
import { MAT_DEFAULT_JACOBY, makeMat, parseMat } from '../../../src/engine/short/mat';
import { MatchRecord, ReplayedMatch, replayMatch } from '../../../src/engine/short/match-record';
import { makeSgf, parseSgf } from '../../../src/engine/short/sgf';
import { SeededRandom } from '../../../src/engine/random';
import { oraclePath, readOracleText } from '../../support/oracles';
import { runs } from '../../support/runs';

/** Seeded damages per file format (500 in CI; see runs()). */
const DAMAGES = runs(500);

interface OracleDecision {
  game: number;
  index: number;
  player: number;
  action: string;
  positionId?: string;
  matchId?: string;
  dice?: number[];
  positionIdAfter?: string;
}

interface Oracle {
  match: { matchLength: number; rules: { jacoby: boolean }; finalScore: [number, number] };
  games: { winner: number; pointsWon: number; resigned: boolean; crawford: boolean }[];
  decisions: OracleDecision[];
}

const DIR = 'gnubg-matches/matches';
const IDS = readdirSync(oraclePath(DIR))
  .map((f) => /^(m\d\d-[\w-]+?)\.mat(\.gz)?$/.exec(f)?.[1])
  .filter((id): id is string => !!id)
  .sort();

function replay(record: MatchRecord): ReplayedMatch {
  const r = replayMatch(record);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Our records in gnubg's order and terms (resignations are not decisions here). */
function decisionsOf(m: ReplayedMatch): OracleDecision[] {
  return m.games.flatMap(
    (g) =>
      g.decisions.map((d) => ({
        game: d.game,
        player: d.player,
        action: d.action,
        positionId: d.positionId,
        matchId: d.matchId,
        ...(d.dice ? { dice: [d.dice[0], d.dice[1]] } : {}),
        ...(d.positionIdAfter ? { positionIdAfter: d.positionIdAfter } : {}),
      })) as OracleDecision[],
  );
}

function expectAgreement(m: ReplayedMatch, oracle: Oracle): void {
  const expected = oracle.decisions
    .filter((d) => d.action !== 'resign')
    .map((d) => ({
      game: d.game,
      player: d.player,
      action: d.action,
      positionId: d.positionId,
      matchId: d.matchId,
      ...(d.dice ? { dice: d.dice } : {}),
      ...(d.positionIdAfter ? { positionIdAfter: d.positionIdAfter } : {}),
    }));
  expect(decisionsOf(m)).toEqual(expected);
  expect(
    m.games.map((g) => ({
      winner: g.winner,
      pointsWon: g.points,
      resigned: g.resigned,
      crawford: g.crawford,
    })),
  ).toEqual(
    oracle.games.map((g) => ({
      winner: g.winner,
      pointsWon: g.pointsWon,
      resigned: g.resigned,
      crawford: g.crawford,
    })),
  );
  expect(m.finalScore).toEqual(oracle.match.finalScore);
}

describe('gnubg match files (.mat, SGF) against gnubg', () => {
  it('finds the twelve public matches', () => {
    expect(IDS).toHaveLength(12);
  });

  describe.each(IDS)('%s', (id) => {
    const oracle = JSON.parse(readOracleText(`${DIR}/${id}.2ply.json`)) as Oracle;
    const jacoby = oracle.match.matchLength === 0 && oracle.match.rules.jacoby;

    it('imports the .mat file: every decision, its Position ID and Match ID, the winners, points and final score agree', () => {
      const parsed = parseMat(readOracleText(`${DIR}/${id}.mat`));
      if (!parsed.ok) throw new Error(parsed.error.message);
      // A .mat file does not say whether money play used the Jacoby rule: gnubg's analysis set it before importing.
      expectAgreement(replay({ ...parsed.value, ...(oracle.match.matchLength === 0 ? { jacoby } : {}) }), oracle);
    });

    it('imports the SGF file the same way', () => {
      const parsed = parseSgf(readOracleText(`${DIR}/${id}.sgf`));
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect(parsed.value.jacoby === true).toBe(jacoby);
      expectAgreement(replay(parsed.value), oracle);
    });

    it('exports .mat and SGF byte-stably: export → import → export is a fixed point', () => {
      const parsed = parseMat(readOracleText(`${DIR}/${id}.mat`));
      if (!parsed.ok) throw new Error(parsed.error.message);
      const first = replay(parsed.value);
      const mat = makeMat(first.record);
      const again = parseMat(mat);
      if (!again.ok) throw new Error(again.error.message);
      expect(makeMat(replay(again.value).record)).toBe(mat);
      const crawford = new Set(first.games.filter((g) => g.crawford).map((g) => g.number));
      const sgf = makeSgf(first.record, crawford);
      const fromSgf = parseSgf(sgf);
      if (!fromSgf.ok) throw new Error(fromSgf.error.message);
      const second = replay(fromSgf.value);
      expect(makeSgf(second.record, crawford)).toBe(sgf);
      expect(decisionsOf(second)).toEqual(decisionsOf(first));
    });
  });
});

describe('a match file with a problem', () => {
  const header =
    '; [Player 1 "Alice"]\n; [Variation "Backgammon"]\n\n 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n';

  it('reads XG header tags', () => {
    const r = parseMat(`${header}  1) 31: 8/5 6/5                42: 8/4 6/4\n      Wins 1 point\n`);
    expect(r.ok && r.value.tags).toEqual([
      { name: 'Player 1', value: 'Alice' },
      { name: 'Variation', value: 'Backgammon' },
    ]);
  });

  it('names the game, the move and the reason of an illegal move', () => {
    const parsed = parseMat(
      `${header}  1) 31: 8/5 6/5                42: 8/4 6/4\n  2) 65: 24/18 18/12             11: 6/5 6/5 6/5 6/5\n      Wins 1 point\n`,
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    const r = replayMatch(parsed.value);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ code: 'INVALID_MATCH_FILE', game: 1, move: 2 });
    expect(r.error.message).toMatch(/^game 1, move 2: 65: 24\/18 18\/12 is not a legal play/);
  });

  it('refuses the cube actions the scoring core refuses: a double in the Crawford game (CUBE-6), a double by the side without the cube (CUBE-2)', () => {
    const crawford = parseMat(
      `${header}  1) 31: 8/5 6/5                42: 8/4 6/4\n      Wins 2 points\n\n Game 2\n Alice : 2                      Bob : 0\n  1) 31: 8/5 6/5                 Doubles => 2\n`,
    );
    if (!crawford.ok) throw new Error(crawford.error.message);
    const refused = replayMatch(crawford.value);
    expect(!refused.ok && refused.error).toMatchObject({ code: 'INVALID_MATCH_FILE', game: 2, move: 1, rule: 'CUBE-6' });
    const owner = parseMat(
      `${header}  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Takes                        Doubles => 4\n`,
    );
    if (!owner.ok) throw new Error(owner.error.message);
    const notOwned = replayMatch(owner.value);
    expect(!notOwned.ok && notOwned.error).toMatchObject({ code: 'INVALID_MATCH_FILE', game: 1, move: 2, rule: 'CUBE-2' });
  });

  it('names the line of an unreadable one', () => {
    const r = parseMat(`${header}  1) 31: 8/5 6/x                42: 24/20 13/11\n`);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toMatchObject({
        code: 'INVALID_MATCH_FILE',
        game: 1,
        move: 1,
        reason: 'cannot read the step "6/x"',
      });
  });
});

describe('damaged match files', () => {
  const mat = readOracleText(`${DIR}/m07-5pt.mat`);
  const sgf = readOracleText(`${DIR}/m07-5pt.sgf`);
  const alphabet = '0123456789/*: abcxyz()=>\n;[]WB';

  /** Deletes, replaces or inserts a few characters at seeded places. */
  function damage(text: string, random: SeededRandom): string {
    let out = text;
    const edits = 1 + random.below(3);
    for (let k = 0; k < edits; k++) {
      const at = random.below(out.length);
      const kind = random.below(3);
      const ch = alphabet[random.below(alphabet.length)];
      out =
        kind === 0
          ? out.slice(0, at) + out.slice(at + 1)
          : kind === 1
            ? out.slice(0, at) + ch + out.slice(at + 1)
            : out.slice(0, at) + ch + out.slice(at);
    }
    return out;
  }

  it.each([
    ['mat', mat, parseMat],
    ['sgf', sgf, parseSgf],
  ] as const)(
    `a damaged %s file is read or refused with INVALID_MATCH_FILE, never a crash (${DAMAGES} seeded damages)`,
    (_name, text, parse) => {
      const random = new SeededRandom(15);
      let refused = 0;
      for (let i = 0; i < DAMAGES; i++) {
        const parsed = parse(damage(text, random));
        const replayed = parsed.ok ? replayMatch(parsed.value) : parsed;
        if (!replayed.ok) {
          refused++;
          expect(replayed.error.code).toBe('INVALID_MATCH_FILE');
          expect(replayed.error.reason.length).toBeGreaterThan(0);
        }
      }
      // More than one in five of the damaged files is refused.
      expect(refused).toBeGreaterThan(DAMAGES / 5);
    },
  );
});

describe('the Jacoby rule of a .mat file (CUBE-5)', () => {
  const session = (tags: string) => `${tags}\n 0 point match\n\n Game 1\n White : 0                      Black : 0\n  1) 31: 8/5 6/5                 52: 13/11 13/8\n`;

  it('a money session without a Jacoby tag is read with gnubg 1.07\'s default: the rule on', () => {
    const parsed = parseMat(session(''));
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(MAT_DEFAULT_JACOBY).toBe(true);
    expect(parsed.value.jacoby).toBe(true);
  });

  it('an XG-style Jacoby tag says it, and is written back as it was', () => {
    const off = parseMat(session('; [Jacoby "Off"]\n'));
    const on = parseMat(session('; [Jacoby "On"]\n'));
    if (!off.ok || !on.ok) throw new Error('unreadable');
    expect(off.value.jacoby).toBe(false);
    expect(on.value.jacoby).toBe(true);
    expect(makeMat(replay(off.value).record)).toContain('; [Jacoby "Off"]');
  });

  it('a match has no Jacoby rule (CUBE-6)', () => {
    const parsed = parseMat(' 3 point match\n\n Game 1\n White : 0                      Black : 0\n  1) 31: 8/5 6/5                 52: 13/11 13/8\n');
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.value.jacoby).toBeUndefined();
  });
});
