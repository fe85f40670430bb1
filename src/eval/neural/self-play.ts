import { Dice } from '../../engine/dice';
import { AnyBound, rebind } from '../../engine/family';
import { Applied, GameAction, GameEvent, applyAction, gamePosition, newGameState } from '../../engine/game';
import { CUBE_OFF } from '../../engine/scoring/cube';
import { LongRules } from '../../engine/long/rules';
import { LongStageSolver } from '../../engine/long/stage';
import { LongState, LongTurn, legalLongTurns } from '../../engine/long/turn';
import { ShortPosition } from '../../engine/short/position';
import { ShortRules } from '../../engine/short/rules';
import { Side } from '../../engine/side';
import { Step } from '../../engine/step';
import { variantByName } from '../../engine/variants';
import { SeededRandom } from '../../engine/random';
import { LongChooser } from '../long/chooser';
import { LongSearch } from '../long/search';
import { isLongRace } from '../race';
import { tdTargets } from './training';

export { LongChooser } from '../long/chooser';

/*
 * Self-play on the game reducer: the training and strength loops keep only
 * their choice of a play; the game flow (roll-off, rolls, stages, forced
 * empty plays, the end of the game and its score) is `applyAction`'s.
 */

function must(applied: ReturnType<typeof applyAction>, what: string): Applied {
  if (!applied.ok) throw new Error(`self-play ${what}: ${applied.error.code} ${applied.error.message}`);
  return applied.value;
}

/**
 * A game of any family played through the reducer for self-play: money play
 * without the cube, driven one roll and play at a time by a chooser.
 */
export class SelfPlayGame<S> {
  protected applied: Applied;
  /** Events of the last `rollOff` or `play`. */
  events: readonly GameEvent[] = [];

  constructor(bound: AnyBound) {
    this.applied = newGameState(bound, { cubeConfig: CUBE_OFF, match: null });
  }

  /** Is the roll-off still to be made (LN-START-1, SH-START-1)? */
  get rollingOff(): boolean {
    return this.applied.expects?.action === 'roll-off';
  }

  /** The side that moves first, once the roll-off (or the rules) decided it. */
  get firstMover(): Side | null {
    return this.applied.state.game.firstMover;
  }

  /** The game is over: its score, from the scoring core. */
  get result() {
    return this.applied.state.game.result;
  }

  /** The position now, in the family's own form: the reducer's, shared, never to be changed. */
  get position(): S {
    return gamePosition(this.applied.state) as S;
  }

  /** Does the side to act roll before playing? */
  get needsRoll(): boolean {
    return this.applied.expects?.action === 'roll';
  }

  /** Rolls off with White's and Black's die; false on a tie, which is rolled again. */
  rollOff(dice: readonly [number, number]): boolean {
    this.applied = must(applyAction(this.applied.state, 'white', { type: 'roll-off', dice }), 'roll-off');
    this.events = this.applied.events;
    return !this.rollingOff;
  }

  /**
   * Rolls `dice` when given (a roll must be expected), then plays `steps`
   * (one of the legal plays of the stage). Forced empty plays are the
   * reducer's (ALG-8, MAX-5); returns how many stages it played without a
   * choice after this one.
   */
  play(dice: Dice | undefined, steps: readonly Step[]): number {
    const expects = this.applied.expects;
    if (!expects) throw new Error('self-play: the game is over');
    const events: GameEvent[] = [];
    const act = (action: GameAction) => {
      this.applied = must(applyAction(this.applied.state, expects.seat, action), action.type);
      events.push(...this.applied.events);
    };
    if (dice) act({ type: 'roll', dice: [dice[0], dice[1]] });
    if (steps.length > 0) act({ type: 'play', play: { steps } });
    this.events = events;
    const forced = events.filter((e) => e.type === 'no-play').length;
    return steps.length === 0 ? forced - 1 : forced;
  }
}

function presetVariant(name: string) {
  const variant = variantByName(name);
  if (!variant.ok) throw new Error(variant.error.message);
  return variant.value;
}

const LONG = presetVariant('long');
const BACKGAMMON = presetVariant('backgammon');

/** A long-family game under `rules` (any long rules object) whose first mover is `firstMover` (LN-START-1). */
export class LongSelfPlay extends SelfPlayGame<LongState> {
  constructor(
    readonly rules: Readonly<LongRules>,
    firstMover: Side,
  ) {
    super(rebind(LONG, rules));
    if (this.rollingOff) {
      // LN-START-1: the roll-off's winner moves first and rolls again (rerollByWinner, every long preset).
      if (rules.openingRoll === 'useRollOffDice') throw new Error('self-play: the roll-off dice would be the first roll; give them with the roll');
      this.rollOff(firstMover === 'white' ? [2, 1] : [1, 2]);
    }
  }

