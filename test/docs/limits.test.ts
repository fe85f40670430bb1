import { readFileSync } from 'fs';
import { resolve } from 'path';
import { parse } from 'yaml';
import { readConfig } from '../../src/config';
import { ANALYSIS_LIMITS, JOB_LIMITS, SETTING_DEFAULTS } from '../../src/limits';

/*
 * src/limits.ts is the one place of the service's limits and defaults:
 * openapi.yaml (which the transports validate every request against) must
 * state the same maxima and defaults, the README's configuration table the
 * same defaults, and the configuration must read them from there.
 */

const root = resolve(__dirname, '../..');
interface Property {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxItems?: number;
  readonly minItems?: number;
  readonly maxLength?: number;
  readonly description?: string;
  readonly $ref?: string;
}
const schemas = (parse(readFileSync(resolve(root, 'openapi.yaml'), 'utf8')) as { components: { schemas: Record<string, { properties: Record<string, Property> } & Property> } })
  .components.schemas;
const property = (schema: string, name: string): Property => {
  const p = schemas[schema].properties[name];
  expect(p).toBeDefined();
  return p.$ref ? schemas[p.$ref.split('/').pop()!] : p;
};
/** The default a description states (`Default 360.`, `(default)` after the value of `0 = …`). */
const stated = (p: Property): number | undefined => {
  const m = /default:? (\d+)/i.exec(p.description ?? '') ?? /(\d+) = [^,;]*\(default\)/.exec(p.description ?? '');
  return m ? Number(m[1]) : undefined;
};

describe('openapi.yaml states the limits and defaults of src/limits.ts', () => {
  it('analysis requests', () => {
    expect(property('EvaluateRequest', 'plies').maximum).toBe(ANALYSIS_LIMITS.maxPlies);
    expect(stated(property('EvaluateRequest', 'plies'))).toBe(ANALYSIS_LIMITS.defaultPlies);
    expect(property('BestMovesRequest', 'plies').maximum).toBe(ANALYSIS_LIMITS.maxPlies);
    expect(stated(property('BestMovesRequest', 'plies'))).toBe(ANALYSIS_LIMITS.defaultBestPlies);
    expect(property('BestMovesRequest', 'plies').description).toContain(`${ANALYSIS_LIMITS.backgammonBestPlies} in backgammon`);
    expect(property('BestMovesRequest', 'limit').maximum).toBe(ANALYSIS_LIMITS.maxBestLimit);
    const positions = property('EvaluateBatchRequest', 'positions');
    expect([positions.minItems, positions.maxItems]).toEqual([1, ANALYSIS_LIMITS.maxBatch]);
    expect(property('RolloutRequest', 'trials').maximum).toBe(ANALYSIS_LIMITS.maxTrials);
    expect(stated(property('RolloutRequest', 'trials'))).toBe(ANALYSIS_LIMITS.defaultTrials);
    expect(property('RolloutRequest', 'timeBudgetMs').maximum).toBe(ANALYSIS_LIMITS.maxTimeBudgetMs);
    expect(stated(property('RolloutRequest', 'timeBudgetMs'))).toBe(ANALYSIS_LIMITS.defaultTimeBudgetMs);
    expect(property('RolloutRequest', 'truncateAfter').maximum).toBe(ANALYSIS_LIMITS.maxTruncateAfter);
    expect(property('RolloutRequest', 'seed').maximum).toBe(ANALYSIS_LIMITS.maxSeed);
  });

  it('job requests', () => {
    expect(property('RolloutJobRequest', 'trials').maximum).toBe(JOB_LIMITS.maxTrials);
    expect(stated(property('RolloutJobRequest', 'trials'))).toBe(JOB_LIMITS.defaultTrials);
    const budget = property('RolloutJobRequest', 'timeBudgetMs');
    expect([budget.minimum, budget.maximum]).toEqual([JOB_LIMITS.minTimeBudgetMs, JOB_LIMITS.maxTimeBudgetMs]);
    expect(stated(budget)).toBe(JOB_LIMITS.defaultTimeBudgetMs);
    expect(property('RolloutJobRequest', 'truncateAfter').maximum).toBe(ANALYSIS_LIMITS.maxTruncateAfter);
    expect(property('RolloutJobRequest', 'seed').maximum).toBe(ANALYSIS_LIMITS.maxSeed);
    expect(property('MatchAnalysisRequest', 'text').maxLength).toBe(JOB_LIMITS.maxFileLength);
    expect(property('MatchAnalysisRequest', 'plies').maximum).toBe(ANALYSIS_LIMITS.maxPlies);
  });
});

describe('the settings take their defaults from src/limits.ts', () => {
  /** GAME_TTL_SECONDS → gameTtlSeconds. */
  const keyOf = (variable: string): string => variable.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
  const table = new Map([...readme.matchAll(/^\| `([A-Z_]+)` \| `(\d+|[a-z-]+)`/gm)].map((m) => [keyOf(m[1]), /^\d+$/.test(m[2]) ? Number(m[2]) : m[2]]));

  it('in the configuration read from an empty environment', () => {
    const config = new Map<string, unknown>(Object.entries(readConfig({})));
    for (const [key, value] of Object.entries(SETTING_DEFAULTS)) expect({ key, value: config.get(key) }).toEqual({ key, value });
  });

  it("in the README's configuration table", () => {
    for (const [key, value] of Object.entries(SETTING_DEFAULTS)) expect({ key, value: table.get(key) }).toEqual({ key, value });
  });
});
