import { readFileSync } from 'fs';
import { resolve } from 'path';
import { parse } from 'yaml';

/*
 * Every operation of openapi.yaml declares every status it can answer. What
 * an operation can answer follows from the order of the middleware in
 * src/http/app.ts and from what its service may refuse:
 *
 * - any operation: 500 (the error handler's answer to a failure);
 * - the API and GraphQL (behind the caller checks, not the probes and docs):
 *   401 (an unknown X-API-Key), 429 (RATE_LIMIT_MAX, the analysis budget),
 *   400 (the request checks against this document, or GraphQL's own);
 * - a POST: 413 (the body limit) and 415 (a body that is not JSON);
 * - an operation with a path parameter: 404 (nothing there);
 * - the sessions and the jobs: 503 (STORE_UNAVAILABLE, STORE_FULL);
 * - the analysis: 422 (ANALYSIS_TOO_COSTLY); the position analysis also 503
 *   (ANALYSIS_BUSY), and the strict ones 504 (ANALYSIS_TIMEOUT).
 *
 * The HTTP tests hold each answer they see to its declared status and schema
 * (src/http/validation.ts); this holds the statuses no test provokes.
 */

interface Operation {
  readonly requestBody?: unknown;
  readonly responses: Record<string, unknown>;
}
const document = parse(readFileSync(resolve(__dirname, '../../openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, Operation>> };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })),
);

/** Served before the caller checks (src/http/app.ts, useProbesAndDocs). */
const PROBES_AND_DOCS = new Set(['/health', '/ready', '/metrics', '/openapi.yaml', '/docs', '/board']);
const STORE = /^\/v1\/(games|analyses|rollouts)(\/|$)/;
const PRICED = new Set(['/v1/evaluate', '/v1/evaluate/batch', '/v1/moves/best', '/v1/rollout', '/v1/analyses', '/v1/rollouts']);
const POSITION_ANALYSIS = new Set(['/v1/evaluate', '/v1/evaluate/batch', '/v1/moves/best', '/v1/rollout']);
/** A strict request answers 504 when its budget runs out; a batch item's timeout is the item's own error. */
const STRICT = new Set(['/v1/evaluate', '/v1/moves/best', '/v1/rollout']);

function expected(path: string, method: string): string[] {
  const statuses = ['500'];
  if (!PROBES_AND_DOCS.has(path)) statuses.push('400', '401', '429');
  if (method === 'post') statuses.push('413', '415');
  if (path.includes('{')) statuses.push('404');
  if (STORE.test(path)) statuses.push('503');
  if (PRICED.has(path) && method === 'post') statuses.push('422');
  if (POSITION_ANALYSIS.has(path)) statuses.push('503');
  if (STRICT.has(path)) statuses.push('504');
  return [...new Set(statuses)].sort();
}

describe('openapi.yaml', () => {
  it('has the operations this check knows of', () => {
    expect(operations.length).toBeGreaterThan(30);
    for (const path of [...PROBES_AND_DOCS, ...PRICED]) expect({ path, documented: path in document.paths }).toEqual({ path, documented: true });
  });

  it.each(operations.map((o) => [o.name, o] as const))('%s declares every status it can answer', (_name, { path, method, op }) => {
    const declared = Object.keys(op.responses);
    expect({ missing: expected(path, method).filter((status) => !declared.includes(status)) }).toEqual({ missing: [] });
  });

  it('declares a request body for every POST (413 and 415 are about it)', () => {
    expect(operations.filter((o) => o.method === 'post' && !o.op.requestBody).map((o) => o.name)).toEqual([]);
  });
});
