import { createHash, randomBytes, timingSafeEqual } from 'crypto';
import { bindGameState, createGameState } from '../../engine/game';
import { ResignLevel } from '../../engine/scoring/score';
import { SIDES, Side } from '../../engine/side';
import { Step } from '../../engine/step';
import { variantByName } from '../../engine/variants';
import { ServiceError, fail } from '../errors';
import { AnyBound, Play, rebind, withFamily } from '../../engine/family';
import { checkKeys } from '../request';
import { ActionBody, CreateGameRequest, PlayRequest, ResignRequest } from '../../contract/requests';
import { WorkBudget } from '../budget';
import { SessionStore, StoreFullError, StoreOutcomeUnknownError, StoreUnavailableError, StoredResponse } from '../store/types';
import { SeedSource } from './fairness';
import { GameFeed } from './feed';
import { ACTION_NAMES, ActionName, SessionActionInput, Working, act, allowedActions, beginGame, openRound, workingFor } from './flow';
import { HistoryEvent, SessionRecord } from './record';
import { GameView, fairnessView, gameView, historyView } from './views';

/** What the session service is built from (interfaces, injected). */
export interface SessionDeps {
  readonly store: SessionStore;
  readonly seeds: SeedSource;
  /** Games in play expire this long after their last action (GAME_TTL_SECONDS, default 7 days). */
  readonly ttlSeconds: number;
  /** Games that never had an action expire this long after their creation (UNSTARTED_GAME_TTL_SECONDS). */
  readonly unstartedTtlSeconds?: number;
  /** Finished games (and matches) are kept this long for reading and checking the dice (FINISHED_GAME_TTL_SECONDS). */
  readonly finishedTtlSeconds?: number;
  /** GAME_CREATE_LIMIT: games each client may create per window, counted here. */
  readonly createBudget?: { readonly counter: WorkBudget; readonly perWindow: number };
  /** Idempotency records are kept this long (default 24 hours). */
  readonly idempotencyTtlSeconds: number;
  readonly now: () => Date;
  /** Told of each store failure (the transports log them, throttled). */
  readonly onStoreError?: (error: unknown) => void;
  /** Random bytes for ids and tokens (injectable for tests). */
  readonly random?: (n: number) => Buffer;
}

export interface ActionMeta {
  /** The bearer token of the acting seat. */
  readonly token?: string;
  /** `If-Match`: the version the client acts on. */
  readonly ifMatch?: number;
  /** `Idempotency-Key`: a retried action returns the first answer. */
  readonly idempotencyKey?: string;
}

export interface Answer<T> {
  readonly status: number;
  readonly body: T;
  readonly version: number;
  /** The answer of an earlier request with the same Idempotency-Key. */
  readonly replayed?: boolean;
}

export { ACTION_NAMES };
export type { ActionName };


function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Runs a store call; store failures become 503s (and are told to `onStoreError`). */
async function guarded<T>(work: () => Promise<T>, onStoreError?: (error: unknown) => void): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof StoreFullError) {
      // Games in play finish or expire; a minute is a fair first guess of when a place frees up.
      fail('STORE_FULL', `the server holds as many games in play as it may (${e.maxGames}); try again later`, { retryAfter: 60 });
    }
    if (e instanceof StoreOutcomeUnknownError) {
      onStoreError?.(e.cause ?? e);
      const retry = e.idempotencyKey !== undefined ? 'retry with the same Idempotency-Key (it answers the action once), or ' : '';
      fail('OUTCOME_UNKNOWN', `the session store did not confirm the action in time: it may have been applied. To learn which, ${retry}read the game: still at version ${e.version - 1}, it was not applied; past it, its history says which action made version ${e.version}`, {
        version: e.version,
      });
    }
    if (e instanceof StoreUnavailableError) {
      onStoreError?.(e.cause ?? e);
      fail('STORE_UNAVAILABLE', 'the session store is unavailable; try again shortly');
    }
    throw e;
  }
}

/**
 * The body of an action, checked against openapi.yaml at the edge, as the
 * flow's input: here only what the schema cannot say (which action takes
 * which fields, exactly one of steps or notation).
 */
