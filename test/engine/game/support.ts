import { Applied, GameAction, GameOptions, GameState, applyAction, createGameState, expectedPlay } from '../../../src/engine/game';
import { SeededRandom } from '../../../src/engine/random';
import { Side } from '../../../src/engine/side';

/** A new game; fails the test when the options are refused. */
export function start(options: GameOptions): Applied {
  const created = createGameState(options);
  if (!created.ok) throw new Error(`${created.error.code}: ${created.error.message}`);
  return created.value;
}

/** Applies an action that must be accepted. */
export function apply(state: GameState, seat: Side, action: GameAction): Applied {
  const applied = applyAction(state, seat, action);
  if (!applied.ok) throw new Error(`${seat} ${action.type}: ${applied.error.code} ${applied.error.message}`);
  return applied.value;
}

/** Applies an action that must be refused; returns the refusal. */
export function refused(state: GameState, seat: Side, action: GameAction) {
  const applied = applyAction(state, seat, action);
  if (applied.ok) throw new Error(`${seat} ${action.type} was accepted`);
  return applied.error;
}

export interface Choices {
  /** Chance to double when allowed. */
  readonly double?: number;
  /** Chance to take (else drop) an offer; beaver / raccoon when allowed at the same chance. */
  readonly take?: number;
  readonly beaver?: number;
}

/** One seeded step of a game: the action a player picks among the allowed ones, with seeded dice. */
export function pickAction(applied: Applied, random: SeededRandom, choices: Choices = {}): { seat: Side; action: GameAction } {
  const { state, allowed } = applied;
  const expects = state.expects!;
  const seat = expects.seat;
  const mine = allowed[seat];
  const die = () => 1 + Math.floor(random.next() * 6);
  if (mine.includes('roll-off')) return { seat, action: { type: 'roll-off', dice: [die(), die()] } };
  if (mine.includes('next-game')) return { seat, action: { type: 'next-game' } };
  if (mine.includes('double') && random.next() < (choices.double ?? 0)) return { seat, action: { type: 'double' } };
  if (mine.includes('roll')) return { seat, action: { type: 'roll', dice: [die(), die()] } };
  if (mine.includes('raccoon') && random.next() < (choices.beaver ?? 0)) return { seat, action: { type: 'raccoon' } };
  if (mine.includes('beaver') && random.next() < (choices.beaver ?? 0)) return { seat, action: { type: 'beaver' } };
  if (mine.includes('take')) return { seat, action: { type: random.next() < (choices.take ?? 0.8) ? 'take' : 'drop' } };
  if (mine.includes('play')) {
    const play = expectedPlay(state);
    if (!play.ok || !play.value) throw new Error(`no play: ${JSON.stringify(play)}`);
    const turns = play.value.turns;
    const turn = turns[Math.floor(random.next() * turns.length)];
    return { seat, action: { type: 'play', play: { steps: turn.view.steps } } };
  }
  throw new Error(`nothing to do for ${seat}: ${JSON.stringify(allowed)}`);
}
