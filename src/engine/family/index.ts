import { RulesError } from '../errors';
import { LongRules } from '../long/rules';
import { LongState } from '../long/turn';
import { Result, ok } from '../result';
import { ShortPosition } from '../short/position';
import { ShortRules } from '../short/rules';
import { Variant, variantByName } from '../variants';
import { longFamily } from './long';
import { shortFamily } from './short';
import { GameFamily } from './types';

export * from './types';
export { longFamily, longNextView, longStageView, longTurnView, parseLongRequestState } from './long';
export { parseShortRequestState, shortFamily, shortTurnView } from './short';

/** A variant with its family and effective rules, at the family's own types. */
export interface Bound<R, S> {
  readonly variant: Variant;
  readonly family: GameFamily<R, S>;
  readonly rules: R;
}

export type LongBound = Bound<LongRules, LongState> & { readonly kind: 'long' };
export type ShortBound = Bound<ShortRules, ShortPosition> & { readonly kind: 'short' };
/** A binding of either family; `withFamily` opens it at its own types. */
export type AnyBound = LongBound | ShortBound;

/** Calls `f` with the binding at its family's rules and state types (exhaustive over families). */
export function withFamily<T>(bound: AnyBound, f: <R, S>(bound: Bound<R, S>) => T): T {
  switch (bound.kind) {
    case 'long':
      return f(bound);
    case 'short':
      return f(bound);
  }
}

/** Binds a variant to its family and applies a request's rule overrides (exhaustive over families). */
export function bind(variant: Variant, overrides: unknown): Result<AnyBound, RulesError> {
  switch (variant.family) {
    case 'long': {
      const rules = longFamily.parseRules(variant.rules, overrides);
      return rules.ok ? ok({ kind: 'long', variant, family: longFamily, rules: rules.value }) : rules;
    }
    case 'short': {
      const rules = shortFamily.parseRules(variant.rules, overrides);
      return rules.ok ? ok({ kind: 'short', variant, family: shortFamily, rules: rules.value }) : rules;
    }
  }
}

/** Binds the variant a request names (COM-1) with its rule overrides; the failure names its field. */
export function bindByName(name: unknown, overrides: unknown): Result<AnyBound, RulesError> {
  const variant = variantByName(name);
  return variant.ok ? bind(variant.value, overrides) : variant;
}

/** Rebinds stored rules: they were checked by `bind` when the game was created. */
export function rebind(variant: Variant, rules: unknown): AnyBound {
  switch (variant.family) {
    case 'long':
      return { kind: 'long', variant, family: longFamily, rules: rules as LongRules };
    case 'short':
      return { kind: 'short', variant, family: shortFamily, rules: rules as ShortRules };
  }
}

/** The same binding with the rules' cube option switched on or off (LN-SCORE-5). */
export function withCubeOption(bound: AnyBound, cube: boolean): AnyBound {
  switch (bound.kind) {
    case 'long':
      return { ...bound, rules: bound.family.withCube(bound.rules, cube) };
    case 'short':
      return { ...bound, rules: bound.family.withCube(bound.rules, cube) };
  }
}

/**
 * A binding whose state type is opaque: for callers that only hand the
 * family states it made itself back (self-play loops, fixtures).
 */
export type OpaqueBound = Bound<unknown, unknown>;

/** `bind` for callers that use the family through `OpaqueBound`. */
export function bindOpaque(variant: Variant, overrides: unknown): Result<OpaqueBound, RulesError> {
  const bound = bind(variant, overrides);
  return bound.ok ? ok(bound.value) : bound;
}
