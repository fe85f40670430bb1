import { RulesError, rulesError } from '../errors';
import { OptionSpec, booleanOption, enumOption, integerOption, isPlainObject, notAnOverrideObject, readOverride } from '../option-spec';
import { Result, err, ok } from '../result';
import { ShortRules } from './rules';

/**
 * The options of the short family (SPEC §5.3, §5.6, §5.8): who starts, how a
 * game is scored, and the doubling cube. Published by `GET /v1/variants`,
 * applied by `parseShortOverrides`.
 */
export const SHORT_OPTIONS: readonly OptionSpec[] = [
  enumOption('openingRoll', ['useRollOffDice', 'rerollByWinner', 'fixedFirstSeat'], 'SH-START-1', 'the roll-off dice are the first move; the winner rolls again; or White starts'),
  enumOption('nextGameStarter', ['rollOff', 'previousWinner'], 'SH-START-2', 'who starts the next game of a match'),
  enumOption('scoring', ['standard', 'soviet'], 'SH-SCORE-1…3, §5.6', 'single / gammon / backgammon, or the Soviet 1/2/4/8'),
  booleanOption('cube', 'CUBE-1…4', 'the doubling cube is used'),
  booleanOption('jacoby', 'CUBE-5', 'money play: gammons count single until the cube is turned'),
  booleanOption('beaver', 'CUBE-5', 'money play: a doubled player may redouble at once, keeping the cube'),
  booleanOption('raccoon', 'CUBE-5', 'money play: the doubler may answer a beaver once more'),
  integerOption('automaticDoubles', 0, 6, 'CUBE-5', 'money play: how many times equal roll-off dice double the stake'),
  integerOption('cubeCap', 2, 4096, 'CUBE-1', 'the highest cube value (a power of two); absent or null for none'),
  booleanOption('crawford', 'CUBE-6', 'the Crawford rule in matches'),
];

const BY_KEY = new Map(SHORT_OPTIONS.map((o) => [o.key, o]));

const WORDING = {
  unknownKey: (key: string) => `unknown option ${key.slice(0, 40)} for this variant`,
  badValue: (key: string) => `${key} has a value this option does not take`,
};

/** Applies a JSON object of overrides to a short preset; unknown keys and bad values name their field. */
export function parseShortOverrides(base: Readonly<ShortRules>, input: unknown, field = 'rules'): Result<ShortRules, RulesError> {
  if (input === undefined) return ok({ ...base });
  if (!isPlainObject(input)) return err(notAnOverrideObject(field));
  // Each value is one its option's spec accepts, and the specs name only fields of ShortRules.
  const overrides: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'cubeCap' && value === null) {
      overrides.cubeCap = null;
      continue;
    }
    const read = readOverride(BY_KEY, key, value, field, WORDING);
    if (!read.ok) return read;
    const v = read.value;
    if (key === 'cubeCap' && ((v as number) & ((v as number) - 1)) !== 0) {
      return err(rulesError('INVALID_RULES', 'cubeCap must be a power of two (CUBE-1)', { field: `${field}.${key}` }));
    }
    overrides[key] = v;
  }
  return ok({ ...base, ...overrides });
}

/** The option values of a short rules object, for publication. */
export function shortOptionValues(rules: Readonly<ShortRules>): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const spec of SHORT_OPTIONS) out[spec.key] = rules[spec.key as keyof ShortRules] as string | number | boolean | null;
  return out;
}
