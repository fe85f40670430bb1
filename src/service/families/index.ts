import { RulesError } from '../../engine/errors';
import { LongRules } from '../../engine/long/rules';
import { LongState } from '../../engine/long/turn';
import { Result } from '../../engine/result';
import { Variant } from '../../engine/variants';
import { longFamily } from './long';
import { SessionFamily } from './types';

/**
 * A variant with its family adapter and effective rules. The service works
 * on `Bound` values so the family's rules and state types stay together.
 */
export interface Bound<R, S> {
  readonly variant: Variant;
  readonly family: SessionFamily<R, S> & {
    parseRules(base: Readonly<R>, overrides: unknown): Result<R, RulesError>;
    parseState(rules: R, body: Record<string, unknown>): Result<S, RulesError>;
  };
  readonly rules: R;
}

export type AnyBound = Bound<LongRules, LongState>;

/** Binds a variant to its family and applies the request's rule overrides (exhaustive over families). */
export function bind(variant: Variant, overrides: unknown): Result<AnyBound, RulesError> {
  switch (variant.family) {
    case 'long': {
      const rules = longFamily.parseRules(variant.rules, overrides);
      return rules.ok ? { ok: true, value: { variant, family: longFamily, rules: rules.value } } : rules;
    }
  }
}

/** Rebinds a stored session: its rules were checked when it was created. */
export function rebind(variant: Variant, rules: unknown): AnyBound {
  switch (variant.family) {
    case 'long':
      return { variant, family: longFamily, rules: rules as LongRules };
  }
}
