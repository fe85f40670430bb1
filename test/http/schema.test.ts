import { readFileSync } from 'fs';
import { resolve } from 'path';
import { codegen } from '@graphql-codegen/core';
import * as typescriptPlugin from '@graphql-codegen/typescript';
import { buildClientSchema, buildSchema, getIntrospectionQuery, IntrospectionQuery, lexicographicSortSchema, parse, printSchema } from 'graphql';
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

describe('what a code generator reads from the live introspection', () => {
  it('types variant, side, action and the other closed sets as enums of the REST values', async () => {
    const app = await testApp();
    const res = await request(app.app).post('/graphql').send({ query: getIntrospectionQuery() });
    await app.close();
    const schema = buildClientSchema(res.body.data as IntrospectionQuery);
    const enumValues = (name: string) => {
      const type = schema.getType(name);
      expect(type?.constructor.name).toBe('GraphQLEnumType');
      return (type as unknown as { getValues(): { name: string }[] }).getValues().map((v) => v.name);
    };
    expect(enumValues('Side')).toEqual(['white', 'black']);
    expect(enumValues('VariantName')).toEqual(expect.arrayContaining(['long', 'crazy_gulbar', 'backgammon', 'short_soviet']));
    expect(enumValues('SessionAction')).toContain('next_game');
    for (const name of ['StageOrigin', 'NextKind', 'GameStatus', 'ExpectedAction', 'ResignLevel', 'CubeAction', 'CubeResponse', 'Family']) enumValues(name);
    const fieldType = (type: string, field: string) => {
      const t = schema.getType(type) as unknown as { getFields(): Record<string, { type: { toString(): string } }> };
      return t.getFields()[field].type.toString();
    };
    expect(fieldType('MovesInput', 'variant')).toBe('VariantName!');
    expect(fieldType('Stage', 'actor')).toBe('Side!');
    expect(fieldType('Game', 'allowed')).toBe('AllowedActions!');
    expect(fieldType('AllowedActions', 'white')).toBe('[SessionAction!]!');
    expect(fieldType('Expects', 'seat')).toBe('Side!');
  });

  it('types positions: a typed input and a typed answer, no JSON scalar', async () => {
    const app = await testApp();
    const res = await request(app.app).post('/graphql').send({ query: getIntrospectionQuery() });
    await app.close();
    const schema = buildClientSchema(res.body.data as IntrospectionQuery);
    const fieldType = (type: string, field: string) => (schema.getType(type) as unknown as { getFields(): Record<string, { type: { toString(): string } }> }).getFields()[field].type.toString();
    expect(fieldType('MovesInput', 'position')).toBe('BoardInput');
    expect(fieldType('BoardInput', 'turn')).toBe('Side!');
    expect(fieldType('BoardInput', 'white')).toBe('SideCheckersInput!');
    expect(fieldType('SideCheckersInput', 'points')).toBe('[PointCheckersInput!]!');
    expect(fieldType('Turn', 'position')).toBe('Position!');
    expect(fieldType('Game', 'position')).toBe('Position!');
    expect(fieldType('SideCheckers', 'points')).toBe('[PointCheckers!]!');
  });

  it('graphql-codegen (typescript plugin) on the live introspection writes enums for variant and side and a typed position input', async () => {
    const app = await testApp();
    const res = await request(app.app).post('/graphql').send({ query: getIntrospectionQuery() });
    await app.close();
    const schema = parse(printSchema(buildClientSchema(res.body.data as IntrospectionQuery)));
    const generated = await codegen({ schema, documents: [], config: {}, filename: 'graphql.ts', plugins: [{ typescript: {} }], pluginMap: { typescript: typescriptPlugin } });
    /** The body of one generated declaration, `export enum Name {...}` or `export type Name = {...}`. */
    const declaration = (kind: 'enum' | 'type', name: string): string => {
      const m = new RegExp(`export ${kind} ${name}(?: =)? \\{\\n([\\s\\S]*?)\\n\\}`).exec(generated);
      if (!m) throw new Error(`no ${kind} ${name} in the generated code`);
      return m[1];
    };
    expect(declaration('enum', 'Side')).toBe("  White = 'white',\n  Black = 'black'");
    expect(declaration('enum', 'VariantName')).toEqual(expect.stringContaining("Long = 'long',"));
    expect(declaration('enum', 'VariantName')).toEqual(expect.stringContaining("CrazyGulbar = 'crazy_gulbar',"));
    expect(declaration('enum', 'VariantName')).toEqual(expect.stringContaining("Backgammon = 'backgammon',"));
    const board = declaration('type', 'BoardInput');
    expect(board).toContain('  turn: Side;');
    expect(board).toContain('  white: SideCheckersInput;');
    expect(declaration('type', 'PointCheckersInput')).toMatch(/point: Scalars\['Int'\]\['input'\];/);
    const moves = declaration('type', 'MovesInput');
    expect(moves).toContain('  variant: VariantName;');
    expect(moves).toContain('  position?: InputMaybe<BoardInput>;');
    expect(declaration('type', 'Position')).toContain('turn: Side;');
  });
});
