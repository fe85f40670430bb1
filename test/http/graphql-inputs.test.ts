import { readFileSync } from 'fs';
import { resolve } from 'path';
import { GraphQLInputObjectType, GraphQLInputType, buildSchema, isInputObjectType, isListType, isNonNullType } from 'graphql';
import { spec } from '../support/contract';

/*
 * Every GraphQL input type mirrors a request of openapi.yaml and is checked
 * against that request's compiled schema (src/graphql/inputs.ts). Here their
 * fields are held to the schema's: the same names, a field non-null exactly
 * when the schema requires it, a list exactly when the schema has an array.
 */

const sdl = buildSchema(readFileSync(resolve(__dirname, '../../schema/schema.graphql'), 'utf8'));

type Schema = { $ref?: string; allOf?: Schema[]; type?: string; properties?: Record<string, Schema>; required?: string[] };
type Parameter = { name: string; in: string; required?: boolean; schema: Schema; $ref?: string };

function at(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, token) => (node as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
}

/** A schema with its `$ref` (and a lone `allOf`, as `cube: {description, allOf: [CubeState]}`) followed. */
function resolved(schema: Schema): Schema {
  if (schema.$ref) return resolved(at(schema.$ref) as Schema);
  if (schema.allOf?.length === 1 && !schema.type && !schema.properties) return resolved(schema.allOf[0]);
  return schema;
}

interface Shape {
  readonly fields: Map<string, { required: boolean; list: boolean }>;
}

function shapeOfSchema(pointer: string): Shape {
  const schema = resolved(at(pointer) as Schema);
  const required = new Set(schema.required ?? []);
  const fields = new Map<string, { required: boolean; list: boolean }>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) fields.set(name, { required: required.has(name), list: resolved(property).type === 'array' });
  return { fields };
}

/** The parameters of an operation (`in` query or header) as the fields of one object. */
function shapeOfParameters(path: string, method: string, where: 'query' | 'header', rename: Record<string, string> = {}): Shape {
  const fields = new Map<string, { required: boolean; list: boolean }>();
  const parameters = (spec.paths[path][method] as unknown as { parameters: Parameter[] }).parameters;
  for (const raw of parameters) {
    const p = raw.$ref ? (at(raw.$ref) as Parameter) : raw;
    if (p.in !== where) continue;
    fields.set(rename[p.name] ?? p.name, { required: p.required === true, list: resolved(p.schema).type === 'array' });
  }
  return { fields };
}

function shapeOfInput(type: GraphQLInputObjectType): Shape {
  const fields = new Map<string, { required: boolean; list: boolean }>();
  for (const field of Object.values(type.getFields())) {
    let t: GraphQLInputType = field.type;
    const required = isNonNullType(t);
    if (isNonNullType(t)) t = t.ofType;
    fields.set(field.name, { required, list: isListType(t) });
  }
  return { fields };
}

/** What each input mirrors, and the fields that differ by transport (each with its reason). */
const MIRRORS: Record<string, { shape: () => Shape; transport?: Record<string, string> }> = {
  MovesInput: { shape: () => shapeOfSchema('#/components/schemas/MovesRequest') },
  ValidateInput: { shape: () => shapeOfSchema('#/components/schemas/ValidateRequest') },
  StepInput: { shape: () => shapeOfSchema('#/components/schemas/Step') },
  ScoreInput: { shape: () => shapeOfSchema('#/components/schemas/ScoreRequest') },
  CubeInput: { shape: () => shapeOfSchema('#/components/schemas/CubeRequest') },
  EvaluateInput: { shape: () => shapeOfSchema('#/components/schemas/EvaluateRequest') },
  EvaluateBatchInput: { shape: () => shapeOfSchema('#/components/schemas/EvaluateBatchRequest') },
  BestMovesInput: { shape: () => shapeOfSchema('#/components/schemas/BestMovesRequest') },
  RolloutInput: { shape: () => shapeOfSchema('#/components/schemas/RolloutRequest') },
  RolloutJobInput: { shape: () => shapeOfSchema('#/components/schemas/RolloutJobRequest') },
  MatchAnalysisInput: { shape: () => shapeOfSchema('#/components/schemas/MatchAnalysisRequest') },
  CreateGameInput: { shape: () => shapeOfSchema('#/components/schemas/CreateGameRequest') },
  MatchInput: { shape: () => shapeOfSchema('#/components/schemas/CreateGameRequest/properties/match') },
  PlayInput: { shape: () => shapeOfSchema('#/components/schemas/PlayRequest') },
  ApplyGameStateInput: { shape: () => shapeOfSchema('#/components/schemas/ApplyGameStateRequest') },
  DiagramInput: {
    shape: () => shapeOfParameters('/v1/diagram', 'get', 'query'),
    transport: {
      dice: 'a list of two dice over GraphQL, the text `6,5` in a query string',
      format: 'GraphQL answers the SVG text; REST chooses SVG or PNG',
      position: 'a JSON position (checked against Position) has no query-string form',
      rules: 'rule overrides (an object) have no query-string form',
    },
  },
  BoardInput: { shape: () => shapeOfSchema('#/components/schemas/Position') },
  SideCheckersInput: {
    shape: () => shapeOfSchema('#/components/schemas/SideCheckers'),
    transport: { points: 'a list of {point, checkers} over GraphQL, an object keyed by point in JSON' },
  },
  // The entries of SideCheckers.points, which JSON writes as the members of an object.
  PointCheckersInput: { shape: () => ({ fields: new Map([['point', { required: true, list: false }], ['checkers', { required: true, list: false }]]) }) },
  FirstTurnInput: { shape: () => shapeOfSchema('#/components/schemas/Position/properties/firstTurn') },
  PendingStageInput: { shape: () => shapeOfSchema('#/components/schemas/PendingStage') },
  RollsPlayedInput: { shape: () => shapeOfSchema('#/components/schemas/Position/properties/rollsPlayed') },
  ActionOptions: { shape: () => shapeOfParameters('/v1/games/{id}/{action}', 'post', 'header', { 'If-Match': 'expectedVersion', 'Idempotency-Key': 'idempotencyKey' }) },
};

describe('GraphQL inputs and the openapi.yaml requests they mirror', () => {
  const inputs = Object.values(sdl.getTypeMap()).filter((t): t is GraphQLInputObjectType => isInputObjectType(t));

  it('gives every input type a mirror', () => {
    expect(inputs.length).toBeGreaterThan(10);
    expect(inputs.map((t) => t.name).filter((name) => !MIRRORS[name])).toEqual([]);
  });

  it.each(Object.keys(MIRRORS))('%s has the fields of its request: names, nullability, lists', (name) => {
    const type = sdl.getType(name);
    expect(type && isInputObjectType(type)).toBe(true);
    const mirror = MIRRORS[name];
    const transport = mirror.transport ?? {};
    const strip = (shape: Shape) => Object.fromEntries([...shape.fields].filter(([field]) => !(field in transport)));
    expect(strip(shapeOfInput(type as GraphQLInputObjectType))).toEqual(strip(mirror.shape()));
  });
});