export function parseAction(name: ActionName, body: ActionBody | undefined): SessionActionInput {
  if (!ACTION_NAMES.includes(name)) fail('NOT_FOUND', `no action ${String(name).slice(0, 40)}; one of ${ACTION_NAMES.join(', ')}`);
  const b = body ?? {};
  switch (name) {
    case 'play': {
      checkKeys(b, ['steps', 'notation']);
      // No field of ResignRequest is left.
      const { steps, notation } = b as PlayRequest;
      if ((steps === undefined) === (notation === undefined)) {
        fail('INVALID_REQUEST', 'give exactly one of steps or notation', { field: 'steps' });
      }
      if (steps === undefined) return { type: 'play', play: { notation: notation! } };
      const play: Play = { steps: steps.map((s): Step => ({ from: s.from, to: s.to })) };
      return { type: 'play', play };
    }
    case 'resign': {
      checkKeys(b, ['as']);
      // No field of PlayRequest is left.
      const level: ResignLevel = (b as ResignRequest).as ?? 'single';
      return { type: 'resign', level };
    }
    default:
      checkKeys(b, []);
      return { type: name } as SessionActionInput;
  }
}

function bindRecord(record: SessionRecord): AnyBound {
  const variant = variantByName(record.variant);
  if (!variant.ok) fail('INTERNAL', 'a stored game names an unknown variant');
  return rebind(variant.value, record.rules);
}

/** A stored record with its family state in typed form, ready for the flow's transitions. */
export function workingOf(record: SessionRecord, now: () => Date): Working<unknown, unknown> {
  return withFamily(bindRecord(record), (bound) => workingFor(bound, record, now));
}

/**
 * Game sessions: create, read and act, with bearer tokens per seat,
 * optimistic concurrency (versions / If-Match, compare-and-set in the
 * store), idempotent retries and provably fair dice.
 */
export class GameSessions {
  private readonly random: (n: number) => Buffer;

  constructor(private readonly deps: SessionDeps) {
    this.random = deps.random ?? randomBytes;
  }

  private guard<T>(work: () => Promise<T>): Promise<T> {
    return guarded(work, this.deps.onStoreError);
  }

  private working(record: SessionRecord): Working<unknown, unknown> {
    return workingOf(record, this.deps.now);
  }

  private view(record: SessionRecord, version: number, w?: Working<unknown, unknown>): GameView {
    const work = w ?? this.working(record);
    return gameView(work, version);
  }

  /** `POST /v1/games`. */
  async create(
    body: CreateGameRequest,
    client = 'anonymous',
  ): Promise<Answer<{ id: string; seats: Record<Side, { token: string }>; state: GameView; version: number }>> {
    // The shape (known fields, cube and match.crawford booleans, match.length 1..999) is openapi.yaml's
    // CreateGameRequest, checked at the edge of both transports; the rules check the variant, its options and the cube.
    const start = createGameState({
      variant: body.variant,
      rules: body.rules,
      ...(body.cube !== undefined ? { cube: body.cube } : {}),
      ...(body.match !== undefined ? { match: body.match } : {}),
    });
    if (!start.ok) throw ServiceError.fromGame(start.error);
    const { state } = start.value;
    const id = this.random(16).toString('base64url');
    const tokens = { white: this.random(32).toString('base64url'), black: this.random(32).toString('base64url') };
    const seed = this.deps.seeds();
    const record: SessionRecord = {
      schema: 1,
      id,
      variant: state.variant,
      family: bindGameState(state).variant.family,
      rules: state.rules,
      createdAt: this.deps.now().toISOString(),
      seats: { white: { tokenHash: hashToken(tokens.white) }, black: { tokenHash: hashToken(tokens.black) } },
      cubeConfig: state.cubeConfig,
      match: state.match,
      status: 'playing',
      expects: null,
      game: openRound(1, seed, state.cubeConfig),
      finishedGames: [],
      events: 0,
    };
    const w = this.working(record);
    beginGame(w, start.value);
    record.game.state = w.family.toJson(w.state);
    record.events = w.events.length;
    const events = w.events.map((e) => JSON.stringify(e));
    await this.chargeCreation(client);
    const ttl = Math.min(this.deps.unstartedTtlSeconds ?? this.deps.ttlSeconds, this.deps.ttlSeconds);
    const created = await this.guard(async () => {
      try {
        return await this.deps.store.create(id, JSON.stringify(record), ttl, events, 'unstarted');
      } catch (e) {
        if (!(e instanceof StoreOutcomeUnknownError)) throw e;
        this.deps.onStoreError?.(e.cause ?? e);
        // The game may exist; its id lets the client find out, and one never played expires by itself.
        fail('OUTCOME_UNKNOWN', `the session store did not confirm the new game in time: it may have been created. To learn which, read GET /v1/games/${id} once the store answers: 404 means it was not; a game made so, whose seats' tokens were never sent, expires unplayed after ${ttl} s. Create another game either way`, {
          version: 1,
          gameId: id,
        });
      }
    });
    if (!created) fail('INTERNAL', 'could not allocate a game id');
    return {
      status: 201,
      body: { id, seats: { white: { token: tokens.white }, black: { token: tokens.black } }, state: this.view(record, 1, w), version: 1 },
      version: 1,
    };
  }

