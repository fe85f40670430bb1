import { Dice } from '../../engine/dice';
import { CubeActionType, CubeConfig, INITIAL_CUBE, applyCubeAction, applyRollOffTie, legalCubeActions, stakeOf } from '../../engine/scoring/cube';
import { nextMatchState } from '../../engine/scoring/match';
import { GameScore, ResignLevel } from '../../engine/scoring/score';
import { SIDES, Side, otherSide } from '../../engine/side';
import { ServiceError, fail } from '../errors';
import { Bound, GameFamily, Play } from '../../engine/family';
import { commitmentOf, rollAt } from './fairness';
import { EventType, GameRound, HistoryEvent, SessionRecord } from './record';

/**
 * The game flow of a session as pure transitions on a record: opening
 * roll-off, rolls with provably fair dice, plays stage by stage (cascades,
 * re-rolls, debts), the cube, resignation, the end of a game scored by the
 * scoring core, and match progress with Crawford. `Working` holds the
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
  /** Replaying a match file: the file's dice instead of the seeded rolls. */
  readonly dice?: () => [number, number];
}

/**
 * The working form of `record` for a binding: the stored state read back,
 * or — before the first game starts — the opening position, which
 * `startGame` replaces.
 */
export function workingFor<R, S>(
  bound: Bound<R, S>,
  record: SessionRecord,
  now: () => Date,
  extra: { readonly events?: HistoryEvent[]; readonly dice?: () => [number, number] } = {},
): Working<R, S> {
  const stored = record.game?.state;
  return {
    family: bound.family,
    rules: bound.rules,
    record,
    state: stored ? bound.family.fromJson(bound.rules, stored) : bound.family.initial(bound.rules, 'white'),
    now,
    events: extra.events ?? [],
    ...(extra.dice ? { dice: extra.dice } : {}),
  };
}

export type SessionActionInput =
  | { type: 'roll' }
  | { type: 'play'; play: Play }
  | { type: CubeActionType }
  | { type: 'resign'; level: ResignLevel }
  | { type: 'next-game' };

function event(w: Working<unknown, unknown>, type: EventType, seat: Side | null, extra: Partial<HistoryEvent> = {}): void {
  w.events.push({ n: w.record.events + w.events.length + 1, at: w.now().toISOString(), game: w.record.game.number, type, seat, ...extra });
}

function nextRoll<R, S>(w: Working<R, S>, purpose: 'roll-off' | 'roll' | 'last-roll', by: Side | null): [number, number] {
  const game = w.record.game;
  const dice = w.dice ? w.dice() : rollAt(Buffer.from(game.seed, 'hex'), game.rolls.length);
  game.rolls.push({ index: game.rolls.length, dice, purpose, by });
  return dice;
}

/** Starts game number `number` with a fresh secret seed (LN-START-1…3, SH-START-1/2). */
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

function startGame<R, S>(w: Working<R, S>, seed: Buffer, previousWinner: Side | null): void {
  w.record.game = openRound(w.record.game.number + 1, seed, w.record.cubeConfig);
  beginGame(w, previousWinner);
}

/** The first move of the record's open game: who moves first, by the rules or a roll-off, and the initial state. */
export function beginGame<R, S>(w: Working<R, S>, previousWinner: Side | null): void {
  const record = w.record;
  const game = record.game;
  let firstMover: Side;
  let dice: [number, number] | null = null;
  if (previousWinner && w.family.nextGameStarter(w.rules) === 'previousWinner') {
    firstMover = previousWinner; // LN-START-3
  } else if (w.family.openingRoll(w.rules) === 'fixedFirstSeat') {
    firstMover = 'white';
  } else {
    // Roll-off: one die each, equal values roll again (LN-START-1, SH-START-1).
    for (;;) {
      const [white, black] = nextRoll(w, 'roll-off', null);
      event(w, 'roll-off', null, { dice: [white, black] });
      if (white !== black) {
        firstMover = white > black ? 'white' : 'black';
        if (w.family.openingRoll(w.rules) === 'useRollOffDice') dice = [white, black];
        break;
      }
      // CUBE-5: equal roll-off dice may double the stake (money play, option on).
      if (game.cube) game.cube = applyRollOffTie(record.cubeConfig, game.cube, record.match);
    }
  }
  game.firstMover = firstMover;
  game.dice = dice;
  w.state = w.family.initial(w.rules, firstMover);
  settle(w);
}

function stake<R, S>(w: Working<R, S>) {
  return stakeOf(w.record.cubeConfig, w.record.game.cube ?? INITIAL_CUBE, w.record.match);
}

