import { readFileSync } from 'fs';
import { resolve } from 'path';
import { parse as parseYaml } from 'yaml';
import { RULE_ERROR_CODES } from '../../src/engine/errors';
import { CUBE_ERROR_CODES } from '../../src/engine/scoring/cube-errors';
import { ERROR_CODES, ERROR_TABLE, cubeStatusOf } from '../../src/service/errors';

/*
 * The one error table (src/service/errors.ts) and the documents agree: every
 * code is in the README's error table under its status (rule errors in the
 * list of validation verdicts), every code the README names is in the
 * table, and the scoring operations declare every status a cube code answers.
 */

const ROOT = resolve(__dirname, '../..');
const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('### Errors'), readme.indexOf('## Configuration'));
const codesIn = (text: string): string[] => [...text.matchAll(/`([A-Z][A-Z_]+[A-Z])`/g)].map((m) => m[1]);

/** README table rows: the statuses of the first cell, the codes named in the second. */
const rows = section
  .split('\n')
  .filter((line) => /^\| \d/.test(line))
  .map((line) => {
    const [, statuses, codes] = line.split('|');
    return { statuses: statuses.split('/').map((s) => Number(s.trim())), codes: codesIn(codes) };
  });
const verdicts = codesIn(section.slice(section.indexOf('Validation verdicts')));
const documentedUnder = (code: string, status: number): boolean => rows.some((r) => r.statuses.includes(status) && r.codes.includes(code));

const rules: ReadonlySet<string> = new Set(RULE_ERROR_CODES);

describe('the error table', () => {
  it('has every code once, each documented in the README under its status', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    const missing: string[] = [];
    for (const code of ERROR_CODES) {
      const entry = ERROR_TABLE[code];
      if (rules.has(code)) {
        if (!verdicts.includes(code)) missing.push(`${code} (validation verdict)`);
        continue;
      }
      if (!documentedUnder(code, entry.status)) missing.push(`${code} ${entry.status}`);
      if (entry.asCubeRule && !documentedUnder(code, entry.asCubeRule.status)) missing.push(`${code} ${entry.asCubeRule.status} (cube)`);
    }
    expect(missing).toEqual([]);
  });

  it('names no code in the README error table that the table lacks', () => {
    const named = [...rows.flatMap((r) => r.codes), ...verdicts];
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((code) => !(code in ERROR_TABLE))).toEqual([]);
  });

  it('answers a cube refusal 400 for input and 422 for a rule, a double out of turn included (CUBE-2)', () => {
    expect(cubeStatusOf('INVALID_CUBE')).toBe(400);
    expect(cubeStatusOf('NOT_YOUR_TURN')).toBe(422);
    expect(ERROR_TABLE.NOT_YOUR_TURN.status).toBe(403);
  });

  it('is declared by the scoring operations of openapi.yaml: every status a cube code answers, and no 403', () => {
    const spec = parseYaml(readFileSync(resolve(ROOT, 'openapi.yaml'), 'utf8')) as { paths: Record<string, { post: { responses: Record<string, unknown> } }> };
    const statuses = [...new Set(CUBE_ERROR_CODES.map(cubeStatusOf))].map(String).sort();
    expect(statuses).toEqual(['400', '422']);
    for (const path of ['/v1/cube', '/v1/score']) {
      const declared = Object.keys(spec.paths[path].post.responses);
      expect({ path, missing: statuses.filter((s) => !declared.includes(s)) }).toEqual({ path, missing: [] });
      expect({ path, declares403: declared.includes('403') }).toEqual({ path, declares403: false });
    }
  });
});
