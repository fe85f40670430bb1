import fc from 'fast-check';
import { Dice } from '../../../src/engine/dice';
import { RULE_ERROR_CODES } from '../../../src/engine/errors';
import { Step } from '../../../src/engine/step';
import { boardKey, isWellFormed } from '../../../src/engine/short/board';
import { ShortPosition } from '../../../src/engine/short/position';
import { SHORT_STANDARD } from '../../../src/engine/short/rules';
import { legalShortTurns } from '../../../src/engine/short/turn';
import { validateShortNotation, validateShortPlay } from '../../../src/engine/short/validate';
import { makeGnubgNotation } from '../../../src/engine/short/gnubg-notation';
import { makeNotation, parseNotation } from '../../../src/engine/notation';
import {
  keyOf,
  randomSource,
  referenceApply,
  referencePlays,
  referenceStepLegal,
  selfPlayPosition,
  stepsKey,
} from './support/reference';
import { runs } from '../../support/runs';

/*
 * Invariants over seeded random self-play positions (fast-check with a
 * fixed seed, so a failure reproduces). Each run draws a game seed, a
 * number of random plies from the start and a roll.
 */
const RUNS = { seed: 20240601, numRuns: runs(250) };
const gameArbitrary = fc.record({
  seed: fc.integer({ min: 1, max: 0x7fffffff }),
  plies: fc.integer({ min: 0, max: 220 }),
  die1: fc.integer({ min: 1, max: 6 }),
  die2: fc.integer({ min: 1, max: 6 }),
});

function setup(g: { seed: number; plies: number; die1: number; die2: number }): {
  position: ShortPosition;
  dice: Dice;
} {
  return {
    position: selfPlayPosition(g.seed, g.plies, g.seed % 2 === 0 ? 'white' : 'black'),
    dice: [g.die1, g.die2],
  };
}

