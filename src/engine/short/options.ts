import { RulesError, rulesError } from '../errors';
import { OptionSpec, readOptionValue } from '../long/options';
import { Result, err, ok } from '../result';
import { ShortRules } from './rules';

/**
 * The options of the short family (SPEC §5.3, §5.6, §5.8): who starts, how a
 * game is scored, and the doubling cube. Published by `GET /v1/variants`,
 * applied by `parseShortOverrides`.
 */
export const SHORT_OPTIONS: readonly OptionSpec[] = [
  {
    key: 'openingRoll',
    kind: 'enum',
    values: ['useRollOffDice', 'rerollByWinner', 'fixedFirstSeat'],
    rule: 'SH-START-1',
    description: 'the roll-off dice are the first move; the winner rolls again; or White starts',
  },
  {
    key: 'nextGameStarter',
    kind: 'enum',
    values: ['rollOff', 'previousWinner'],
    rule: 'SH-START-2',
    description: 'who starts the next game of a match',
  },
  {
    key: 'scoring',
    kind: 'enum',
    values: ['standard', 'soviet'],
    rule: 'SH-SCORE-1…3, §5.6',
    description: 'single / gammon / backgammon, or the Soviet 1/2/4/8',
  },
  { key: 'cube', kind: 'boolean', rule: 'CUBE-1…4', description: 'the doubling cube is used' },
  { key: 'jacoby', kind: 'boolean', rule: 'CUBE-5', description: 'money play: gammons count single until the cube is turned' },
  { key: 'beaver', kind: 'boolean', rule: 'CUBE-5', description: 'money play: a doubled player may redouble at once, keeping the cube' },
  { key: 'raccoon', kind: 'boolean', rule: 'CUBE-5', description: 'money play: the doubler may answer a beaver once more' },
  {
    key: 'automaticDoubles',
    kind: 'integer',
    min: 0,
    max: 6,
    rule: 'CUBE-5',
    description: 'money play: how many times equal roll-off dice double the stake',
  },
  {
    key: 'cubeCap',
    kind: 'integer',
    min: 2,
    max: 4096,
    rule: 'CUBE-1',
    description: 'the highest cube value (a power of two); absent or null for none',
  },
  { key: 'crawford', kind: 'boolean', rule: 'CUBE-6', description: 'the Crawford rule in matches' },
];

const BY_KEY = new Map(SHORT_OPTIONS.map((o) => [o.key, o]));

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Applies a JSON object of overrides to a short preset; unknown keys and bad values name their field. */
export function parseShortOverrides(base: Readonly<ShortRules>, input: unknown, field = 'rules'): Result<ShortRules, RulesError> {
  if (input === undefined) return ok({ ...base });
  if (!isPlainObject(input)) return err(rulesError('INVALID_RULES', `${field} must be an object of option overrides`, { field }));
  // Each value is one its option's spec accepts, and the specs name only fields of ShortRules.
  const overrides: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(input)) {
    const spec = BY_KEY.get(key);
    const f = `${field}.${key}`;
    if (!spec) return err(rulesError('INVALID_RULES', `unknown option ${key.slice(0, 40)} for this variant`, { field: f }));
    if (key === 'cubeCap' && value === null) {
      overrides.cubeCap = null;
      continue;
    }
    const v = readOptionValue(spec, value);
    if (v === undefined) return err(rulesError('INVALID_RULES', `${key} has a value this option does not take`, { field: f }));
    if (key === 'cubeCap' && ((v as number) & ((v as number) - 1)) !== 0) {
      return err(rulesError('INVALID_RULES', 'cubeCap must be a power of two (CUBE-1)', { field: f }));
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
