import { readFileSync } from 'fs';
import { resolve } from 'path';
import { listeningApp, runReadmeScript } from '../support/script';

/*
 * The README's long-nardy example of "Analyse a match" runs as printed, with
 * bash, curl and node, against the real app with the committed networks,
 * and prints what the README says it prints.
 */

const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
const section = (readme.split('### Analyse a match')[1] ?? '').split('\n### ')[0];
const blocks = [...section.matchAll(/```(sh)?\n([\s\S]*?)\n```/g)];
const script = blocks.find((b) => b[1] === 'sh' && b[2].includes('LongNardy'))?.[2] ?? '';
const printed = blocks[blocks.findIndex((b) => b[2] === script) + 1]?.[2] ?? '';

let served: Awaited<ReturnType<typeof listeningApp>>;
beforeAll(async () => {
  served = await listeningApp();
});
afterAll(() => served.close());

describe('README: analyse a long-nardy match', () => {
  it('is found, with its printed answer', () => {
    expect(script).toContain('/v1/analyses');
    expect(printed).toMatch(/^1\) /);
  });

  it('runs to the end and prints what the README says', async () => {
    const run = await runReadmeScript(script, served.port);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(`event: done\n${printed}`);
  }, 60_000);
});
