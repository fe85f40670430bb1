import { createHash } from 'crypto';
import { AnyBound, bindByName } from '../engine/family';
import { ServiceError, fail } from './errors';

/* Small helpers every service function uses to read a JSON request body. */

export type Body = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Body {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fails with `UNKNOWN_FIELD` (naming it, cut to 40 characters) on a key not in `allowed`. */
export function checkKeys(body: Body, allowed: readonly string[], prefix = ''): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      fail('UNKNOWN_FIELD', `unknown field ${prefix}${key.slice(0, 40)}`, { field: `${prefix}${key.slice(0, 40)}` });
    }
  }
}

/** Binds the variant a request names with its rule overrides, or throws the rules error as a service error. */
export function bindNamed(name: unknown, overrides: unknown): AnyBound {
  const bound = bindByName(name, overrides);
  if (!bound.ok) throw ServiceError.from(bound.error);
  return bound.value;
}

/** A stable short key of the effective rules, for cache keys. */
export function rulesHash(rules: unknown): string {
  return createHash('sha1').update(JSON.stringify(rules)).digest('hex').slice(0, 16);
}