  /** One game off the client's creation budget (a valid request only: bad input costs nothing). */
  private async chargeCreation(client: string): Promise<void> {
    const budget = this.deps.createBudget;
    if (!budget || budget.perWindow <= 0) return;
    const charge = await budget.counter.charge(client, 1, budget.perWindow);
    if (!charge.allowed) {
      fail('RATE_LIMITED', `more than ${budget.perWindow} new games in this window; retry after ${charge.resetSeconds} s`, {
        retryAfter: charge.resetSeconds,
        limit: budget.perWindow,
      });
    }
  }

  private async load(id: string): Promise<{ record: SessionRecord; version: number }> {
    if (typeof id !== 'string' || id.length > 64) fail('GAME_NOT_FOUND', 'no such game');
    const stored = await this.guard(() => this.deps.store.get(id));
    if (!stored) fail('GAME_NOT_FOUND', 'no such game (it may have expired)');
    return { record: JSON.parse(stored.data) as SessionRecord, version: stored.version };
  }

  /** `GET /v1/games/{id}`. */
  async get(id: string): Promise<Answer<GameView>> {
    const { record, version } = await this.load(id);
    return { status: 200, body: this.view(record, version), version };
  }

  /** `GET /v1/games/{id}/history`. */
  async history(id: string): Promise<Answer<ReturnType<typeof historyView>>> {
    const { record, version } = await this.load(id);
    const events = await this.guard(() => this.deps.store.history(id));
    if (!events) fail('GAME_NOT_FOUND', 'no such game (it may have expired)');
    return { status: 200, body: historyView(record, events.map((e) => JSON.parse(e) as HistoryEvent)), version };
  }

  /**
   * `GET /v1/games/{id}/events` and the `gameEvents` subscription: the
   * events after number `after` (0 = all), then the new ones as they are
   * saved, until the session is over.
   */
  async follow(id: string, after: unknown): Promise<GameFeed> {
    if (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0) {
      fail('INVALID_REQUEST', 'the last event id must be an event number, an integer ≥ 0', { field: 'Last-Event-ID' });
    }
    const { record } = await this.load(id);
    // An id past the last event was never sent by this game: the client follows another game, or a store that lost events.
    if (after > record.events) {
      fail('INVALID_REQUEST', `the last event id ${after} is past this game's last event (${record.events}); resume from ${record.events} or less`, { field: 'Last-Event-ID' });
    }
    return new GameFeed(this.deps.store, id, after);
  }

  /** The stored record and every history event of a session (match files are written from them). */
  async source(id: string): Promise<{ record: SessionRecord; events: HistoryEvent[] }> {
    const { record } = await this.load(id);
    const events = await guarded(() => this.deps.store.history(id));
    if (!events) fail('GAME_NOT_FOUND', 'no such game (it may have expired)');
    return { record, events: events.map((e) => JSON.parse(e) as HistoryEvent) };
  }

  /** `GET /v1/games/{id}/fairness`. */
  async fairness(id: string): Promise<Answer<ReturnType<typeof fairnessView>>> {
    const { record, version } = await this.load(id);
    return { status: 200, body: fairnessView(record), version };
  }

