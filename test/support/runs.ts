/**
 * How many random cases a property test (fast-check's `numRuns`) or a
 * random-play test runs. `full` is the count CI runs: with CI=true, or
 * TEST_RUNS=full. Otherwise the inner loop runs a quarter of it, or
 * TEST_RUNS=<factor> times it (TEST_RUNS=0.1, TEST_RUNS=4), never fewer than
 * one. The seeds stay fixed, so every count is reproducible.
 */
export function runs(full: number): number {
  return Math.max(1, Math.round(full * runFactor()));
}

function runFactor(): number {
  const asked = process.env.TEST_RUNS;
  if (asked === 'full' || (asked === undefined && process.env.CI === 'true')) return 1;
  if (asked === undefined || asked === '') return 0.25;
  const factor = Number(asked);
  if (!Number.isFinite(factor) || factor <= 0) throw new Error(`TEST_RUNS must be "full" or a positive factor, not ${JSON.stringify(asked)}`);
  return factor;
}

/**
 * The cases of a large fixture a test walks: all of them when runs() gives
 * full counts, else every k-th (k = 1 / the factor, rounded), always the first.
 */
export function sampled<T>(items: readonly T[]): readonly T[] {
  const factor = runFactor();
  if (factor >= 1) return items;
  const stride = Math.max(1, Math.round(1 / factor));
  return items.filter((_, i) => i % stride === 0);
}
