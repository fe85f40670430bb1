import { readFileSync } from 'fs';
import { resolve } from 'path';
import { emittedSchema } from '../../scripts/emit-schema';

describe('schema/schema.graphql', () => {
  it('is the SDL the resolvers emit (run `npm run schema` after changing them)', async () => {
    const committed = readFileSync(resolve(__dirname, '../../schema/schema.graphql'), 'utf8');
    expect(committed).toBe(await emittedSchema());
  });
});
