import fc from 'fast-check';
import { Applied, GameAction, applyAction, createGameState, expectedPlay } from '../../src/engine/game';
import { SeededRandom } from '../../src/engine/random';
import { Side } from '../../src/engine/side';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { HistoryEvent } from '../../src/service/sessions/record';
import { ActionName, GameSessions } from '../../src/service/sessions/service';
import { GameView } from '../../src/service/sessions/views';
import { MemorySessionStore } from '../../src/service/store/memory';
import { expectBe, expectEqual } from '../support/expect';
import { runs } from '../support/runs';

/*
 * Sessions are the game reducer plus persistence, seats and fair dice:
 * seeded games are played through a session (in-memory store) and, in
 * lockstep, through the reducer with the dice the session rolled; after
 * every action both show the same state and the session's history is the
 * reducer's events, numbered and timed.
 */

const now = () => new Date('2026-01-01T00:00:00Z');

function must(applied: ReturnType<typeof applyAction>): Applied {
  if (!applied.ok) throw new Error(`${applied.error.code}: ${applied.error.message}`);
  return applied.value;
}

/** The session's view of the state against the reducer's. */
function sameState(view: GameView, applied: Applied): void {
  // Checked after every action of every game: the hot-loop forms of toBe / toEqual (test/support/expect.ts).
  const { state } = applied;
  expectBe(view.status, state.status);
  expectBe(view.game, state.game.number);
  expectEqual(view.position, state.game.position);
  expectEqual(view.dice, state.game.dice);
  expectEqual(view.expects, applied.expects);
  expectEqual(view.allowed, applied.allowed);
  expectEqual(
    view.cube && { value: view.cube.value, owner: view.cube.owner, offeredBy: view.cube.offeredBy },
    state.game.cube && { value: state.game.cube.value, owner: state.game.cube.owner, offeredBy: state.game.cube.offered?.by },
  );
  expectEqual(view.match?.score ?? null, state.match?.score ?? null);
  expectEqual(view.match?.crawfordGame ?? null, state.match?.nextGameIsCrawford ?? null);
  const result = state.game.result;
  if (!result) expectEqual(view.result ?? null, result);
  else expect(view.result ?? null).toEqual(expect.objectContaining({ winner: result.winner, points: result.points, result: result.result }));
  const play = expectedPlay(state);
  expectEqual(view.legalTurns ?? null, play.ok && play.value ? play.value.turns.map((t) => t.view) : null);
}

/** The reducer's answers to the roll-offs the session rolled (in `events`), applied in order; their events go to `sink`. */
function rollOffs(applied: Applied, events: HistoryEvent[], sink: object[]): Applied {
  let next = applied;
  for (const e of events) {
    if (e.type !== 'roll-off') continue;
    next = must(applyAction(next.state, 'white', { type: 'roll-off', dice: e.dice! }));
    sink.push(...next.events);
  }
  return next;
}

function withoutNumbers(events: HistoryEvent[]): object[] {
  return events.map(({ n: _n, at: _at, ...event }) => event);
}

async function lockstep(options: { variant: string; cube?: boolean; match?: { length: number }; rules?: Record<string, unknown> }, seed: number): Promise<number> {
  const store = new MemorySessionStore();
  const sessions = new GameSessions({ store, seeds: deterministicSeeds(`lockstep-${seed}`), ttlSeconds: 3600, idempotencyTtlSeconds: 3600, now });
  const random = new SeededRandom(seed);
  const created = (await sessions.create(options)).body;
  const created2 = createGameState(options);
  if (!created2.ok) throw new Error(created2.error.message);
  let history = (await sessions.history(created.id)).body.events;
  const reducerEvents: object[] = [...created2.value.events];
  let applied = rollOffs(created2.value, history, reducerEvents);
  let view = created.state;
  sameState(view, applied);
  for (let actions = 0; actions < 3000; actions++) {
    if (view.status === 'finished') {
      expect(reducerEvents).toEqual(withoutNumbers((await sessions.history(created.id)).body.events));
      return actions;
    }
    const seat = view.expects!.seat as Side;
    const mine = view.allowed[seat].filter((a) => a !== 'resign');
    let name: ActionName = mine[0];
    if (mine.includes('double') && random.next() < 0.25) name = 'double';
    else if (mine.includes('roll')) name = 'roll';
    if (mine.includes('raccoon') && random.next() < 0.4) name = 'raccoon';
    else if (mine.includes('beaver') && random.next() < 0.4) name = 'beaver';
    else if (mine.includes('take')) name = random.next() < 0.8 ? 'take' : 'drop';
    if (random.next() < 0.004) name = 'resign';
    const turn = name === 'play' ? random.pick(view.legalTurns ?? []) : undefined;
    const body = turn ? { steps: turn.steps } : name === 'resign' ? { as: 'single' as const } : {};
    view = (await sessions.act(created.id, name, body, { token: created.seats[seat].token })).body;
    const before = history.length;
    history = (await sessions.history(created.id)).body.events;
    const added = history.slice(before);
    let action: GameAction;
    if (name === 'roll') action = { type: 'roll', dice: added.find((e) => e.type === 'roll')!.dice! };
    else if (name === 'play') action = { type: 'play', play: { steps: turn!.steps } };
    else if (name === 'resign') action = { type: 'resign', level: 'single' };
    else action = { type: name };
    const answer = must(applyAction(applied.state, seat, action));
    reducerEvents.push(...answer.events);
    applied = name === 'next-game' ? rollOffs(answer, added, reducerEvents) : answer;
    sameState(view, applied);
  }
  throw new Error('the session did not finish');
}

describe('sessions and the reducer: the same states and history', () => {
  it.each([
    ['long nardy with the cube', { variant: 'long', cube: true }],
    ['nardgammon', { variant: 'nardgammon' }],
    ['crazy nardy (cascades)', { variant: 'crazy' }],
    ['backgammon money game with beavers and raccoons', { variant: 'backgammon', rules: { beaver: true, raccoon: true } }],
    ['a backgammon match to 3', { variant: 'backgammon', match: { length: 3 } }],
    ['a long-nardy match to 3 with the cube', { variant: 'long', cube: true, match: { length: 3 } }],
  ])('%s', async (_name, options) => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 0x7fffffff }), async (seed) => {
        expect(await lockstep(options, seed)).toBeGreaterThan(0);
      }),
      { seed: 2030, numRuns: runs(4) },
    );
  });
});
