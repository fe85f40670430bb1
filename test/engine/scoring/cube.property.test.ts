import fc from 'fast-check';
import { Side } from '../../../src/engine/side';
import {
  CUBE_ACTION_TYPES,
  CubeAction,
  CubeConfig,
  CubeContext,
  CubeState,
  INITIAL_CUBE,
  MatchState,
  applyCubeAction,
  applyRollOffTie,
  checkCubeState,
  isPowerOfTwo,
  newMatch,
  nextMatchState,
  stakeOf,
} from '../../../src/engine/scoring';
import { runs } from '../../support/runs';

/*
 * Invariants of the cube machine (CUBE-1…CUBE-6) over random configs and
 * random streams of actions in random contexts, legal or not:
 * - the value is always a power of two within the cap, also once a pending
 *   offer is taken (CUBE-1);
 * - only the owner, or anyone while the cube is centred, ever doubles (CUBE-2);
 * - a drop always ends the game with the value before the offer (CUBE-3);
 * - beavers, raccoons and automatic doubles never happen in matches, and
 *   nobody doubles in the Crawford game (CUBE-5, CUBE-6).
 */

const side = fc.constantFrom<Side>('white', 'black');
const mostly = (percent: number) => fc.integer({ min: 0, max: 99 }).map((n) => n < percent);

const config: fc.Arbitrary<CubeConfig> = fc
  .record({
    enabled: mostly(90),
    beaver: fc.boolean(),
    raccoon: fc.boolean(),
    jacoby: fc.boolean(),
    automaticDoubles: fc.integer({ min: 0, max: 3 }),
    cap: fc.option(
      fc.integer({ min: 0, max: 8 }).map((k) => 2 ** k),
      { nil: null },
    ),
  })
  .map((c) => ({ ...c, raccoon: c.beaver && c.raccoon }));

/** Money play, or a match reached by a few games (half and half). */
const match: fc.Arbitrary<MatchState | null> = fc.oneof(
  fc.constant(null),
  fc
    .record({
      length: fc.integer({ min: 1, max: 9 }),
      crawford: fc.boolean(),
      games: fc.array(fc.tuple(side, fc.integer({ min: 1, max: 4 })), { maxLength: 6 }),
    })
    .map(({ length, crawford, games }) => {
      const start = newMatch(length, { crawford });
      if (!start.ok) throw new Error(start.error.message);
      let m = start.value;
      for (const [winner, points] of games) {
        if (m.winner !== undefined) break;
        const next = nextMatchState(m, { winner, points });
        if (!next.ok) throw new Error(next.error.message);
        m = next.value;
      }
      return m;
    }),
);

type Step =
  | { kind: 'action'; action: CubeAction; onRollIsActor: boolean; rolled: boolean; openingMove: boolean }
  | { kind: 'tie' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .record({
        type: fc.constantFrom(...CUBE_ACTION_TYPES),
        by: side,
        onRollIsActor: mostly(75),
        rolled: mostly(20),
        openingMove: mostly(10),
      })
      .map(({ type, by, onRollIsActor, rolled, openingMove }): Step => ({
        kind: 'action',
        action: { type, by },
        onRollIsActor,
        rolled,
        openingMove,
      })),
  },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: 'tie' }) },
);

function withinCap(c: CubeConfig, v: number): boolean {
  return c.cap === null || v <= c.cap;
}

