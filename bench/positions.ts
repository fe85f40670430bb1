import { EvaluateRequest } from '../src/contract/requests';
import { Dice } from '../src/engine/dice';
import { SeededRandom } from '../src/engine/random';
import { variantByName } from '../src/engine/variants';
import { bindOpaque as bind } from '../src/engine/family';

/** A position of a seeded self-play game as an API request body, with a roll for it. */
export interface Sample {
  readonly input: Pick<EvaluateRequest, 'variant' | 'position'>;
  readonly dice: Dice;
}

/** `count` positions before a roll from seeded random self-play of a variant. */
export function samples(variantName: string, count: number, seed: number): Sample[] {
  const variant = variantByName(variantName);
  if (!variant.ok) throw new Error(variant.error.message);
  const bound = bind(variant.value, undefined);
  if (!bound.ok) throw new Error(bound.error.message);
  const { family, rules } = bound.value;
  const random = new SeededRandom(seed);
  const out: Sample[] = [];
  let state = family.initial(rules, 'white');
  for (let step = 0; out.length < count && step < 100_000; step++) {
    if (family.winner(state)) state = family.initial(rules, 'white');
    const dice: Dice | undefined = family.needsDice(state) ? random.dice() : undefined;
    const legal = family.legal(rules, state, dice);
    if (!legal.ok) throw new Error(legal.error.message);
    if (dice && step % 7 === 3) out.push({ input: { variant: variantName, position: family.positionView(state) as EvaluateRequest['position'] }, dice: random.dice() });
    const turns = legal.value.turns;
    state = turns[random.below(turns.length)].state;
  }
  return out;
}

