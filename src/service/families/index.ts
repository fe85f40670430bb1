import { RulesError } from '../../engine/errors';
import { LongRules } from '../../engine/long/rules';
import { LongState } from '../../engine/long/turn';
import { Result } from '../../engine/result';
import { ShortPosition } from '../../engine/short/position';
import { ShortRules } from '../../engine/short/rules';
import { Variant } from '../../engine/variants';
import { longFamily } from './long';
import { shortFamily } from './short';
import { ParsedState, SessionFamily } from './types';

/**
 * A variant with its family adapter and effective rules. The service works
 * on `Bound` values so the family's rules and state types stay together.
 */
export interface Bound<R, S> {
  readonly variant: Variant;
  readonly family: SessionFamily<R, S> & {
    parseRules(base: Readonly<R>, overrides: unknown): Result<R, RulesError>;
    parseState(rules: R, body: Record<string, unknown>): Result<ParsedState<S>, RulesError>;
  };
  readonly rules: R;
}

/**
 * A binding with its types erased for family-generic service code; the
 * family's methods are only ever called with its own rules and states.
 */
export type AnyBound = Bound<unknown, unknown>;

function erase<R, S>(bound: Bound<R, S>): AnyBound {
  return bound as unknown as AnyBound;
}

/** Binds a variant to its family and applies the request's rule overrides (exhaustive over families). */
export function bind(variant: Variant, overrides: unknown): Result<AnyBound, RulesError> {
  switch (variant.family) {
    case 'long': {
      const rules = longFamily.parseRules(variant.rules, overrides);
      return rules.ok ? { ok: true, value: erase<LongRules, LongState>({ variant, family: longFamily, rules: rules.value }) } : rules;
    }
    case 'short': {
      const rules = shortFamily.parseRules(variant.rules, overrides);
      return rules.ok ? { ok: true, value: erase<ShortRules, ShortPosition>({ variant, family: shortFamily, rules: rules.value }) } : rules;
    }
  }
}

/** Rebinds a stored session: its rules were checked when it was created. */
export function rebind(variant: Variant, rules: unknown): AnyBound {
  switch (variant.family) {
    case 'long':
      return erase<LongRules, LongState>({ variant, family: longFamily, rules: rules as LongRules });
    case 'short':
      return erase<ShortRules, ShortPosition>({ variant, family: shortFamily, rules: rules as ShortRules });
  }
}
