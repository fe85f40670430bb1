import fc from 'fast-check';
import { Dice } from '../../../src/engine/dice';
import { RULE_ERROR_CODES } from '../../../src/engine/errors';
import { playLongGame } from '../../../src/engine/long/game';
import { makeLongPositionJson } from '../../../src/engine/long/position';
import { makeLongPositionId } from '../../../src/engine/long/position-id';
import { LONG_PRESETS, LongPresetName, LongRules } from '../../../src/engine/long/rules';
import { LongState, LongTurn, legalLongTurns } from '../../../src/engine/long/turn';
import { validateLongNotation, validateLongPlay } from '../../../src/engine/long/validate';
import { makeNotation, parseNotation } from '../../../src/engine/notation';
import { SeededRandom } from '../../../src/engine/random';
import { Step } from '../../../src/engine/step';
import { expectBe, expectEqual } from '../../support/expect';
import { runs } from '../../support/runs';

/*
 * Property tests (fast-check, fixed seeds so CI is reproducible). Positions
 * come from seeded random self-play: a run picks a game seed and a stage
 * index, plays to that stage and checks the invariants there.
 */

interface Sample {
  rules: LongRules;
  state: LongState;
  dice: Dice | undefined;
  turns: readonly LongTurn[];
  unitsUsed: number;
}

