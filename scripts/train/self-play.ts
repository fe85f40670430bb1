import { Dice } from '../../src/engine/dice';
import { rebind } from '../../src/engine/family';
import { longFamily } from '../../src/engine/family/long';
import { Applied, GameAction, GameEvent, applyAction, newGameState } from '../../src/engine/game';
import { CUBE_OFF } from '../../src/engine/scoring/cube';
import { LongRules } from '../../src/engine/long/rules';
import { LongState, LongTurn } from '../../src/engine/long/turn';
import { Side } from '../../src/engine/side';
import { variantByName } from '../../src/engine/variants';

/*
 * Self-play on the game reducer: the training and strength loops keep only
 * their choice of a play; the game flow (roll-off, rolls, stages, forced
 * empty plays, the end of the game and its score) is `applyAction`'s.
 */

function must(applied: ReturnType<typeof applyAction>, what: string): Applied {
  if (!applied.ok) throw new Error(`self-play ${what}: ${applied.error.code} ${applied.error.message}`);
  return applied.value;
}

/** A long-family game under `rules` (any long rules object) whose first mover is `firstMover` (LN-START-1). */
export class LongSelfPlay {
  private applied: Applied;
  /** Events of the last `step`. */
  events: readonly GameEvent[] = [];

  constructor(readonly rules: Readonly<LongRules>, firstMover: Side) {
    const variant = variantByName('long');
    if (!variant.ok) throw new Error(variant.error.message);
    this.applied = newGameState(rebind(variant.value, rules), { cubeConfig: CUBE_OFF, match: null });
    if (this.applied.expects?.action === 'roll-off') {
      // LN-START-1: the roll-off's winner moves first and rolls again (rerollByWinner, every long preset).
      if (rules.openingRoll === 'useRollOffDice') throw new Error('self-play: the roll-off dice would be the first roll; give them with the roll');
      this.applied = must(applyAction(this.applied.state, firstMover, { type: 'roll-off', dice: firstMover === 'white' ? [2, 1] : [1, 2] }), 'roll-off');
    }
  }

  /** The game is over: its score (LN-SCORE-1…4, KH-4, FV-6), from the scoring core. */
  get result() {
    return this.applied.state.game.result;
  }

  /** The position now, in the long family's own form. */
  get position(): LongState {
    return longFamily.fromJson(this.rules as LongRules, this.applied.state.game.position);
  }

  /** Does the side to act roll before playing? */
  get needsRoll(): boolean {
    return this.applied.expects?.action === 'roll';
  }

  /**
   * Rolls `dice` when a roll is expected, then plays `turn` (one of the legal
   * plays of the stage). Forced empty plays are the reducer's (ALG-8, MAX-5);
   * returns how many stages it played without a choice after this one.
   */
  step(dice: Dice | undefined, turn: LongTurn): number {
    const expects = this.applied.expects;
    if (!expects) throw new Error('self-play: the game is over');
    const events: GameEvent[] = [];
    const act = (action: GameAction) => {
      this.applied = must(applyAction(this.applied.state, expects.seat, action), action.type);
      events.push(...this.applied.events);
    };
    if (dice) act({ type: 'roll', dice: [dice[0], dice[1]] });
    if (turn.steps.length > 0) act({ type: 'play', play: { steps: turn.steps } });
    this.events = events;
    const forced = events.filter((e) => e.type === 'no-play').length;
    return turn.steps.length === 0 ? forced - 1 : forced;
  }
}
