import { readFileSync } from 'fs';
import { resolve } from 'path';
import { parseNotation, makeNotation } from '../../../src/engine/notation';
import { Side, otherSide } from '../../../src/engine/side';
import { boardKey, flipBoard } from '../../../src/engine/short/board';
import {
  GnubgMatchState,
  checkGnubgMatchState,
  makeGnubgId,
  makeGnubgPositionId,
  makeMatchId,
  parseGnubgId,
  parseGnubgPositionId,
  parseMatchId,
} from '../../../src/engine/short/gnubg-id';
import { makeGnubgNotation } from '../../../src/engine/short/gnubg-notation';
import {
  initialShortPosition,
  makeShortPositionJson,
  parseShortPosition,
} from '../../../src/engine/short/position';
import { SHORT_STANDARD } from '../../../src/engine/short/rules';
import { legalShortTurns } from '../../../src/engine/short/turn';
import { validateShortNotation } from '../../../src/engine/short/validate';
import { Xgid, makeXgid, parseXgid } from '../../../src/engine/short/xgid';
import { boardOf, readGnubgCases } from './support/gnubg-cases';
import { referenceApply } from './support/reference';
import { sampled } from '../../support/runs';

/*
 * gnubg's Position ID, Match ID and move text, and XG's XGID, checked
 * byte for byte against gnubg 1.07: the oracle's 2000 cases and 37,423
 * moves, plus fixtures made by gnubg itself (fixtures/make-gnubg-ids.py).
 */
const cases = readGnubgCases();

interface MatchFixture {
  commands: string[];
  matchId: string;
  expected: Omit<GnubgMatchState, 'cubeOwner' | 'onRoll' | 'turn' | 'score'> & {
    cubeOwner: 0 | 1 | null;
    onRoll: 0 | 1;
    turn: 0 | 1;
    score: [number, number];
  };
}
interface XgidFixture {
  xgid: string;
  positionId: string;
  matchId: string;
  gnubgBoard: [number[], number[]];
}
const fixtures = JSON.parse(readFileSync(resolve(__dirname, 'fixtures/gnubg-ids.json'), 'utf8')) as {
  matchIds: MatchFixture[];
  xgids: XgidFixture[];
};

