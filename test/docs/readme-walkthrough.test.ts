import { readFileSync } from 'fs';
import { resolve } from 'path';
import { listeningApp, runReadmeScript } from '../support/script';

/* The README's "Play a game with curl" walkthrough runs as printed, with bash, curl and node. */

const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
const section = readme.split('### Play a game with curl')[1] ?? '';
const script = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';

let served: Awaited<ReturnType<typeof listeningApp>>;
beforeAll(async () => {
  served = await listeningApp();
});
afterAll(() => served.close());

describe('README walkthrough', () => {
  it('is found', () => {
    expect(script).toContain('/v1/games');
  });

  it('runs to the end and prints what the README says', async () => {
    const run = await runReadmeScript(script, served.port);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(JSON.parse(lines[0])[1]).toEqual({ seat: 'white', action: 'play' });
    expect(JSON.parse(lines[1])).toEqual([3, { seat: 'black', action: 'roll' }]);
    expect(JSON.parse(lines[2])[0]).toBe(4);
    expect(lines[3]).toBe('roll play roll');
    expect(lines[4]).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(lines[5])).toEqual({ white: ['resign'], black: ['play', 'resign'] });
    expect(lines[6]).toBe('id: 3 id: 4 id: 5 event: end');
    expect(lines).toHaveLength(7);
  });
});
