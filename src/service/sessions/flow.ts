import { Bound, GameFamily, Play } from '../../engine/family';
import { GameAction, GameState, allowedActions as allowedOfState, applyAction, bindGameState, newGameState } from '../../engine/game';
import { Applied } from '../../engine/game/types';
import { CubeActionType, CubeConfig, INITIAL_CUBE } from '../../engine/scoring/cube';
import { ResignLevel } from '../../engine/scoring/score';
import { Side } from '../../engine/side';
import { ServiceError } from '../errors';
import { commitmentOf, rollAt } from './fairness';
import { Expects, GameRound, HistoryEvent, SessionRecord } from './record';

/**
 * A session's bridge to the game reducer (`src/engine/game`): the stored
 * record is read as a game state, each action is applied by the reducer
 * with the session's provably fair dice, and the answer is written back
 * with the rolls (for the fairness record) and the numbered, timed events.
 * The game flow itself lives in the reducer only. `Working` holds the
 * record being changed plus the family state in its typed form.
 */
export interface Working<R, S> {
  readonly family: GameFamily<R, S>;
  readonly rules: R;
  readonly record: SessionRecord;
  state: S;
  readonly now: () => Date;
  /** The events this transition adds to the history (saved with the record). */
  readonly events: HistoryEvent[];
}

/**
 * The working form of `record` for a binding: the stored state read back,
 * or — before the first game starts — the opening position, which
 * `beginGame` replaces.
 */
export function workingFor<R, S>(
  bound: Bound<R, S>,
  record: SessionRecord,
  now: () => Date,
  extra: { readonly events?: HistoryEvent[] } = {},
): Working<R, S> {
  const stored = record.game?.state;
  return {
    family: bound.family,
    rules: bound.rules,
    record,
    state: stored ? bound.family.fromJson(bound.rules, stored) : bound.family.initial(bound.rules, 'white'),
    now,
    events: extra.events ?? [],
  };
}

export type SessionActionInput =
  | { type: 'roll' }
  | { type: 'play'; play: Play }
  | { type: CubeActionType }
  | { type: 'resign'; level: ResignLevel }
  | { type: 'next-game' };

