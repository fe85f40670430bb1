import request from 'supertest';
import { Express } from 'express';
import { SeededRandom } from '../../src/engine/random';

export interface Created {
  id: string;
  seats: { white: { token: string }; black: { token: string } };
  state: GameState;
  version: number;
}

export interface GameState {
  status: string;
  version: number;
  expects: { seat: 'white' | 'black'; action: string } | null;
  legalTurns?: { steps: { from: number; to: number }[]; notation: string; positionId: string }[];
  result?: { winner: string | null; points: number; result: string };
  match: { score: { white: number; black: number }; winner?: string } | null;
  [key: string]: unknown;
}

/** Both players act through REST, choosing among the legal turns with a seeded random generator. */
export async function playThroughRest(
  app: Express,
  created: Created,
  seed: number,
  maxActions = 20000,
  options: { doubleChance?: number; dropChance?: number } = {},
): Promise<{ state: GameState; actions: number; doubles: number }> {
  let doubles = 0;
  const random = new SeededRandom(seed);
  let state = created.state;
  let actions = 0;
  while (state.status === 'playing' && actions < maxActions) {
    const expects = state.expects;
    if (!expects) throw new Error('a playing game must expect an action');
    const token = created.seats[expects.seat].token;
    const path = `/v1/games/${created.id}`;
    let res;
    switch (expects.action) {
      case 'roll': {
        const cube = state.cube as { owner: string } | null;
        if (cube && (cube.owner === 'center' || cube.owner === expects.seat) && random.next() < (options.doubleChance ?? 0)) {
          // A double may be refused (opening move, Crawford game, cap): then the seat just rolls.
          const offer = await request(app).post(`${path}/double`).set('authorization', `Bearer ${token}`).send({});
          if (offer.status === 200) {
            doubles++;
            res = offer;
            break;
          }
        }
        res = await request(app).post(`${path}/roll`).set('authorization', `Bearer ${token}`).send({});
        break;
      }
      case 'play': {
        const turns = state.legalTurns ?? [];
        const turn = random.pick(turns);
        // Alternate steps and notation so both forms are exercised.
        const body = actions % 2 === 0 ? { steps: turn.steps } : { notation: turn.notation };
        res = await request(app).post(`${path}/play`).set('authorization', `Bearer ${token}`).send(body);
        break;
      }
      case 'respond': {
        const answer = random.next() < (options.dropChance ?? 0) ? 'drop' : 'take';
        res = await request(app).post(`${path}/${answer}`).set('authorization', `Bearer ${token}`).send({});
        break;
      }
      case 'next-game':
        res = await request(app).post(`${path}/next-game`).set('authorization', `Bearer ${token}`).send({});
        break;
      default:
        throw new Error(`unexpected action ${expects.action}`);
    }
    if (res.status !== 200) throw new Error(`${expects.action} → ${res.status} ${JSON.stringify(res.body)}`);
    state = res.body as GameState;
    actions++;
  }
  return { state, actions, doubles };
}
