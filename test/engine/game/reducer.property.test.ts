import fc from 'fast-check';
import { Applied, GameOptions, GameState, applyAction, expectedPlay, gamePosition, parseGameState } from '../../../src/engine/game';
import { SeededRandom } from '../../../src/engine/random';
import { VARIANTS } from '../../../src/engine/variants';
import { expectBe, expectEqual } from '../../support/expect';
import { runs } from '../../support/runs';
import { apply, pickAction, start } from './support';

/*
 * Seeded random games through the reducer (fast-check with a fixed seed, so
 * a failure reproduces), for every preset and for matches with the cube.
 * At every state: each side has its 15 checkers (COM-3), the state is plain
 * JSON and reads back as itself (its family position too), every offered
 * turn is accepted, and every game ends with a result.
 */

interface SideJson {
  points: Record<string, number>;
  bar?: number;
  off: number;
}

function checkers(side: SideJson): number {
  return Object.values(side.points).reduce((a, b) => a + b, 0) + (side.bar ?? 0) + side.off;
}

function checkInvariants(applied: Applied, random: SeededRandom): void {
  const { state } = applied;
  const position = state.game.position as { white: SideJson; black: SideJson };
  // Checked at every state of every game: the hot-loop forms of toBe / toEqual (test/support/expect.ts).
  expectBe(checkers(position.white), 15);
  expectBe(checkers(position.black), 15);
  const json = JSON.parse(JSON.stringify(state));
  expectEqual(json, state);
  // Every state the reducer makes reads back as itself.
  expectEqual(parseGameState(json), { ok: true, value: state });
  // The family position the reducer keeps for a state it made (instead of reading its JSON again) is the one that JSON reads as.
  expectEqual(gamePosition(state), gamePosition(json));
  if (state.status === 'finished') {
    expect(state.game.result).not.toBeNull();
    expect(applied.allowed).toEqual({ white: [], black: [] });
  }
  if (applied.expects?.action === 'play') {
    const play = expectedPlay(state);
    if (!play.ok || !play.value) throw new Error(`no play: ${JSON.stringify(play)}`);
    const turns = play.value.turns;
    if (turns.length === 0) expect(turns.length).toBeGreaterThan(0);
    // Three offered turns at random, each accepted as a whole play.
    for (let i = 0; i < Math.min(3, turns.length); i++) {
      const turn = turns[Math.floor(random.next() * turns.length)];
      const played = applyAction(state, applied.expects.seat, { type: 'play', play: { steps: turn.view.steps } });
      expectBe(played.ok, true);
    }
  }
}

/** Plays a game or match to its end; returns the finished state and the number of actions. */
function playOut(options: GameOptions, seed: number, maxActions = 4000): { state: GameState; actions: number; games: number } {
  const random = new SeededRandom(seed);
  let applied = start(options);
  let games = 1;
  for (let actions = 0; actions < maxActions; actions++) {
    checkInvariants(applied, random);
    if (applied.state.status === 'finished') return { state: applied.state, actions, games };
    const { seat, action } = pickAction(applied, random, { double: 0.2, take: 0.8, beaver: 0.3 });
    if (action.type === 'next-game') games++;
    applied = apply(applied.state, seat, action);
  }
  throw new Error(`${JSON.stringify(options)} (seed ${seed}) did not finish in ${maxActions} actions`);
}

const seeds = fc.integer({ min: 1, max: 0x7fffffff });

describe('game reducer: seeded games', () => {
  it.each(VARIANTS.map((v) => v.name))('%s: every game ends with a result, with every invariant held on the way', (variant) => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const { state } = playOut({ variant }, seed);
        expect(state.status).toBe('finished');
        expect(state.game.result?.points).toBeGreaterThan(0);
      }),
      { seed: 2028, numRuns: runs(6) },
    );
  });

  it.each([
    ['backgammon', { variant: 'backgammon', match: { length: 5 } }],
    ['long nardy', { variant: 'long', cube: true, match: { length: 3 } }],
    ['backgammon money game with beavers and raccoons', { variant: 'backgammon', rules: { beaver: true, raccoon: true } }],
  ])('%s with the cube: the match ends with a winner at its length', (_name, options: GameOptions) => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const { state } = playOut(options, seed);
        if (state.match) {
          const winner = state.match.winner!;
          expect(state.match.score[winner]).toBeGreaterThanOrEqual(state.match.length);
        } else expect(state.game.result).not.toBeNull();
      }),
      { seed: 2029, numRuns: runs(6) },
    );
  });
});
