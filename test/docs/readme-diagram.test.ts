import { readFileSync } from 'fs';
import { resolve } from 'path';
import { PNG } from 'pngjs';
import request from 'supertest';
import { App } from '../../src/http/app';
import { testApp } from '../support/app';

/*
 * The README's diagram example draws the picture committed beside it: the
 * curl URL is replayed and the PNG compared with docs/ pixel by pixel
 * (allowing a few anti-aliasing differences between CPUs).
 */

const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
const example = /curl -s '(localhost:3000\/v1\/diagram\?[^']+)' > board\.png/.exec(readme);
const picture = /!\[[^\]]*\]\((docs\/diagram-[^)]+\.png)\)/.exec(readme);

let app: App;
beforeAll(async () => {
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

describe('README diagram', () => {
  it('is found with its picture', () => {
    expect(example).not.toBeNull();
    expect(picture).not.toBeNull();
  });

  it('draws the committed picture', async () => {
    const path = (example as RegExpExecArray)[1].replace('localhost:3000', '');
    const res = await request(app.app).get(path).buffer(true);
    expect(res.status).toBe(200);
    const drawn = PNG.sync.read(res.body as Buffer);
    const committed = PNG.sync.read(readFileSync(resolve(__dirname, '../..', (picture as RegExpExecArray)[1])));
    expect([drawn.width, drawn.height]).toEqual([committed.width, committed.height]);
    let differing = 0;
    for (let i = 0; i < drawn.data.length; i += 4) {
      const delta = Math.max(...[0, 1, 2, 3].map((k) => Math.abs(drawn.data[i + k] - committed.data[i + k])));
      if (delta > 8) differing++;
    }
    expect(differing / (drawn.width * drawn.height)).toBeLessThan(0.01);
  });
});
