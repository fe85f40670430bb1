/*
 * Each tier's limit per test (jest.config.js gives it to the tier's
 * environment as `testTimeoutMs`; Jest's own testTimeout is one for the whole
 * run, not one per project). Jest's timeout catches a test that waits too
 * long; a test that computes too long without waiting is caught here by the
 * CPU time it used, which other jobs on the machine do not inflate.
 */
const limit = (globalThis as { testTimeoutMs?: unknown }).testTimeoutMs;
if (typeof limit !== 'number') throw new Error('jest.config.js gives every tier a testTimeoutMs');
jest.setTimeout(limit);

let started: NodeJS.CpuUsage | undefined;
beforeEach(() => {
  started = process.cpuUsage();
});
afterEach(() => {
  if (!started) return;
  const used = process.cpuUsage(started);
  const ms = (used.user + used.system) / 1000;
  if (ms > limit) throw new Error(`the test used ${Math.round(ms)} ms of CPU, more than its tier's ${limit} ms (jest.config.js)`);
});
