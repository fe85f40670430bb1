import { isDeepStrictEqual } from 'util';

/*
 * Hot-loop forms of Jest's `toEqual` and `toBe`, for tests that check an
 * invariant at every state of thousands of states. A Jest matcher call
 * costs an Error (for its stack) and a generic walk of both values, which
 * was a third of the CPU time of such tests. Values that are deep-strictly
 * equal (node:util, stricter than toEqual: same prototypes, no undefined
 * property skipped) are equal under toEqual, and Object.is is what toBe
 * compares, so those pass without the matcher; anything else goes to the
 * very same matcher, which then fails with its usual message (or passes,
 * for values toEqual takes as equal and util does not).
 */

/** `expect(actual).toEqual(expected)`, without the matcher's cost when the two are deep-strictly equal. */
export function expectEqual(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}

/** `expect(actual).toBe(expected)`, without the matcher's cost when Object.is holds. */
export function expectBe(actual: unknown, expected: unknown): void {
  if (!Object.is(actual, expected)) expect(actual).toBe(expected);
}
