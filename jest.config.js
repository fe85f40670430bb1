/*
 * Three tiers of tests, as Jest projects (`npx jest --selectProjects unit`):
 *
 * - unit:   the pure core and the services over fakes — no server, no child
 *           process, no compiler, no network, no Redis. `npm run test:unit`.
 * - http:   the real app in process (createApp + supertest), over fakes.
 * - system: everything else — processes, Redis, the browser, the container,
 *           the training scripts, compiles of the packages.
 *
 * A test file is classified by the path lists below; any file that matches
 * neither the unit nor the http list is a system test, so a new file is never
 * left out (scripts/build/check-tiers.mjs, run by npm test, checks that every
 * file is in exactly one tier).
 */

/** Unit-tier files and directories (paths under test/; a directory takes every file below it). */
const UNIT = [
  'engine/game/',
  'engine/long/',
  'engine/scoring/',
  'engine/short/',
  'eval/bearoff.test.ts',
  'eval/cube.test.ts',
  'eval/cube-oracle.test.ts',
  'eval/evaluator.property.test.ts',
  'eval/fake-and-analysis.test.ts',
  'eval/prune.test.ts',
  'eval/race.test.ts',
  'eval/search.test.ts',
  'eval/self-play.test.ts',
  'eval/transpositions.test.ts',
  'eval/neural/committed.test.ts',
  'eval/neural/distill.test.ts',
  'eval/neural/encoding.test.ts',
  'eval/neural/evaluator.property.test.ts',
  'eval/neural/format.test.ts',
  'eval/neural/incremental.test.ts',
  'eval/neural/kernel.test.ts',
  'eval/neural/kernel-encoding.test.ts',
  'eval/neural/network.test.ts',
  'eval/neural/reproducible.test.ts',
  'eval/neural/rollout.test.ts',
  'eval/neural/training.test.ts',
  'diagram/',
  'docs/error-table.test.ts',
  'docs/limits.test.ts',
  'docs/openapi-statuses.test.ts',
  'http/contract-types.test.ts',
  'http/graphql-inputs.test.ts',
  'http/rate-limit-store.test.ts',
  'scripts/engines.test.ts',
  'service/analysis-data.test.ts',
  'service/analysis-presets.test.ts',
  'service/fairness.test.ts',
  'service/match-analysis.test.ts',
  'service/sessions-allowed.test.ts',
  'service/sessions-reducer.test.ts',
];

/** HTTP-tier files and directories: the app in process, no Redis, no child process. */
const HTTP = [
  'docs/readme-diagram.test.ts',
  'docs/readme-examples.test.ts',
  'http/',
  'service/analysis-pool.test.ts',
  'service/sessions-events.test.ts',
  'service/sessions-graphql.test.ts',
  'service/sessions-rest.test.ts',
];

/** HTTP-tier paths that belong to the system tier after all (they start processes or need Redis). */
const HTTP_EXCEPT = ['http/production.test.ts', 'http/shutdown.test.ts'];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const TEST = escape(`${__dirname}/test/`);
/** A path entry as a regular expression: a directory takes every test file below it. */
const entry = (path) => (path.endsWith('/') ? `${escape(path)}.*\\.test\\.ts` : escape(path));
/** A regular expression for a test file at or below one of `paths` and at none of `except`. */
const tier = (paths, except = []) =>
  `^${TEST}${except.length ? `(?!(${except.map(entry).join('|')})$)` : ''}(${paths.map(entry).join('|')})$`;
const unit = tier(UNIT);
// A unit file under an HTTP directory stays a unit test.
const http = tier(HTTP, [...HTTP_EXCEPT, ...UNIT]);

const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

const common = { testEnvironment: 'node', rootDir: __dirname, roots: ['<rootDir>/test'], transform, setupFilesAfterEnv: ['<rootDir>/test/support/timeout.ts'] };
/** A tier's timeout per test, set by test/support/timeout.ts (Jest's testTimeout is global, not per project). */
const timeout = (ms) => ({ globals: { testTimeoutMs: ms } });

/** @type {import('jest').Config} */
module.exports = {
  // Both cores of a two-core machine: the parent process mostly waits on its workers.
  maxWorkers: '100%',
  projects: [
    { ...common, ...timeout(15_000), displayName: 'unit', testRegex: [unit] },
    { ...common, ...timeout(60_000), displayName: 'http', testRegex: [http] },
    {
      ...common,
      ...timeout(180_000),
      displayName: 'system',
      testRegex: ['\\.test\\.ts$'],
      testPathIgnorePatterns: ['/node_modules/', unit, http],
      // Builds dist/ once (when a source is newer than the last build) for the tests that start `node dist/...`.
      globalSetup: '<rootDir>/test/support/build.ts',
    },
  ],
};
