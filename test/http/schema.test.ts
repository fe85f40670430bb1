import { readFileSync } from 'fs';
import { resolve } from 'path';
import { buildClientSchema, buildSchema, getIntrospectionQuery, IntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import request from 'supertest';
import { emittedSchema } from '../../scripts/build/schema';
import { testApp } from '../support/app';

const committed = (): string => readFileSync(resolve(__dirname, '../../schema/schema.graphql'), 'utf8');

describe('schema/schema.graphql', () => {
  it('is the SDL the resolvers emit (run `npm run schema` after changing them)', async () => {
    expect(committed()).toBe(await emittedSchema());
  });

  // What GraphiQL, code generators and Postman do: send graphql-js's standard introspection
  // query to the running server (at its default limits) and rebuild the schema from the answer.
  it('answers the standard introspection query at the default limits', async () => {
    const app = await testApp();
    const res = await request(app.app).post('/graphql').send({ query: getIntrospectionQuery() });
    await app.close();
    expect(res.body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('is the schema the live server describes to the introspection query with every option', async () => {
    const app = await testApp();
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });
    const res = await request(app.app).post('/graphql').send({ query });
    await app.close();
    expect(res.body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    const live = printSchema(lexicographicSortSchema(buildClientSchema(res.body.data as IntrospectionQuery)));
    expect(live).toBe(printSchema(lexicographicSortSchema(buildSchema(committed()))));
  });
});
