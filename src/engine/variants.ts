import { RulesError, rulesError } from './errors';
import { LONG_PRESETS, LongPresetName, LongRules } from './long/rules';
import { Result, err, ok } from './result';
import { SHORT_PRESETS, ShortPresetName, ShortRules } from './short/rules';

/**
 * The registry of playable variants: each name maps to a
 * family and a preset rules object. Spec preset names (`long.classic`,
 * `gulbarSeed`…) are accepted as aliases of the API names.
 */
export interface LongVariant {
  readonly family: 'long';
  readonly name: LongPresetName;
  readonly rules: Readonly<LongRules>;
  readonly title: string;
  readonly russian: string;
  readonly description: string;
  readonly specSection: string;
}

export interface ShortVariant {
  readonly family: 'short';
  readonly name: ShortPresetName;
  readonly rules: Readonly<ShortRules>;
  readonly title: string;
  readonly russian: string;
  readonly description: string;
  readonly specSection: string;
}

export type Variant = LongVariant | ShortVariant;
export type VariantName = Variant['name'];

const LONG_INFO: Record<LongPresetName, Omit<LongVariant, 'family' | 'name' | 'rules'>> = {
  long: {
    title: 'Long nardy (classic)',
    russian: 'Длинные нарды',
    description: 'Both sides move the same way round from their heads; no hitting; six-block rule; oin and mars.',
    specSection: '§2',
  },
  nardgammon: {
    title: 'Nardgammon',
    russian: 'Нардгаммон',
    description: 'Classic, but a six-block may not exist even for a moment during the turn.',
    specSection: '§3.1',
  },
  crazy: {
    title: 'Crazy nardy',
    russian: 'Бешеные',
    description: 'Doubles cascade up to 6-6; exact bear-off only, no home moves once all are home; unplayed doubles vanish.',
    specSection: '§3.2',
  },
  gulbar: {
    title: 'Gul-bara (seed rules)',
    russian: 'Гюльбар',
    description: 'A fully played double earns a re-roll; the unplayed units of a double become the opponent\'s debt.',
    specSection: '§3.3',
  },
  'crazy-gulbar': {
    title: 'Crazy Gul-bara',
    russian: 'Бешеный гюльбар',
    description: 'Doubles cascade up to 6-6; unplayable units become the opponent\'s debt; one extra bear-off stage.',
    specSection: '§3.4',
  },
  khachapuri: {
    title: 'Khachapuri (Tbilisi nardy)',
    russian: 'Хачапури (Тбилисские нарды)',
    description: 'Starts with 11 checkers on own point 6 and 4 on the head; unlimited head; Gul-bara dice; a stake per checker.',
    specSection: '§3.5',
  },
  fevga: {
    title: 'Fevga',
    russian: 'Февга',
    description: 'Greek long game: a first runner must pass the opponent\'s head; primes allowed except the starting quarter.',
    specSection: '§3.6',
  },
  giul: {
    title: 'Giul (crazy Fevga)',
    russian: 'Fevga бешеные (Гюль)',
    description: 'Fevga with the doubles cascade; unplayed units go to the opponent once the rolled double was started.',
    specSection: '§3.7',
  },
  'gulbara-intl': {
    title: 'Gul bara (international)',
    russian: 'Гюльбара (международная)',
    description: "Cascade from a player's 4th roll on; otherwise classic rules. Optional preset.",
    specSection: '§3.10',
  },
};

const SHORT_INFO: Record<ShortPresetName, Omit<ShortVariant, 'family' | 'name' | 'rules'>> = {
  backgammon: {
    title: 'Backgammon (short nardy)',
    russian: 'Короткие нарды',
    description: 'Standard backgammon: hitting, the bar, gammons and backgammons, the doubling cube; the roll-off dice are the first move.',
    specSection: '§5',
  },
  'short-soviet': {
    title: 'Short nardy, Soviet rules',
    russian: 'Короткие нарды (советские правила)',
    description: 'Backgammon movement; White starts; scoring 1/2/4/8 (§5.6); no cube.',
    specSection: '§5.1, §5.6',
  },
};

export const VARIANTS: readonly Variant[] = [
  ...(Object.keys(LONG_PRESETS) as LongPresetName[]).map(
    (name): LongVariant => ({ family: 'long', name, rules: LONG_PRESETS[name], ...LONG_INFO[name] }),
  ),
  ...(Object.keys(SHORT_PRESETS) as ShortPresetName[]).map(
    (name): ShortVariant => ({ family: 'short', name, rules: SHORT_PRESETS[name], ...SHORT_INFO[name] }),
  ),
];

const ALIASES: Readonly<Record<string, VariantName>> = {
  classic: 'long',
  'long.classic': 'long',
  'long.nardgammon': 'nardgammon',
  'long.crazy': 'crazy',
  gulbarSeed: 'gulbar',
  'long.gulbarSeed': 'gulbar',
  crazyGulbar: 'crazy-gulbar',
  'long.crazyGulbar': 'crazy-gulbar',
  'long.khachapuri': 'khachapuri',
  tbilisi: 'khachapuri',
  'long.fevga': 'fevga',
  fevgaCrazy: 'giul',
  'long.fevgaCrazy': 'giul',
  gulbaraIntl: 'gulbara-intl',
  'long.gulbaraIntl': 'gulbara-intl',
  short: 'backgammon',
  'short.standard': 'backgammon',
  soviet: 'short-soviet',
  'short.soviet': 'short-soviet',
};

const BY_NAME = new Map<string, Variant>(VARIANTS.map((v) => [v.name, v]));

/**
 * Names that mean more than one family, refused with the choices rather than
 * guessed: «нарды» alone means long nardy to most Russian speakers and short
 * nardy (backgammon) to others (scope of the spec: both are "nardy").
 */
const AMBIGUOUS: Readonly<Record<string, string>> = {
  nardy: '"nardy" names the whole family: send "long" for long nardy (длинные нарды) or "backgammon" for short nardy (короткие нарды); GET /v1/variants lists every preset',
};

/** Looks a variant up by its API name or a spec alias. */
export function variantByName(name: unknown, field = 'variant'): Result<Variant, RulesError> {
  if (typeof name !== 'string') {
    return err(rulesError('UNKNOWN_VARIANT', `${field} must be a string naming a variant (see GET /v1/variants)`, { field }));
  }
  if (Object.hasOwn(AMBIGUOUS, name)) return err(rulesError('UNKNOWN_VARIANT', AMBIGUOUS[name], { field }));
  const variant = BY_NAME.get(ALIASES[name] ?? name);
  if (!variant) {
    return err(rulesError('UNKNOWN_VARIANT', `unknown variant "${name.slice(0, 40)}"; see GET /v1/variants`, { field }));
  }
  return ok(variant);
}

export function variantAliases(name: VariantName): string[] {
  return Object.entries(ALIASES)
    .filter(([, v]) => v === name)
    .map(([k]) => k);
}
