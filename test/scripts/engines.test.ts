import { readFileSync } from 'fs';
import { resolve } from 'path';
import semver from 'semver';

/*
 * The Node.js versions the project supports are said once in package.json
 * `engines`; the container image, the client package and every production
 * dependency in the lockfile must agree with it (an install on a supported
 * Node then prints no engine warning for them).
 */

const ROOT = resolve(__dirname, '../..');
const read = (path: string): string => readFileSync(resolve(ROOT, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean; engines?: { node?: string } | string[] }> };
const supported = pkg.engines.node;
/** The oldest release of each supported line, and this machine's. */
const floors = [...supported.split('||').map((range) => semver.minVersion(range.trim())!.version), process.versions.node];

describe('supported Node.js versions', () => {
  it('include the Node.js that runs the tests', () => {
    expect(semver.satisfies(process.versions.node, supported)).toBe(true);
  });

  it('include the image of the Dockerfile', () => {
    const images = [...read('Dockerfile').matchAll(/^FROM node:(\d+)/gm)].map((m) => `${m[1]}.0.0`);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(semver.satisfies(image, supported)).toBe(true);
  });

  it('are the client package\u2019s', () => {
    expect((JSON.parse(read('packages/client/package.json')) as { engines: { node: string } }).engines.node).toBe(supported);
  });

  it('are supported by every production dependency of the lockfile', () => {
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = !entry.dev && entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (!path || !range) continue;
      for (const version of floors) if (!semver.satisfies(version, range)) refusing.push(`${path} wants node ${range}, not ${version}`);
    }
    expect(refusing).toEqual([]);
  });
});