function sampleAt(preset: LongPresetName, seed: number, stageIndex: number): Sample | null {
  const rules = LONG_PRESETS[preset];
  let found: Sample | null = null;
  let n = 0;
  const random = new SeededRandom(seed);
  try {
    playLongGame(rules, random, (step) => {
      if (n++ === stageIndex) {
        const answer = legalLongTurns(rules, step.before, step.dice);
        if (!answer.ok) throw new Error(answer.error.code);
        found = { rules, state: step.before, dice: step.dice, turns: answer.value.turns, unitsUsed: answer.value.unitsUsed };
        throw new Stop();
      }
    });
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
  return found;
}

class Stop extends Error {}

const samples = (preset: LongPresetName) =>
  fc
    .tuple(fc.integer({ min: 1, max: 2 ** 31 - 2 }), fc.integer({ min: 0, max: 160 }))
    .map(([seed, index]) => sampleAt(preset, seed, index))
    .filter((s): s is Sample => s !== null);

const PRESETS: LongPresetName[] = ['long', 'nardgammon', 'crazy', 'gulbar', 'crazy-gulbar', 'khachapuri', 'fevga', 'giul'];

function physical(turn: LongTurn): string {
  const j = makeLongPositionJson(turn.state.position);
  return JSON.stringify([j.white, j.black]);
}

describe('long family properties', () => {
  for (const preset of PRESETS) {
    it(`${preset}: checkers are conserved, no point is shared, no step lands on the opponent, turns are distinct`, () => {
      fc.assert(
        fc.property(samples(preset), (s) => {
          const seen = new Set<string>();
          for (const turn of s.turns) {
            // Every turn of every sample: the hot-loop forms of toBe / toEqual (test/support/expect.ts).
            const j = makeLongPositionJson(turn.state.position);
            for (const side of [j.white, j.black]) {
              const onBoard = Object.values(side.points).reduce((a, b) => a + b, 0);
              expectBe(onBoard + (side.off ?? 0), 15);
            }
            for (const [p] of Object.entries(j.white.points)) {
              const q = Number(p) <= 12 ? Number(p) + 12 : Number(p) - 12;
              expectBe(j.black.points[String(q)] ?? 0, 0);
            }
            // Replay the steps on the mover's board: every landing is free of opponent checkers (LN-MOVE-2).
            const board = s.state.position.board.slice();
            for (const step of turn.steps) {
              if (!(board[step.from] > 0)) expect(board[step.from]).toBeGreaterThan(0);
              if (step.to > 0 && !(board[step.to] >= 0)) expect(board[step.to]).toBeGreaterThanOrEqual(0);
              board[step.from]--;
              if (step.to > 0) board[step.to]++;
              else board[0]++;
            }
            expectEqual(Array.from(board), Array.from(turn.board));
            const key = physical(turn);
            expectBe(seen.has(key), false);
            seen.add(key);
          }
        }),
        { seed: 20261202, numRuns: runs(60) },
      );
    });

    it(`${preset}: every generated turn validates (steps and notation), as do its prefixes, with the same result`, () => {
      fc.assert(
        fc.property(samples(preset), (s) => {
          // The stage's units, for reading the notation: the same for every turn of the sample.
          const stage = legalLongTurns(s.rules, s.state, s.dice);
          if (!stage.ok) throw new Error(stage.error.message);
          for (const turn of s.turns) {
            for (let k = 0; k < turn.steps.length; k++) {
              const v = validateLongPlay(s.rules, s.state, s.dice, turn.steps.slice(0, k));
              expect(v.ok && v.value.legal).toBe(true);
              if (v.ok && v.value.legal) expect(v.value.complete).toBe(false);
            }
            const v = validateLongPlay(s.rules, s.state, s.dice, turn.steps);
            expect(v.ok && v.value.legal && v.value.complete).toBe(true);
            // The same play written in notation validates to the same position.
            const segments = parseNotation(makeNotation(turn.steps));
            if (!segments.ok) throw new Error(segments.error.message);
            const byNotation = validateLongNotation(s.rules, s.state, s.dice, segments.value, stage.value.stage.units);
            expect(byNotation.ok && byNotation.value.legal && byNotation.value.complete).toBe(true);
            if (byNotation.ok && byNotation.value.legal && byNotation.value.complete) {
              expect(makeLongPositionId(byNotation.value.turn.state)).toBe(makeLongPositionId(turn.state));
            }
            if (v.ok && v.value.legal && v.value.complete) {
              expect(makeLongPositionId(v.value.turn.state)).toBe(makeLongPositionId(turn.state));
              expect(v.value.turn.next).toEqual(turn.next);
            }
          }
        }),
        { seed: 7, numRuns: runs(40) },
      );
    });
  }

  /**
   * An independent, naive step-legality check written from the pseudo-code of
   * SPEC §4 (classic rules), used to enumerate step sequences.
   */
  function naiveCanStep(board: Int8Array, from: number, die: number, headUsed: number, headAllowance: number): boolean {
    if (board[from] <= 0) return false;
    if (from === 24 && headUsed >= headAllowance) return false;
    const to = from - die;
    if (to >= 1) return board[to] >= 0;
    for (let p = 7; p <= 24; p++) if (board[p] > 0) return false;
    if (from === die) return true;
    for (let p = from + 1; p <= 6; p++) if (board[p] > 0) return false;
    return true;
  }

  function key(board: Int8Array): string {
    return Array.from(board.subarray(0, 25), (v) => Math.max(0, v)).join(',');
  }

  it('long: validation accepts exactly the generated plays and their prefixes (naive enumeration)', () => {
    const samplesRun = runs(80);
    let checked = 0;
    fc.assert(
      fc.property(samples('long'), (s) => {
        const start = s.state.position.board;
        const legalFinals = new Set(s.turns.map((t) => key(t.board)));
        const allowance = legalLongTurns(s.rules, s.state, s.dice);
        if (!allowance.ok) throw new Error('unexpected');
        const head = allowance.value.stage.headAllowance as number;
        const units = allowance.value.stage.units;
        // Enumerate every ordered sequence of individually legal steps.
        const sequences: { steps: Step[]; board: Int8Array; prefixOk: boolean }[] = [];
        let budget = 4000;
        const walk = (board: Int8Array, remaining: number[], steps: Step[]): boolean => {
          if (--budget < 0) throw new Stop();
          const gameOver = board[0] === 15;
          const used = steps.length;
          let ok = (used === s.unitsUsed || gameOver) && legalFinals.has(key(board));
          const index = sequences.length;
          sequences.push({ steps: steps.slice(), board, prefixOk: false });
          if (!gameOver) {
            for (const die of new Set(remaining)) {
              for (let from = 24; from >= 1; from--) {
                if (!naiveCanStep(board, from, die, start[24] - board[24], head)) continue;
                const next = board.slice();
                next[from]--;
                if (from - die >= 1) next[from - die]++;
                else next[0]++;
                const rest = remaining.slice();
                rest.splice(rest.indexOf(die), 1);
                if (walk(next, rest, [...steps, { from, to: Math.max(0, from - die) }])) ok = true;
              }
            }
          }
          sequences[index].prefixOk = ok;
          return ok;
        };
        try {
          walk(start.slice(), units.slice(), []);
        } catch (e) {
          if (e instanceof Stop) return; // too many sequences for this sample; counted below
          throw e;
        }
        checked++;
        for (const seq of sequences) {
          const v = validateLongPlay(s.rules, s.state, s.dice, seq.steps);
          if (!v.ok) throw new Error(v.error.code);
          expect({ steps: seq.steps, legal: v.value.legal }).toEqual({ steps: seq.steps, legal: seq.prefixOk });
          if (v.value.legal) {
            const complete = (seq.steps.length === s.unitsUsed || seq.board[0] === 15) && legalFinals.has(key(seq.board));
            expect(v.value.complete).toBe(complete);
          } else {
            expect(RULE_ERROR_CODES).toContain(v.value.error.code);
            expect(v.value.error.stepIndex).toBeGreaterThanOrEqual(0);
          }
        }
      }),
      { seed: 99, numRuns: samplesRun },
    );
    // Samples whose enumeration exceeded the budget were not checked; most (three in four) must be.
    expect(checked).toBeGreaterThanOrEqual(Math.ceil(samplesRun * 0.75));
  });

  it('long: random step lists are either legal prefixes or rejected with a rule code and step index', () => {
    fc.assert(
      fc.property(
        samples('long'),
        fc.array(fc.record({ from: fc.integer({ min: 1, max: 24 }), to: fc.integer({ min: 0, max: 24 }) }), { maxLength: 4 }),
        (s, steps) => {
          const v = validateLongPlay(s.rules, s.state, s.dice, steps);
          if (!v.ok) throw new Error(v.error.code);
          if (!v.value.legal) {
            expect(RULE_ERROR_CODES).toContain(v.value.error.code);
            expect(v.value.error.stepIndex).toBeLessThan(Math.max(1, steps.length));
          }
        },
      ),
      { seed: 5, numRuns: runs(300) },
    );
  });
});
