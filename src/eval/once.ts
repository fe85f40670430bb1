/**
 * `build()` on the first call, the same value after: for tables that are
 * computed by a pure function and only read once built (the race crossing
 * tables, the default match equity table). Nothing else is kept.
 */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