/** A position built from the JSON contract, independently of every ID parser. */
function position(json: unknown) {
  const parsed = parseShortPosition(json);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

// White: bar 1, black: bar 2 — a checker on the bar for each side, and the sides' checkers differ.
const BOTH_BARS = {
  white: { points: { '24': 1, '13': 5, '8': 3, '6': 5 }, bar: 1 },
  black: { points: { '13': 5, '8': 3, '6': 5 }, bar: 2 },
};

describe('gnubg Position ID', () => {
  it('the opening is 4HPwATDgc/ABMA for either side on roll', () => {
    expect(makeGnubgPositionId(initialShortPosition('white'))).toBe('4HPwATDgc/ABMA');
    expect(makeGnubgPositionId(initialShortPosition('black'))).toBe('4HPwATDgc/ABMA');
  });

  it('encodes (player not on roll, player on roll) with the bar last: checked against gnubg with both bars occupied', () => {
    // gnubg 1.07 after `set xgid XGID=b-----E-C---eE---c-e----AA:…` (fixtures/gnubg-ids.json).
    const whiteOnRoll = position({ turn: 'white', ...BOTH_BARS });
    const blackOnRoll = position({ turn: 'black', ...BOTH_BARS });
    expect(makeGnubgPositionId(whiteOnRoll)).toBe('4HPwAWDgc/ABUA');
    expect(makeGnubgPositionId(blackOnRoll)).toBe('4HPwAVDgc/ABYA');
    // Swapping the sides or dropping a bar checker gives another ID.
    const parsedSwapped = parseGnubgPositionId('4HPwAWDgc/ABUA', 'black');
    if (!parsedSwapped.ok) throw new Error(parsedSwapped.error.message);
    expect(makeShortPositionJson(parsedSwapped.value).white.bar).toBe(2);
    const parsed = parseGnubgPositionId('4HPwAWDgc/ABUA', 'white');
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(makeShortPositionJson(parsed.value)).toEqual(makeShortPositionJson(whiteOnRoll));
  });

  it('round-trips asymmetric positions seen from either side', () => {
    const json = {
      white: { points: { '20': 2, '9': 4, '6': 3, '3': 2 }, bar: 1, off: 3 },
      black: { points: { '23': 1, '15': 3, '7': 6, '1': 1 }, bar: 0, off: 4 },
    };
    for (const turn of ['white', 'black'] as Side[]) {
      const p = position({ turn, ...json });
      const id = makeGnubgPositionId(p);
      expect(id).toHaveLength(14);
      const back = parseGnubgPositionId(id, turn);
      if (!back.ok) throw new Error(back.error.message);
      expect(boardKey(back.value.board)).toBe(boardKey(p.board));
      const seenByOther = makeGnubgPositionId({ turn: otherSide(turn), board: flipBoard(p.board) });
      expect(seenByOther).not.toBe(id);
    }
  });

  it('every oracle positionId parses to the case board and is made again byte for byte (2000 cases)', () => {
    let agree = 0;
    for (const c of cases) {
      const parsed = parseGnubgPositionId(c.positionId, 'white');
      if (
        parsed.ok &&
        boardKey(parsed.value.board) === boardKey(boardOf(c.board)) &&
        makeGnubgPositionId(parsed.value) === c.positionId
      ) {
        agree++;
      }
    }
    expect(agree).toBe(cases.length);
  });

  it('every move’s resultPositionId (opponent on roll) and resultPositionIdMover equal ours', () => {
    let moves = 0;
    const wrong: string[] = [];
    for (const c of cases) {
      const r = legalShortTurns(SHORT_STANDARD, { turn: 'white', board: boardOf(c.board) }, c.dice);
      if (!r.ok) throw new Error(r.error.message);
      const byKey = new Map(r.value.turns.map((t) => [boardKey(t.board), t]));
      for (const m of c.moves) {
        moves++;
        const turn = byKey.get(boardKey(boardOf(m.resultBoard)));
        if (!turn) {
          wrong.push(`${c.id} ${m.text}: no such play`);
          continue;
        }
        const opponentOnRoll = makeGnubgPositionId({ turn: 'black', board: flipBoard(turn.board) });
        if (opponentOnRoll !== m.resultPositionId)
          wrong.push(`${c.id} ${m.text}: ${opponentOnRoll} ≠ ${m.resultPositionId}`);
        if (!turn.gameOver && makeGnubgPositionId(turn.position) !== m.resultPositionId)
          wrong.push(`${c.id} ${m.text}: position`);
        const mover = makeGnubgPositionId({ turn: 'white', board: turn.board });
        if (mover !== m.resultPositionIdMover)
          wrong.push(`${c.id} ${m.text}: ${mover} ≠ ${m.resultPositionIdMover}`);
      }
    }
    expect(moves).toBe(37423);
    expect(wrong).toEqual([]);
  });

  it('rejects malformed IDs with INVALID_POSITION_ID', () => {
    for (const bad of [
      '',
      '4HPwATDgc/ABM',
      '4HPwATDgc/ABMAA',
      '4HPwATDgc/AB-A',
      '4HPwATDgc/ABMB',
      '//////////////',
      42,
    ]) {
      const r = parseGnubgPositionId(bad, 'white');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_POSITION_ID');
    }
  });
});

describe('gnubg Match ID', () => {
  const seat = (player: 0 | 1): Side => (player === 0 ? 'white' : 'black');
  const stateOf = (e: MatchFixture['expected']): GnubgMatchState => ({
    ...e,
    cubeOwner: e.cubeOwner === null ? null : seat(e.cubeOwner),
    onRoll: seat(e.onRoll),
    turn: seat(e.turn),
    score: { white: e.score[0], black: e.score[1] },
  });

  it.each(fixtures.matchIds.map((f) => [f.matchId, f.commands.join('; '), f] as const))(
    '%s (gnubg: %s) parses to its fields and is made again byte for byte',
    (_id, _commands, f) => {
      const expected = stateOf(f.expected);
      const parsed = parseMatchId(f.matchId);
      expect(parsed.ok && parsed.value).toEqual(expected);
      expect(makeMatchId(expected)).toBe(f.matchId);
    },
  );

  it('player 0 may be black: the seats swap and the ID does not change', () => {
    const f = fixtures.matchIds.find(
      (m) => m.expected.cubeOwner === 0 && m.expected.score[0] !== m.expected.score[1],
    );
    if (!f) throw new Error('fixture missing');
    const asBlack = parseMatchId(f.matchId, 'black');
    if (!asBlack.ok) throw new Error(asBlack.error.message);
    expect(asBlack.value.cubeOwner).toBe('black');
    expect(asBlack.value.score).toEqual({ black: f.expected.score[0], white: f.expected.score[1] });
    expect(makeMatchId(asBlack.value, 'black')).toBe(f.matchId);
  });

  it('checkGnubgMatchState refuses what the layout cannot hold', () => {
    const state = stateOf(fixtures.matchIds[0].expected);
    expect(checkGnubgMatchState(state)).toBeNull();
    expect(checkGnubgMatchState({ ...state, cubeValue: 3 })?.field).toBe('match.cubeValue');
    expect(checkGnubgMatchState({ ...state, cubeValue: 65536 })?.code).toBe('INVALID_REQUEST');
    expect(checkGnubgMatchState({ ...state, score: { white: 40000, black: 0 } })?.field).toBe(
      'match.score.white',
    );
    expect(checkGnubgMatchState({ ...state, dice: [0, 3] })?.code).toBe('INVALID_DICE');
  });

  it('rejects IDs with unused values', () => {
    const state = stateOf(fixtures.matchIds[0].expected);
    const good = makeMatchId(state);
    expect(parseMatchId(good).ok).toBe(true);
    for (const bad of [
      '',
      'cAkAAAAAAAA',
      'cAkAAAAAAAAAA',
      'cAk-AAAAAAAA',
      'IAkAAAAAAAAA' /* owner bits 10 */,
      'cAkAAAAAAAA8',
    ]) {
      const r = parseMatchId(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_POSITION_ID');
    }
  });
});

describe('XGID', () => {
  it.each(fixtures.xgids.map((f) => [f.xgid, f] as const))(
    '%s round-trips and matches gnubg’s import',
    (_x, f) => {
      for (const bottom of ['white', 'black'] as Side[]) {
        const parsed = parseXgid(f.xgid, bottom);
        if (!parsed.ok) throw new Error(parsed.error.message);
        expect(makeXgid(parsed.value, bottom)).toBe(f.xgid);
        // gnubg's import makes the player on roll its player 1.
        const x: Xgid = parsed.value;
        const onRoll = x.position.turn;
        const gnubgId = makeGnubgId(
          {
            position: x.position,
            match: {
              cubeValue: x.cubeValue,
              cubeOwner: x.cubeOwner,
              onRoll,
              turn: onRoll,
              crawford: x.crawford,
              gameState: 'playing',
              doubleOffered: false,
              resignation: 'none',
              dice: x.dice,
              matchLength: x.matchLength,
              score: x.score,
              jacoby: x.jacoby,
            },
          },
          otherSide(onRoll),
        );
        expect(gnubgId).toBe(`${f.positionId}:${f.matchId}`);
        // gnubg's board: the player not on roll first, each in his own numbering, index 24 = bar.
        const b = x.position.board;
        const opponent = Array.from({ length: 25 }, (_, i) =>
          i === 24 ? b[26] : b[25 - (i + 1)] < 0 ? -b[25 - (i + 1)] : 0,
        );
        const mover = Array.from({ length: 25 }, (_, i) => (i === 24 ? b[25] : b[i + 1] > 0 ? b[i + 1] : 0));
        expect([opponent, mover]).toEqual(f.gnubgBoard);
      }
    },
  );

  it('reads the standard opening with white at the bottom, in white’s numbering', () => {
    const x = parseXgid('XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10');
    if (!x.ok) throw new Error(x.error.message);
    expect(x.value).toMatchObject({
      cubeValue: 1,
      cubeOwner: null,
      dice: [5, 2],
      cubeAction: 'none',
      jacoby: true,
      beaver: true,
      crawford: false,
      matchLength: 0,
      maxCubeLog2: 10,
    });
    expect(boardKey(x.value.position.board)).toBe(boardKey(initialShortPosition('white').board));
    const doubled = parseXgid('XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7:10', 'white');
    if (!doubled.ok) throw new Error(doubled.error.message);
    expect(doubled.value).toMatchObject({
      cubeValue: 2,
      cubeOwner: 'black',
      cubeAction: 'double',
      dice: null,
    });
    expect(doubled.value.position.turn).toBe('black');
    expect(doubled.value.score).toEqual({ white: 2, black: 4 });
    expect(makeXgid(doubled.value)).toBe('XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7:10');
  });

  it('rejects malformed XGIDs', () => {
    for (const bad of [
      'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0', // nine fields
      'XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:3:0:10', // 25 characters
      'XGID=Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10', // bottom checker on the top bar
      'XGID=-b----E-C---eE---c-e----C-:0:0:1:52:0:0:3:0:10', // 16 checkers
      'XGID=-b----E-C---eE---c-e----B-:0:0:2:52:0:0:3:0:10', // turn 2
      'XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:3:0:10', // die 7
      'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:5:10', // Jacoby + beaver in a match
      'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:01:0:0:0:10', // a non-canonical number
    ]) {
      const r = parseXgid(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_POSITION_ID');
    }
  });
});

describe('gnubg IDs together', () => {
  it('PositionID:MatchID round-trips, the position written from the dice owner', () => {
    for (const f of fixtures.xgids) {
      const id = `${f.positionId}:${f.matchId}`;
      const parsed = parseGnubgId(id);
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect(parsed.value.position.turn).toBe(parsed.value.match.onRoll);
      expect(makeGnubgId(parsed.value)).toBe(id);
      const otherView = {
        ...parsed.value,
        position: {
          turn: otherSide(parsed.value.position.turn),
          board: flipBoard(parsed.value.position.board),
        },
      };
      expect(makeGnubgId(otherView)).toBe(id);
    }
  });
});

describe('gnubg move text', () => {
  it('makeGnubgNotation writes gnubg’s text for every oracle move', () => {
    let moves = 0;
    let agree = 0;
    const differ: string[] = [];
    for (const c of cases) {
      for (const m of c.moves) {
        moves++;
        let board: number[] = Array.from(boardOf(c.board));
        const hits = m.steps.map(([from, to]) => {
          const die = to > 0 ? from - to : (c.dice.find((d) => d >= from) ?? from);
          const next = referenceApply(board, from, die);
          board = next.board;
          return next.hit;
        });
        const text = makeGnubgNotation(
          m.steps.map(([from, to]) => ({ from, to })),
          hits,
        );
        if (text === m.text) agree++;
        else differ.push(`${c.id}: ${text} ≠ ${m.text}`);
      }
    }
    console.log(`gnubg move text: ${agree} of ${moves} moves agree`);
    expect(differ).toEqual([]);
  });

  it('merges one checker’s steps unless it hits on the way; the service default keeps every point', () => {
    expect(
      makeGnubgNotation(
        [
          { from: 24, to: 18 },
          { from: 18, to: 13 },
        ],
        [false, false],
      ),
    ).toBe('24/13');
    expect(
      makeGnubgNotation(
        [
          { from: 13, to: 10 },
          { from: 10, to: 5 },
        ],
        [true, false],
      ),
    ).toBe('13/10*/5');
    expect(
      makeGnubgNotation(
        [
          { from: 25, to: 20 },
          { from: 24, to: 20 },
        ],
        [true, false],
      ),
    ).toBe('bar/20* 24/20');
    expect(
      makeGnubgNotation(
        [
          { from: 8, to: 5 },
          { from: 8, to: 5 },
          { from: 6, to: 3 },
          { from: 6, to: 3 },
        ],
        [false, false, false, false],
      ),
    ).toBe('8/5(2) 6/3(2)');
    expect(makeGnubgNotation([{ from: 6, to: 0 }], [false])).toBe('6/off');
  });
});

describe('notation against gnubg', () => {
  it('gnubg’s text of every oracle move parses and validates complete to gnubg’s resulting position', () => {
    const refused: string[] = [];
    let moves = 0;
    const walked = sampled(cases);
    for (const c of walked) {
      const position = { turn: 'white' as const, board: boardOf(c.board) };
      for (const m of c.moves) {
        moves++;
        const segments = parseNotation(m.text);
        if (!segments.ok) {
          refused.push(`${c.id} ${m.text}: ${segments.error.message}`);
          continue;
        }
        const v = validateShortNotation(SHORT_STANDARD, position, c.dice, segments.value);
        const ok =
          v.ok &&
          v.value.legal &&
          v.value.complete &&
          boardKey(v.value.turn.board) === boardKey(boardOf(m.resultBoard));
        if (!ok) refused.push(`${c.id} ${m.text}`);
      }
    }
    expect(cases.reduce((n, c) => n + c.moves.length, 0)).toBe(37423);
    expect(moves).toBe(walked.reduce((n, c) => n + c.moves.length, 0));
    expect(refused).toEqual([]);
  });

  it('on our canonical steps, makeGnubgNotation writes gnubg’s text for every play; makeNotation (the default) is counted', () => {
    let moves = 0;
    let same = 0;
    let sameOnceJoined = 0;
    for (const c of cases) {
      const r = legalShortTurns(SHORT_STANDARD, { turn: 'white', board: boardOf(c.board) }, c.dice);
      if (!r.ok) throw new Error(r.error.message);
      const byKey = new Map(r.value.turns.map((t) => [boardKey(t.board), t]));
      for (const m of c.moves) {
        moves++;
        const turn = byKey.get(boardKey(boardOf(m.resultBoard)));
        if (!turn) throw new Error(`${c.id}: no play for ${m.text}`);
        const ours = makeNotation(turn.steps, turn.hits);
        if (ours === m.text) same++;
        if (makeGnubgNotation(turn.steps, turn.hits) === m.text) sameOnceJoined++;
      }
    }
    console.log(
      `notation on our canonical steps: makeNotation equals gnubg's text for ${same} of ${moves} moves; makeGnubgNotation for ${sameOnceJoined}`,
    );
    expect(sameOnceJoined).toBe(moves);
    expect(same).toBeGreaterThan(0);
  });
});