/** Ends the game with its score and moves the match on (CUBE-6, LN-MATCH-1). */
function finishGame<R, S>(w: Working<R, S>, result: GameScore): void {
  const record = w.record;
  record.game.result = result;
  record.game.dice = null;
  event(w, 'game-over', result.winner, { result, positionId: w.family.positionId(w.state) });
  if (record.match) {
    const next = result.winner ? nextMatchState(record.match, { winner: result.winner, points: result.points }) : null;
    if (next && !next.ok) throw ServiceError.fromCube(next.error);
    if (next) record.match = next.value;
    if (record.match.winner) {
      record.status = 'finished';
      record.expects = null;
    } else {
      // Either seat may start the next game; the previous winner is named (he starts under LN-START-3).
      record.expects = { seat: result.winner ?? 'white', action: 'next-game' };
    }
  } else {
    record.status = 'finished';
    record.expects = null;
  }
}

/**
 * Brings the record to the next decision: ends the game when a side has
 * won, plays the forced empty play when nothing can be played (ALG-8, MAX-5),
 * and sets what is expected of whom.
 */
export function settle<R, S>(w: Working<R, S>): void {
  const { family, rules, record } = w;
  const game = record.game;
  for (let guard = 0; guard < 64; guard++) {
    if (game.result) return;
    const winner = family.winner(w.state);
    if (winner && !game.lastRoll) {
      const roller = game.firstMover ? family.lastRollRoller(rules, game.firstMover, winner) : null;
      if (roller) {
        // LN-SCORE-6: the second mover gets one last roll.
        game.lastRoll = true;
        w.state = family.withSideToAct(w.state, roller);
        record.expects = { seat: roller, action: 'roll' };
        return;
      }
      const score = family.score(rules, w.state, winner, stake(w));
      if (!score.ok) throw ServiceError.fromCube(score.error);
      finishGame(w, score.value);
      return;
    }
    if (game.cube?.offered) {
      record.expects = { seat: otherSide(game.cube.offered.by), action: 'respond' };
      return;
    }
    const side = family.sideToAct(w.state);
    if (family.needsDice(w.state) && game.dice === null) {
      record.expects = { seat: side, action: 'roll' };
      return;
    }
    const legal = family.legal(rules, w.state, game.dice ?? undefined, { lastRoll: game.lastRoll });
    if (!legal.ok) fail('INTERNAL', `the stored game cannot be continued: ${legal.error.code}`);
    const only = legal.value.turns[0];
    if (legal.value.turns.length === 1 && only.stepCount === 0) {
      event(w, 'no-play', side, { ...(game.dice ? { dice: game.dice } : {}), positionId: family.positionId(only.state) });
      afterPlay(w, only.state);
      continue;
    }
    record.expects = { seat: side, action: 'play' };
    return;
  }
  fail('INTERNAL', 'the game flow did not settle');
}

function afterPlay<R, S>(w: Working<R, S>, state: S): void {
  const game = w.record.game;
  w.state = state;
  game.dice = null;
  game.opening = false;
  if (game.lastRoll && game.firstMover) {
    const score = w.family.scoreLastRoll(w.rules, state, game.firstMover, stake(w));
    if (!score.ok) throw ServiceError.fromCube(score.error);
    finishGame(w, score.value);
  }
}