describe('cube machine properties', () => {
  it('CUBE-1…CUBE-6 invariants hold along any stream of actions', () => {
    fc.assert(
      fc.property(config, match, fc.array(step, { minLength: 1, maxLength: 80 }), (cfg, m, steps) => {
        let state: CubeState = INITIAL_CUBE;
        let gameStart = true;
        for (const s of steps) {
          const before = state;
          if (s.kind === 'tie') {
            // Roll-off ties only happen before the first move of a game.
            if (!gameStart) continue;
            state = applyRollOffTie(cfg, state, m);
            if (m || !cfg.enabled) expect(state).toBe(before);
            expect(state.owner).toBe('center');
            expect(state.automaticDoubles).toBeLessThanOrEqual(cfg.automaticDoubles);
          } else {
            const { action } = s;
            const context: CubeContext = {
              onRoll: s.onRollIsActor ? action.by : action.by === 'white' ? 'black' : 'white',
              rolled: s.rolled,
              openingMove: s.openingMove,
              match: m,
            };
            const r = applyCubeAction(cfg, state, context, action);
            if (!r.ok) {
              expect(typeof r.error.code).toBe('string');
              continue;
            }
            gameStart = false;
            expect(cfg.enabled).toBe(true);
            expect(m?.winner).toBeUndefined();
            const next = r.value.state;
            switch (action.type) {
              case 'double':
                // Only the owner, or anyone while centred; before rolling, not the opening move.
                expect(before.owner === 'center' || before.owner === action.by).toBe(true);
                expect(before.offered).toBeUndefined();
                expect(context.onRoll).toBe(action.by);
                expect(context.rolled || context.openingMove).toBe(false);
                expect(m?.nextGameIsCrawford ?? false).toBe(false);
                expect(next.value).toBe(before.value);
                expect(next.offered).toEqual({ by: action.by });
                break;
              case 'take':
                expect(before.offered).toBeDefined();
                expect(next.value).toBe(before.value * 2);
                expect(next.offered).toBeUndefined();
                expect(next.owner).not.toBe('center');
                break;
              case 'drop': {
                // The game ends with the value before the offer, to the offerer, no gammons.
                const over = r.value.gameOver;
                expect(over).toBeDefined();
                expect(over?.winner).toBe(before.offered?.by);
                expect(over?.points).toBe(before.value);
                expect(over?.cubeValue).toBe(before.value);
                expect(over?.result).toBe('dropped-cube');
                state = INITIAL_CUBE;
                gameStart = true;
                continue;
              }
              case 'beaver':
              case 'raccoon':
                expect(m).toBeNull();
                expect(cfg.beaver).toBe(true);
                if (action.type === 'raccoon') expect(cfg.raccoon).toBe(true);
                expect(next.value).toBe(before.value * 2);
                break;
            }
            expect(r.value.gameOver).toBeUndefined();
            state = next;
          }
          // The value is a power of two within the cap, and so is a pending offer's.
          expect(isPowerOfTwo(state.value)).toBe(true);
          expect(withinCap(cfg, state.value)).toBe(true);
          if (state.offered) expect(withinCap(cfg, state.value * 2)).toBe(true);
          // The cube never returns to the centre once turned.
          if (before.owner !== 'center') expect(state.owner).not.toBe('center');
          expect(checkCubeState(cfg, state).ok).toBe(true);
          // The stake follows the cube, and Jacoby never applies in matches.
          const stake = stakeOf(cfg, state, m);
          expect(stake.cubeValue).toBe(cfg.enabled ? state.value : 1);
          if (m) expect(stake.jacoby).toBe(false);
        }
      }),
      { numRuns: runs(1000) },
    );
  });

  it('CUBE-6 a match has at most one Crawford game and ends when a score reaches the length', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 11 }),
        fc.array(fc.tuple(fc.option(side, { nil: null }), fc.integer({ min: 1, max: 6 })), { maxLength: 30 }),
        (length, games) => {
          const start = newMatch(length);
          if (!start.ok) throw new Error(start.error.message);
          let m = start.value;
          let crawfordGames = 0;
          for (const [winner, points] of games) {
            if (m.winner !== undefined) {
              expect(nextMatchState(m, { winner: 'white', points: 1 }).ok).toBe(false);
              break;
            }
            if (m.nextGameIsCrawford) crawfordGames++;
            const r = nextMatchState(m, { winner, points: winner === null ? 0 : points });
            if (!r.ok) throw new Error(r.error.message);
            const next = r.value;
            expect(next.score.white + next.score.black).toBe(
              m.score.white + m.score.black + (winner === null ? 0 : points),
            );
            expect(next.winner !== undefined).toBe(Math.max(next.score.white, next.score.black) >= length);
            if (next.nextGameIsCrawford) {
              expect(Math.max(next.score.white, next.score.black)).toBe(length - 1);
              expect(Math.max(m.score.white, m.score.black)).toBeLessThan(length - 1);
            }
            m = next;
          }
          expect(crawfordGames).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: runs(500) },
    );
  });
});