function turnsOf(position: ShortPosition, dice: Dice) {
  const r = legalShortTurns(SHORT_STANDARD, position, dice);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('short nardy invariants (fast-check, seeded self-play)', () => {
  it('conserves checkers: 15 a side, counting the bar and the borne-off', () => {
    fc.assert(
      fc.property(gameArbitrary, (g) => {
        const { position, dice } = setup(g);
        for (const t of turnsOf(position, dice).turns) {
          expect(isWellFormed(t.board)).toBe(true);
          expect(isWellFormed(t.position.board)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('never lands on a point with two or more opponent checkers; a hit moves exactly one opponent checker to the bar', () => {
    fc.assert(
      fc.property(gameArbitrary, (g) => {
        const { position, dice } = setup(g);
        for (const t of turnsOf(position, dice).turns) {
          let board: number[] = Array.from(position.board);
          t.steps.forEach((s, i) => {
            const die =
              s.to === 0
                ? [dice[0], dice[1]].find((d) => referenceStepLegal(board, s.from, d) && s.from - d <= 0)
                : s.from - s.to;
            expect(die).toBeDefined();
            expect(referenceStepLegal(board, s.from, die as number)).toBe(true);
            if (s.to > 0) expect(board[s.to]).toBeGreaterThanOrEqual(-1);
            const opponentBefore = board.reduce((n, v, p) => n + (p >= 1 && p <= 24 && v < 0 ? -v : 0), 0);
            const barBefore = board[26];
            const next = referenceApply(board, s.from, die as number);
            const opponentAfter = next.board.reduce(
              (n, v, p) => n + (p >= 1 && p <= 24 && v < 0 ? -v : 0),
              0,
            );
            expect(t.hits[i]).toBe(next.hit);
            if (t.hits[i]) {
              expect(board[s.to]).toBe(-1);
              expect(next.board[26]).toBe(barBefore + 1);
              expect(opponentAfter).toBe(opponentBefore - 1);
            } else {
              expect(next.board[26]).toBe(barBefore);
              expect(opponentAfter).toBe(opponentBefore);
            }
            board = next.board;
          });
          expect(keyOf(board)).toBe(keyOf(t.board));
        }
      }),
      RUNS,
    );
  });

  it('generates each resulting position once, the same set as a naive enumeration of ALG-1…ALG-7', () => {
    fc.assert(
      fc.property(gameArbitrary, (g) => {
        const { position, dice } = setup(g);
        const turns = turnsOf(position, dice);
        const keys = turns.turns.map((t) => keyOf(t.board));
        expect(new Set(keys).size).toBe(keys.length);
        const reference = referencePlays(position.board, dice);
        expect(turns.unitsUsed).toBe(reference.maxUnits);
        expect(new Set(keys)).toEqual(reference.keys);
      }),
      { ...RUNS, numRuns: runs(150) },
    );
  });

  it('every generated turn validates complete, to the same turn', () => {
    fc.assert(
      fc.property(gameArbitrary, (g) => {
        const { position, dice } = setup(g);
        for (const t of turnsOf(position, dice).turns) {
          const v = validateShortPlay(SHORT_STANDARD, position, dice, t.steps);
          if (!v.ok || !v.value.legal || !v.value.complete)
            throw new Error(`canonical steps refused: ${JSON.stringify(v)}`);
          expect(boardKey(v.value.turn.board)).toBe(boardKey(t.board));
        }
      }),
      RUNS,
    );
  });

  it('each turn written with makeNotation or makeGnubgNotation reads back to the same turn', () => {
    fc.assert(
      fc.property(gameArbitrary, (g) => {
        const { position, dice } = setup(g);
        for (const t of turnsOf(position, dice).turns) {
          for (const text of [makeNotation(t.steps, t.hits), makeGnubgNotation(t.steps, t.hits)]) {
            const segments = parseNotation(text);
            if (!segments.ok) throw new Error(`${text}: ${segments.error.message}`);
            const v = validateShortNotation(SHORT_STANDARD, position, dice, segments.value);
            if (!v.ok || !v.value.legal || !v.value.complete)
              throw new Error(`${text} refused: ${JSON.stringify(v)}`);
            expect(boardKey(v.value.turn.board)).toBe(boardKey(t.board));
          }
        }
      }),
      { ...RUNS, numRuns: runs(150) },
    );
  });

  it('validation accepts exactly the legal plays and their prefixes, and names a coded rule otherwise', () => {
    const ruleCodes: ReadonlySet<string> = new Set(RULE_ERROR_CODES);
    fc.assert(
      fc.property(gameArbitrary, fc.integer({ min: 1, max: 0x7fffffff }), (g, walkSeed) => {
        const { position, dice } = setup(g);
        const reference = referencePlays(position.board, dice);
        const random = randomSource(walkSeed);
        for (let attempt = 0; attempt < 12; attempt++) {
          // A random walk: mostly legal steps (by the naive rules), sometimes any step at all.
          const steps: Step[] = [];
          let board: number[] = Array.from(position.board);
          const length = Math.floor(random() * 5);
          for (let k = 0; k < length; k++) {
            const options: Step[] = [];
            for (let from = 1; from <= 25; from++) {
              for (const die of new Set([dice[0], dice[1]])) {
                if (referenceStepLegal(board, from, die)) options.push({ from, to: Math.max(0, from - die) });
              }
            }
            // Mostly legal steps (by the naive rules); else a step of a rolled die from any
            // point, legal or not (to reach the rule errors); rarely any step at all.
            const roll = random();
            const rolled = random() < 0.5 ? dice[0] : dice[1];
            const own = [];
            for (let p = 1; p <= 25; p++) if (board[p] > 0) own.push(p);
            const from =
              own.length > 0 && random() < 0.7
                ? own[Math.floor(random() * own.length)]
                : 1 + Math.floor(random() * 25);
            const step =
              options.length > 0 && roll < 0.55
                ? options[Math.floor(random() * options.length)]
                : roll < 0.93
                  ? { from, to: Math.max(0, from - rolled) }
                  : { from, to: Math.floor(random() * 25) };
            steps.push(step);
            const die = step.from - step.to;
            if (die >= 1 && die <= 6 && referenceStepLegal(board, step.from, die))
              board = referenceApply(board, step.from, die).board;
          }
          const v = validateShortPlay(SHORT_STANDARD, position, dice, steps);
          if (!v.ok) {
            // Only a malformed step list is an input error.
            expect(v.error.code).toBe('INVALID_STEPS');
            continue;
          }
          const key = stepsKey(steps);
          if (reference.prefixes.has(key)) {
            expect(v.value.legal).toBe(true);
            if (v.value.legal) expect(v.value.complete).toBe(reference.complete.has(key));
          } else {
            expect(v.value.legal).toBe(false);
            if (!v.value.legal) {
              expect(ruleCodes.has(v.value.error.code)).toBe(true);
              expect(v.value.error.stepIndex).toBeGreaterThanOrEqual(0);
              expect(v.value.error.stepIndex).toBeLessThan(steps.length);
              expect(typeof v.value.error.rule).toBe('string');
            }
          }
        }
      }),
      { ...RUNS, numRuns: runs(150) },
    );
  });
});
