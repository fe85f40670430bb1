/*
 * REST JSON and its GraphQL form, for tests that compare the transports: a
 * variant is the enum VariantName (`crazy-gulbar` written `crazy_gulbar`),
 * and a side's `points` is a list of {point, checkers} instead of an object
 * keyed by point.
 */

/** The selection of a whole typed position. */
export const POSITION_FIELDS = `position { turn white { points { point checkers } off bar } black { points { point checkers } off bar }
  firstTurn { white black } pending { actor origin units last } rollsPlayed { white black } }`;

type Json = unknown;

function map(value: Json, entry: (key: string, v: Json) => Json): Json {
  if (Array.isArray(value)) return value.map((v) => map(v, entry));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, entry(k, v)]));
}

/** A REST request as GraphQL variables. */
export function toGraphql(value: Json): Json {
  return map(value, (key, v) => {
    if (key === 'variant' && typeof v === 'string') return v.replace(/-/g, '_');
    if (key === 'points' && v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.entries(v).map(([point, checkers]) => ({ point: Number(point), checkers }));
    }
    return toGraphql(v);
  });
}

/** A GraphQL answer as REST writes it. */
export function fromGraphql(value: Json): Json {
  return map(value, (key, v) => {
    if (key === 'variant' && typeof v === 'string') return v.replace(/_/g, '-');
    if (key === 'points' && Array.isArray(v)) return Object.fromEntries(v.map((p: { point: number; checkers: number }) => [String(p.point), p.checkers]));
    return fromGraphql(v);
  });
}