/** Every action a seat can send, in the order the allowed lists give them. */
export const ACTION_NAMES = ['roll', 'play', 'double', 'take', 'drop', 'beaver', 'raccoon', 'resign', 'next-game'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export type AllowedActions = Record<Side, ActionName[]>;

/** The cube situation of the side on turn, as `applyCubeAction` judges it. */
function cubeContext<R, S>(w: Working<R, S>, onRoll: Side) {
  const game = w.record.game;
  return { onRoll, rolled: game.dice !== null, openingMove: game.opening, match: w.record.match };
}

/**
 * What each seat may do now, so that clients enable buttons without probing:
 * exactly the actions `act` would accept from that seat (a listed action
 * succeeds with a valid body; an unlisted one is refused).
 *
 * - a game in progress: the seat expected to roll rolls and, when CUBE-2 and
 *   CUBE-6 allow, doubles (never during the LN-SCORE-6 last roll, which is
 *   not a turn of its own); the seat expected to play plays; the doubled
 *   side answers with take / drop and, where CUBE-5 is in force, beaver or
 *   raccoon; both seats may resign;
 * - between the games of a match: either seat may start the next game;
 * - a finished game or match: nothing.
 */
export function allowedActions<R, S>(w: Working<R, S>): AllowedActions {
  const { record } = w;
  const game = record.game;
  const allowed: AllowedActions = { white: [], black: [] };
  const expects = record.expects;
  if (record.status === 'finished' || !expects || game.result) {
    if (expects?.action === 'next-game') for (const side of SIDES) allowed[side].push('next-game');
    return allowed;
  }
  const seat = expects.seat;
  switch (expects.action) {
    case 'roll':
      allowed[seat].push('roll');
      if (game.cube && !game.lastRoll && legalCubeActions(record.cubeConfig, game.cube, cubeContext(w, seat), seat).includes('double')) {
        allowed[seat].push('double');
      }
      break;
    case 'play':
      allowed[seat].push('play');
      break;
    case 'respond':
      if (game.cube) {
        const answers = legalCubeActions(record.cubeConfig, game.cube, cubeContext(w, w.family.sideToAct(w.state)), seat);
        allowed[seat].push(...answers.filter((a) => a !== 'double'));
      }
      break;
    case 'next-game':
      for (const side of SIDES) allowed[side].push('next-game');
      return allowed;
  }
  for (const side of SIDES) allowed[side].push('resign');
  return allowed;
}

function expect<R, S>(w: Working<R, S>, seat: Side, action: string): void {
  const expects = w.record.expects;
  if (w.record.status === 'finished' || !expects) fail('GAME_FINISHED', 'the game is over');
  if (expects.action !== action) {
    fail('ACTION_NOT_EXPECTED', `the game expects ${expects.action} from ${expects.seat}, not ${action}`, {
      expects,
    });
  }
  if (action !== 'next-game' && expects.seat !== seat) {
    fail('NOT_YOUR_TURN', `it is ${expects.seat}'s turn to ${expects.action}`, { expects });
  }
}

/** Applies one action of `seat` to the record (already deep-copied by the caller). */
export function act<R, S>(w: Working<R, S>, seat: Side, input: SessionActionInput, nextSeed: () => Buffer): void {
  const { family, rules, record } = w;
  const game = record.game;
  switch (input.type) {
    case 'roll': {
      expect(w, seat, 'roll');
      const dice = nextRoll(w, game.lastRoll ? 'last-roll' : 'roll', seat);
      game.dice = dice;
      event(w, 'roll', seat, { dice });
      settle(w);
      return;
    }
    case 'play': {
      expect(w, seat, 'play');
      const dice: Dice | undefined = game.dice ?? undefined;
      const v = family.validate(rules, w.state, dice, input.play, { lastRoll: game.lastRoll });
      if (!v.ok) throw ServiceError.from(v.error);
      if (!v.value.legal) {
        const e = v.value.error;
        fail('ILLEGAL_PLAY', e.message, {
          violation: { code: e.code, message: e.message, ...(e.stepIndex !== undefined ? { stepIndex: e.stepIndex } : {}), ...(e.rule ? { rule: e.rule } : {}) },
        });
      }
      if (!v.value.complete) {
        fail('INCOMPLETE_PLAY', `the play is legal so far but must go on: ${v.value.remainingDice.join(', ')} still to play`, {
          remainingDice: v.value.remainingDice,
        });
      }
      const turn = v.value.turn;
      event(w, 'play', seat, {
        ...(dice ? { dice: [dice[0], dice[1]] as [number, number] } : {}),
        steps: turn.view.steps,
        notation: turn.view.notation,
        positionId: turn.view.positionId,
      });
      afterPlay(w, turn.state);
      settle(w);
      return;
    }
    case 'double':
    case 'take':
    case 'drop':
    case 'beaver':
    case 'raccoon': {
      if (record.status === 'finished' || game.result) fail('GAME_FINISHED', 'the game is over');
      if (!game.cube) fail('CUBE_DISABLED', 'this game is played without the doubling cube', { rule: 'LN-SCORE-5' });
      if (input.type === 'double') {
        expect(w, seat, 'roll');
        if (game.lastRoll) fail('NOT_BEFORE_ROLL', 'no double on the last roll: the game is decided but for that roll', { rule: 'LN-SCORE-6' });
      } else expect(w, seat, 'respond');
      const outcome = applyCubeAction(
        record.cubeConfig,
        game.cube,
        cubeContext(w, input.type === 'double' ? seat : family.sideToAct(w.state)),
        { type: input.type, by: seat },
      );
      if (!outcome.ok) throw ServiceError.fromCube(outcome.error);
      game.cube = outcome.value.state;
      event(w, input.type, seat, { cubeValue: game.cube.value });
      if (outcome.value.gameOver) {
        finishGame(w, outcome.value.gameOver);
        return;
      }
      settle(w);
      return;
    }
    case 'resign': {
      if (record.status === 'finished' || game.result || !record.expects || record.expects.action === 'next-game') {
        fail('GAME_FINISHED', 'no game is in progress');
      }
      const score = family.resign(rules, w.state, seat, input.level, stake(w));
      if (!score.ok) throw ServiceError.fromCube(score.error);
      event(w, 'resign', seat);
      finishGame(w, score.value);
      return;
    }
    case 'next-game': {
      expect(w, seat, 'next-game');
      const previous = game;
      record.finishedGames.push({
        number: previous.number,
        seed: previous.seed,
        commitment: previous.commitment,
        rolls: previous.rolls,
        result: previous.result,
      });
      event(w, 'next-game', seat);
      startGame(w, nextSeed(), previous.result?.winner ?? null);
      return;
    }
  }
}