  /** Rolls `dice` when given, then plays `turn`; see `play`. */
  step(dice: Dice | undefined, turn: LongTurn): number {
    return this.play(dice, turn.steps);
  }
}

/**
 * A backgammon game (SH-START-1: the roll-off dice are the first roll under
 * the standard preset) under `rules`, the backgammon preset's by default.
 */
export class ShortSelfPlay extends SelfPlayGame<ShortPosition> {
  constructor(readonly rules: Readonly<ShortRules> = BACKGAMMON.rules as ShortRules) {
    super(rebind(BACKGAMMON, rules));
  }
}

/** Positions and λ-return targets of one self-play game. */
export interface TdGame {
  /** Boards before the roll (seen from the side to move), `26 × positions`. */
  readonly boards: Int8Array;
  /** λ-return targets for the side to move of each board, `5 × positions`. */
  readonly targets: Float64Array;
  readonly positions: number;
  readonly stages: number;
}

/**
 * Plays one seeded self-play game at 0 ply and returns its contact
 * positions before a roll (nothing pending) with their TD(λ) targets
 * (`tdTargets`): the value after each chosen play is the one-step
 * bootstrap, the final result closes the chain. With `lookahead`, a contact
 * position's bootstrap is instead its 1-ply value over all 21 rolls (the
 * expectation of the one-step value, without the noise of the roll that came).
 */
export function playTdGame(
  rules: Readonly<LongRules>,
  chooser: LongChooser,
  random: SeededRandom,
  lambda: number,
  epsilon = 0,
  lookahead?: LongSearch,
): TdGame {
  // The game flow is the reducer's; every long preset rolls off and lets the winner roll again (LN-START-1).
  const game = new LongSelfPlay(rules, random.below(2) === 0 ? 'white' : 'black');
  const boards: Int8Array[] = [];
  const movers: number[] = [];
  const after: number[] = [];
  const solver = new LongStageSolver();
  let stages = 0;
  for (; stages < 5000; stages++) {
    if (game.result) break;
    const state = game.position;
    const dice: Dice | undefined = game.needsRoll ? random.dice() : undefined;
    const answer = legalLongTurns(rules as LongRules, state, dice, {}, solver);
    if (!answer.ok) throw new Error(`self-play: ${answer.error.code} ${answer.error.message}`);
    const turns = answer.value.turns;
    let k = chooser.best(state, turns);
    const value = chooser.valueOf(k);
    const record = state.pending.length === 0 && dice !== undefined;
    if (record) {
      boards.push(state.position.board.slice());
      movers.push(state.position.turn === 'white' ? 0 : 1);
      if (lookahead && !isLongRace(state.position.board)) {
        // The 1-ply value of the position before the roll: the mean over the 21 rolls of the value of
        // the 0-ply choice, whose sample for the roll that came is `value` (expected TD).
        const p = lookahead.evaluateState(state, 1);
        after.push(p.win, p.winMars, p.winKoks, p.loseMars, p.loseKoks);
      } else for (let i = 0; i < 5; i++) after.push(value[i]);
    }
    if (epsilon > 0 && random.next() < epsilon) k = random.below(turns.length);
    const forced = game.step(dice, turns[k]);
    // Stages the reducer played without a choice (no legal play, MAX-5) are stages of the game too;
    // exploration draws for them as for any other, so the seeded stream stays the same.
    for (let f = 0; f < forced; f++) {
      stages++;
      if (epsilon > 0 && random.next() < epsilon) random.below(1);
    }
  }
  const n = boards.length;
  const targets = tdTargets(Float64Array.from(after), Int8Array.from(movers), lambda);
  // Races belong to the race evaluator: keep contact positions only.
  const keep: number[] = [];
  for (let t = 0; t < n; t++) if (!isLongRace(boards[t])) keep.push(t);
  const outBoards = new Int8Array(26 * keep.length);
  const outTargets = new Float64Array(5 * keep.length);
  keep.forEach((t, i) => {
    outBoards.set(boards[t], 26 * i);
    outTargets.set(targets.subarray(5 * t, 5 * t + 5), 5 * i);
  });
  return { boards: outBoards, targets: outTargets, positions: keep.length, stages };
}
