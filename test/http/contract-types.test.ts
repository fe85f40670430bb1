import { lstatSync, realpathSync } from 'fs';
import { resolve } from 'path';

/*
 * The server's request types (src/contract/schema.ts) are openapi-typescript's
 * output for openapi.yaml: a link to the client's generated file, which the
 * client tests hold to the document (`npm run client:types` rewrites it).
 */
describe('src/contract/schema.ts', () => {
  it('is the generated client schema, linked rather than copied', () => {
    const root = resolve(__dirname, '../..');
    const server = resolve(root, 'src/contract/schema.ts');
    expect(lstatSync(server).isSymbolicLink()).toBe(true);
    expect(realpathSync(server)).toBe(realpathSync(resolve(root, 'packages/client/src/schema.ts')));
  });
});