/** Every action a seat can send to a session, in the order the allowed lists give them (the roll-off is the session's own). */
export const ACTION_NAMES = ['roll', 'play', 'double', 'take', 'drop', 'beaver', 'raccoon', 'resign', 'next-game'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export type AllowedActions = Record<Side, ActionName[]>;

/** A new game of the record: its seed committed, nothing rolled yet. */
export function openRound(number: number, seed: Buffer, cubeConfig: CubeConfig): GameRound {
  return {
    number,
    seed: seed.toString('hex'),
    commitment: commitmentOf(seed),
    rolls: [],
    firstMover: null,
    state: null,
    dice: null,
    lastRoll: false,
    opening: true,
    cube: cubeConfig.enabled ? { ...INITIAL_CUBE } : null,
    result: null,
  };
}

/** The record read as the reducer's game state. */
export function gameStateOf(w: Working<unknown, unknown>): GameState {
  const { record } = w;
  const game = record.game;
  return {
    variant: record.variant,
    rules: record.rules,
    cubeConfig: record.cubeConfig,
    match: record.match,
    status: record.status,
    expects: record.expects,
    game: {
      number: game.number,
      firstMover: game.firstMover,
      position: game.state ?? w.family.toJson(w.state),
      dice: game.dice,
      lastRoll: game.lastRoll,
      opening: game.opening,
      cube: game.cube,
      result: game.result,
    },
  };
}

/** Writes an answer of the reducer into the record: the state, and the events numbered and timed. */
function recordAnswer<R, S>(w: Working<R, S>, applied: Applied): void {
  const { record } = w;
  const { state } = applied;
  record.match = state.match;
  record.status = state.status;
  // A session resolves its roll-offs at once (`rollOffs`), so it never waits for one.
  record.expects = state.expects as Expects | null;
  const game = record.game;
  game.firstMover = state.game.firstMover;
  game.state = state.game.position;
  game.dice = state.game.dice ? [state.game.dice[0], state.game.dice[1]] : null;
  game.lastRoll = state.game.lastRoll;
  game.opening = state.game.opening;
  game.cube = state.game.cube;
  game.result = state.game.result;
  w.state = w.family.fromJson(w.rules, state.game.position);
  for (const e of applied.events) {
    w.events.push({ n: record.events + w.events.length + 1, at: w.now().toISOString(), ...e });
  }
}

/** The reducer's answer to an action of `seat`; a refusal throws its service error. */
function answer<R, S>(w: Working<R, S>, seat: Side, action: GameAction): Applied {
  const applied = applyAction(gameStateOf(w as Working<unknown, unknown>), seat, action);
  if (!applied.ok) throw ServiceError.fromGame(applied.error);
  return applied.value;
}

/** The next roll of the game: the seeded fair roll, kept for the fairness record. */
function nextRoll<R, S>(w: Working<R, S>, purpose: 'roll-off' | 'roll' | 'last-roll', by: Side | null): [number, number] {
  const game = w.record.game;
  const dice = rollAt(Buffer.from(game.seed, 'hex'), game.rolls.length);
  game.rolls.push({ index: game.rolls.length, dice, purpose, by });
  return dice;
}

/**
 * Writes `applied` into the record, then rolls the roll-off with the game's
 * dice until it decides who moves first (LN-START-1, SH-START-1): a session
 * never waits for a roll-off.
 */
function recordWithRollOffs<R, S>(w: Working<R, S>, applied: Applied): void {
  recordAnswer(w, applied);
  for (let expects = applied.expects, guard = 0; expects?.action === 'roll-off'; guard++) {
    if (guard > 1000) throw new Error('the roll-off did not end');
    const next = answer(w, 'white', { type: 'roll-off', dice: nextRoll(w, 'roll-off', null) });
    recordAnswer(w, next);
    expects = next.expects;
  }
}

/** The first move of the record's open game (number 1): who moves first, by the rules or a roll-off, and the initial state. */
export function beginGame<R, S>(
  w: Working<R, S>,
  start: Applied = newGameState(bindGameState(w.record), { cubeConfig: w.record.cubeConfig, match: w.record.match }),
): void {
  recordWithRollOffs(w, start);
}

/**
 * What each seat may do now, so that clients enable buttons without probing:
 * exactly the actions `act` accepts from that seat (the reducer's lists).
 */
export function allowedActions<R, S>(w: Working<R, S>): AllowedActions {
  const allowed = allowedOfState(gameStateOf(w as Working<unknown, unknown>));
  const session = (actions: string[]) => actions.filter((a): a is ActionName => (ACTION_NAMES as readonly string[]).includes(a));
  return { white: session(allowed.white), black: session(allowed.black) };
}

/** Applies one action of `seat` to the record (already deep-copied by the caller); a refusal throws its service error. */
export function act<R, S>(w: Working<R, S>, seat: Side, input: SessionActionInput, nextSeed: () => Buffer): void {
  const { record } = w;
  switch (input.type) {
    case 'roll': {
      // The dice are drawn only for a roll the game expects of this seat: a refused roll uses up nothing.
      const expected = record.status === 'playing' && record.expects?.action === 'roll' && record.expects.seat === seat;
      const dice = expected ? nextRoll(w, record.game.lastRoll ? 'last-roll' : 'roll', seat) : ([1, 1] as [number, number]);
      recordAnswer(w, answer(w, seat, { type: 'roll', dice }));
      return;
    }
    case 'next-game': {
      const previous = record.game;
      const next = answer(w, seat, { type: 'next-game' });
      // The new game gets its own secret seed; the finished one is kept for the fairness record.
      record.finishedGames.push({
        number: previous.number,
        seed: previous.seed,
        commitment: previous.commitment,
        rolls: previous.rolls,
        result: previous.result,
      });
      record.game = openRound(next.state.game.number, nextSeed(), record.cubeConfig);
      recordWithRollOffs(w, next);
      return;
    }
    default:
      recordAnswer(w, answer(w, seat, input));
  }
}