  private seatOf(record: SessionRecord, token: string | undefined): Side {
    if (!token) fail('UNAUTHORIZED', 'this action needs the seat\'s bearer token (Authorization: Bearer …)');
    const hash = hashToken(token);
    for (const side of SIDES) if (sameHash(record.seats[side].tokenHash, hash)) return side;
    fail('UNAUTHORIZED', 'the token is not a seat of this game');
  }

  /** `POST /v1/games/{id}/{action}`. */
  async act(id: string, name: ActionName, body: ActionBody | undefined, meta: ActionMeta): Promise<Answer<GameView>> {
    const input = parseAction(name, body);
    const { record, version } = await this.load(id);
    const seat = this.seatOf(record, meta.token);
    const key = meta.idempotencyKey;
    // A key stands for one request: this seat, this action, this body (as parsed).
    const request = createHash('sha256').update(JSON.stringify([seat, input])).digest('hex');
    /** The answer to a key used before: judged against `at`, the game as last read (read again when older than the key's action). */
    const replayOf = async (at: { record: SessionRecord; version: number } | null): Promise<Answer<GameView> | null> => {
      if (key === undefined) return null;
      const replay = await this.guard(() => this.deps.store.idempotent(id, key));
      if (!replay) return null;
      if (replay.request !== undefined && replay.request !== request) {
        fail('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used for another request (seat, action or body) of this game; use a fresh key', {
          field: 'Idempotency-Key',
        });
      }
      // A record from before records were kept small carries its whole answer.
      if (replay.body !== undefined) return { status: replay.status, body: JSON.parse(replay.body) as GameView, version: replay.version, replayed: true };
      // The view is a function of the stored game: at the version the action made, it is the first answer
      // itself; past it (later actions), the game as it is now, which still shows the action applied once.
      const now = at && at.version >= replay.version ? at : await this.load(id);
      return { status: replay.status, body: this.view(now.record, now.version), version: now.version, replayed: true };
    };
    const first = await replayOf({ record, version });
    if (first) return first;
    const refusal = (e: ServiceError, at: SessionRecord, atVersion: number): ServiceError => {
      // Every refusal says which version it was judged against and what the seat may do there.
      const allowed = allowedActions(this.working(at))[seat];
      const may = allowed.length > 0 ? `${seat} may now: ${allowed.join(', ')}` : `${seat} has nothing to do now`;
      return new ServiceError({ ...e.body, message: `${e.body.message} (${may})`, version: atVersion, allowed });
    };
    if (meta.ifMatch !== undefined && meta.ifMatch !== version) {
      throw refusal(new ServiceError({ code: 'VERSION_CONFLICT', message: `the game is at version ${version}, not ${meta.ifMatch}` }), record, version);
    }
    const next = structuredClone(record);
    const w = this.working(next);
    try {
      act(w, seat, input, this.deps.seeds);
    } catch (e) {
      if (e instanceof ServiceError) throw refusal(e, record, version);
      throw e;
    }
    next.game.state = w.family.toJson(w.state);
    next.events = record.events + w.events.length;
    const body2 = this.view(next, version + 1, w);
    // Only what a repeat needs: the answer itself is the game's view at `version + 1`, made again from the game.
    const response: StoredResponse = { status: 200, version: version + 1, request };
    const finished = next.status === 'finished';
    const ttl = finished ? Math.min(this.deps.finishedTtlSeconds ?? this.deps.ttlSeconds, this.deps.ttlSeconds) : this.deps.ttlSeconds;
    const outcome = await this.guard(() =>
      this.deps.store.save(
        id,
        version,
        JSON.stringify(next),
        ttl,
        w.events.map((e) => JSON.stringify(e)),
        key !== undefined ? { key, response, ttlSeconds: this.deps.idempotencyTtlSeconds } : undefined,
        finished ? 'finished' : 'live',
      ),
    );
    if (outcome === 'missing') fail('GAME_NOT_FOUND', 'no such game (it may have expired)');
    if (outcome === 'conflict') {
      const replay = await replayOf(null);
      if (replay) return replay;
      const current = await this.load(id);
      throw refusal(new ServiceError({ code: 'VERSION_CONFLICT', message: 'another action changed the game first; read it again' }), current.record, current.version);
    }
    return { status: 200, body: body2, version: version + 1 };
  }
}
