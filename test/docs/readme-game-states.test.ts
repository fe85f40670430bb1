import { readFileSync } from 'fs';
import { resolve } from 'path';
import { listeningApp, runReadmeScript } from '../support/script';

/* The README's "A game server keeps the state" walkthrough runs as printed, with bash, curl and node. */

const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
const section = readme.split('### A game server keeps the state')[1] ?? '';
const script = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';

let served: Awaited<ReturnType<typeof listeningApp>>;
beforeAll(async () => {
  served = await listeningApp();
});
afterAll(() => served.close());

describe('README game-server walkthrough', () => {
  it('is found', () => {
    expect(script).toContain('/v1/game-states/apply');
  });

  it('runs to the end and prints what the README says', async () => {
    const run = await runReadmeScript(script, served.port);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      '{"seat":"white","action":"roll-off"}',
      '200',
      '[{"seat":"white","action":"play"},[5,2],8,"24/22 13/8"]',
      '200',
      '[{"seat":"black","action":"roll"},["roll","double","resign"]]',
      '403',
      'NOT_YOUR_TURN',
      '200',
      '200',
      '["black",1,{"white":0,"black":1},{"seat":"black","action":"next-game"}]',
    ]);
  });
});
