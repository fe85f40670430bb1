import { ActionBody, CreateGameRequest } from '../../src/contract/requests';
import { SeededRandom } from '../../src/engine/random';
import { parseMatchId } from '../../src/engine/short/gnubg-id';
import { SIDES, Side } from '../../src/engine/side';
import { ServiceError } from '../../src/service/errors';
import { deterministicSeeds } from '../../src/service/sessions/fairness';
import { ACTION_NAMES, ActionName, act, allowedActions } from '../../src/service/sessions/flow';
import { SessionRecord } from '../../src/service/sessions/record';
import { GameSessions, parseAction, workingOf } from '../../src/service/sessions/service';
import { GameView } from '../../src/service/sessions/views';
import { MemorySessionStore } from '../../src/service/store/memory';

/*
 * The allowed actions of a session state are exactly the actions the flow
 * accepts: at every state of whole cube games and matches, each action of
 * each seat is tried on a copy of the record and must succeed if and only
 * if it is listed.
 */

const now = () => new Date('2026-01-01T00:00:00Z');

function setup(label: string) {
  const store = new MemorySessionStore();
  const sessions = new GameSessions({ store, seeds: deterministicSeeds(label), ttlSeconds: 3600, idempotencyTtlSeconds: 3600, now });
  return { store, sessions };
}

function bodyOf(action: ActionName, state: GameView): ActionBody {
  if (action === 'play') return { steps: state.legalTurns?.[0]?.steps ?? [] };
  if (action === 'resign') return { as: 'single' };
  return {};
}

/** Which actions the flow accepts from each seat, tried one by one on copies of the record. */
function accepted(record: SessionRecord, state: GameView): Record<Side, ActionName[]> {
  const result: Record<Side, ActionName[]> = { white: [], black: [] };
  for (const seat of SIDES) {
    for (const action of ACTION_NAMES) {
      const w = workingOf(structuredClone(record), now);
      try {
        act(w, seat, parseAction(action, bodyOf(action, state)), deterministicSeeds('probe'));
        result[seat].push(action);
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
      }
    }
  }
  return result;
}

interface Phases {
  seen: Set<string>;
  states: number;
}

/**
 * Plays a session to its end, checking every state; the players pick among
 * the allowed actions with a seeded generator that likes the cube.
 */
async function playChecked(sessions: GameSessions, store: MemorySessionStore, body: CreateGameRequest, seed: number): Promise<Phases> {
  const created = (await sessions.create(body)).body;
  const random = new SeededRandom(seed);
  let state = created.state;
  const phases: Phases = { seen: new Set(), states: 0 };
  for (let i = 0; i < 5000; i++) {
    const stored = await store.get(created.id);
    const record = JSON.parse(stored!.data) as SessionRecord;
    expect(state.allowed).toEqual(allowedActions(workingOf(record, now)));
    expect(accepted(record, state)).toEqual(state.allowed);
    phases.states++;
    for (const seat of SIDES) for (const action of state.allowed[seat]) phases.seen.add(`${action}${record.match?.nextGameIsCrawford && action === 'roll' ? ':crawford' : ''}`);
    if (state.match?.crawfordGame && state.status === 'playing' && state.expects?.action === 'roll') {
      expect(state.allowed[state.expects.seat]).not.toContain('double');
      phases.seen.add('crawford-game');
    }
    const m = state.match;
    if (m && !m.crawfordGame && (m.score.white === m.length - 1 || m.score.black === m.length - 1) && state.expects && state.allowed[state.expects.seat].includes('double')) {
      phases.seen.add('post-crawford-double');
    }
    if (state.status === 'finished') {
      expect(state.allowed).toEqual({ white: [], black: [] });
      phases.seen.add('finished');
      return phases;
    }
    const seat = state.expects!.seat;
    const mine = state.allowed[seat].filter((a) => a !== 'resign');
    // Prefer the cube: double when allowed, beaver / raccoon now and then, else take.
    let choice: ActionName = mine[0];
    if (mine.includes('double') && random.next() < 0.35) choice = 'double';
    else if (mine.includes('roll')) choice = 'roll';
    if (mine.includes('raccoon') && random.next() < 0.5) choice = 'raccoon';
    else if (mine.includes('beaver') && random.next() < 0.5) choice = 'beaver';
    else if (mine.includes('take')) choice = random.next() < 0.85 ? 'take' : 'drop';
    if (choice === 'play') {
      const turn = random.pick(state.legalTurns ?? []);
      state = (await sessions.act(created.id, 'play', { steps: turn.steps }, { token: created.seats[seat].token })).body;
    } else {
      state = (await sessions.act(created.id, choice, {}, { token: created.seats[seat].token })).body;
    }
  }
  throw new Error('the session did not finish');
}

