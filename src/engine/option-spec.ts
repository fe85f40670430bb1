import { RulesError, rulesError } from './errors';
import { Result, err, ok } from './result';

/**
 * One rules option of a family (SPEC §2, §3.8, §5.3, §5.6, §6): allowed
 * values, the rule it implements, and how to read a JSON override of it.
 * `GET /v1/variants` publishes the tables built from these.
 */
export interface OptionSpec {
  readonly key: string;
  readonly kind: 'enum' | 'integer' | 'boolean';
  readonly values?: readonly (string | number)[];
  readonly min?: number;
  readonly max?: number;
  readonly rule: string;
  readonly description: string;
  /** Accepted spellings that mean a canonical value (spec or oracle names). */
  readonly aliases?: Readonly<Record<string, string | number>>;
}

/** An option that takes one of `values` (or one of the `aliases` spellings). */
export function enumOption(
  key: string,
  values: readonly (string | number)[],
  rule: string,
  description: string,
  aliases?: Readonly<Record<string, string | number>>,
): OptionSpec {
  return aliases ? { key, kind: 'enum', values, rule, description, aliases } : { key, kind: 'enum', values, rule, description };
}

/** An option that takes an integer `min..max`. */
export function integerOption(key: string, min: number, max: number, rule: string, description: string): OptionSpec {
  return { key, kind: 'integer', min, max, rule, description };
}

/** An option that is on or off. */
export function booleanOption(key: string, rule: string, description: string): OptionSpec {
  return { key, kind: 'boolean', rule, description };
}

/** Reads one option value; `undefined` when it is not acceptable. */
export function readOptionValue(spec: OptionSpec, value: unknown): string | number | boolean | undefined {
  if (spec.kind === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (spec.kind === 'integer') {
    if (!Number.isInteger(value)) return undefined;
    const n = value as number;
    return n >= (spec.min ?? -Infinity) && n <= (spec.max ?? Infinity) ? n : undefined;
  }
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (spec.values?.includes(value)) return value;
  const alias = spec.aliases?.[String(value)];
  return alias !== undefined ? alias : undefined;
}

/** What an option takes, in words, for error messages. */
export function describeOption(spec: OptionSpec): string {
  if (spec.kind === 'boolean') return 'true or false';
  if (spec.kind === 'integer') return `an integer ${spec.min}..${spec.max}`;
  return `one of ${(spec.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
}

/** Is `v` a JSON object (not null, not an array)? */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How a family words the two ways an override can fail. */
export interface OverrideWording {
  readonly unknownKey: (key: string) => string;
  readonly badValue: (key: string, spec: OptionSpec) => string;
}

/**
 * Reads one override `key: value` against a family's option table: an
 * unknown key or a value outside the option's domain is INVALID_RULES
 * naming `field.key`.
 */
export function readOverride(
  byKey: ReadonlyMap<string, OptionSpec>,
  key: string,
  value: unknown,
  field: string,
  wording: OverrideWording,
): Result<string | number | boolean, RulesError> {
  const spec = byKey.get(key);
  const f = `${field}.${key}`;
  if (!spec) return err(rulesError('INVALID_RULES', wording.unknownKey(key), { field: f }));
  const v = readOptionValue(spec, value);
  if (v === undefined) return err(rulesError('INVALID_RULES', wording.badValue(key, spec), { field: f }));
  return ok(v);
}

/** The error for an override that is not an object. */
export function notAnOverrideObject(field: string): RulesError {
  return rulesError('INVALID_RULES', `${field} must be an object of option overrides`, { field });
}