describe('allowed actions', () => {
  it('a new long-nardy game with the cube: the first mover may roll, not double; the refusal says so and names the allowed ones', async () => {
    const { sessions } = setup('allowed-new-long');
    const created = (await sessions.create({ variant: 'long', cube: true })).body;
    const seat = created.state.expects!.seat;
    expect(created.state.allowed[seat]).toEqual(['roll', 'resign']);
    const refused = await sessions.act(created.id, 'double', {}, { token: created.seats[seat].token }).catch((e: ServiceError) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    const body = (refused as ServiceError).body;
    expect(body).toMatchObject({ code: 'NOT_BEFORE_ROLL', rule: 'CUBE-2', allowed: ['roll', 'resign'], version: 1 });
    expect(body.message).not.toMatch(/already made/);
    expect(body.message).toMatch(/first turn/);
    expect(body.message).toMatch(/may now: roll, resign/);
  });

  it.each([
    ['long money game with the cube', { variant: 'long', cube: true }, 3],
    ['backgammon money game with beavers and raccoons', { variant: 'backgammon', rules: { beaver: true, raccoon: true } }, 5],
  ])('%s: every state lists exactly what is accepted', async (_name, body, seed) => {
    const { sessions, store } = setup(`allowed-${seed}`);
    const seen = new Set<string>();
    for (let game = 0; game < 4; game++) {
      const phases = await playChecked(sessions, store, body, seed + game);
      phases.seen.forEach((p) => seen.add(p));
    }
    for (const phase of ['roll', 'double', 'play', 'take', 'drop', 'resign', 'finished']) expect(seen).toContain(phase);
    if ((body as { rules?: object }).rules) {
      expect(seen).toContain('beaver');
      expect(seen).toContain('raccoon');
    }
  });

  it('a backgammon match to 3 with Crawford: no double in the Crawford game, doubles again after it, next-game for both seats between games', async () => {
    const { sessions, store } = setup('allowed-match');
    const seen = new Set<string>();
    for (let seed = 1; seed <= 12 && !(seen.has('crawford-game') && seen.has('post-crawford-double')); seed++) {
      const phases = await playChecked(sessions, store, { variant: 'backgammon', match: { length: 3 } }, seed);
      phases.seen.forEach((p) => seen.add(p));
    }
    expect(seen).toContain('crawford-game');
    expect(seen).toContain('roll:crawford');
    expect(seen).toContain('next-game');
    expect(seen).toContain('post-crawford-double');
  });

  it('backgammon states carry the gnubg Position ID and Match ID', async () => {
    const { sessions } = setup('allowed-gnubg');
    const created = (await sessions.create({ variant: 'backgammon', match: { length: 5 } })).body;
    const gnubg = created.state.gnubg!;
    expect(gnubg.positionId).toBe('4HPwATDgc/ABMA');
    expect(gnubg.matchId).toMatch(/^[A-Za-z0-9+/]{12}$/);
    expect(gnubg.id).toBe(`${gnubg.positionId}:${gnubg.matchId}`);
    const match = parseMatchId(gnubg.matchId);
    expect(match.ok && match.value).toMatchObject({
      matchLength: 5,
      onRoll: created.state.expects!.seat,
      turn: created.state.expects!.seat,
      cubeValue: 1,
      cubeOwner: null,
      gameState: 'playing',
      score: { white: 0, black: 0 },
    });
    const long = (await sessions.create({ variant: 'long' })).body;
    expect(long.state.gnubg).toBeUndefined();
  });
});
