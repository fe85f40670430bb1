import { ValidateFunction } from 'ajv/dist/2020';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Int } from 'type-graphql';
import { contract, issueOfErrors } from '../contract/openapi';
import { refusalBody } from '../contract/refusal';
import { components } from '../contract/schema';
import { ServiceError } from '../service/errors';
import { inputType, optional } from './build';
import { VariantNameEnum } from './enums';
import { BoardInput, SideCheckersInput, restSideCheckers } from './position';

/** The request schemas of openapi.yaml as TypeScript types. */
export type Schemas = components['schemas'];

export const StepInput = inputType('StepInput', { from: Int, to: Int }, "A step in the mover's own numbering (0 = off, 25 = bar).");

/** The fields every query names its game by: a variant and overrides of its options. */
export const VariantInput = inputType(
  'VariantInput',
  { variant: VariantNameEnum, rules: optional(GraphQLJSONObject, 'Overrides of the variant options.') },
  'A variant and overrides of its options (the base of the query inputs).',
);

/** A variant and a position given as JSON, as a position ID, or (backgammon) as gnubg IDs. */
export const PositionInput = inputType(
  'PositionInput',
  {
    position: optional(BoardInput, 'The position, typed (points as a list of {point, checkers}).'),
    positionId: optional(String),
    matchId: optional(String, 'Short nardy: a gnubg Match ID carrying the side on roll and the dice.'),
  },
  { description: 'A variant and a position (the base of the position queries).', extends: VariantInput },
);

export const MovesInput = inputType('MovesInput', { dice: optional([Int]) }, { description: 'A position (or its ID) and dice; the same fields as POST /v1/moves.', extends: PositionInput });
export type MovesInput = InstanceType<typeof MovesInput>;

export const ValidateInput = inputType(
  'ValidateInput',
  { steps: optional([StepInput]), notation: optional(String) },
  { description: 'A proposed play: steps or notation; the same fields as POST /v1/moves/validate.', extends: MovesInput },
);
export type ValidateInput = InstanceType<typeof ValidateInput>;

/** `at` and a member of it as one field path (`position` + `white` → `position.white`; `` + `dice` → `dice`). */
const member = (at: string, key: string): string => (at ? `${at}.${key}` : key);

/**
 * A GraphQL input as JSON: an input object's null fields mean "absent"; JSON
 * scalars are kept as sent; a typed position's sides become REST's (`points`
 * keyed by point). `at` is the value's field path as REST names it (`position.white`).
 */
function asJson(value: unknown, at: string): unknown {
  if (Array.isArray(value)) return value.map((item, i) => asJson(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value) as object | null;
  // type-graphql hands input objects over as instances of their classes; JSON scalars are plain objects.
  if (prototype === Object.prototype || prototype === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined && field !== null) out[key] = asJson(field, member(at, key));
  }
  if (value instanceof SideCheckersInput) return restSideCheckers(out as { points: { point: number; checkers: number }[] }, at);
  return out;
}

/**
 * Fails as REST does for the same mistake: the code by field, and the field
 * as REST's answer names it (`dice[0]`, `notation`), not under the GraphQL
 * argument's name, so a schema refusal and a rule refusal of one field (the
 * rules name fields of the request: `notation`, `position.white.points.24`)
 * name it alike. `at` is where the checked value sits in the REST request.
 */
function refuse(validate: ValidateFunction, at: string): never {
  throw new ServiceError(refusalBody(issueOfErrors(validate.errors!, ''), at));
}

/**
 * A GraphQL input checked once against the openapi.yaml request schema it
 * mirrors (the same compiled validator as REST), as that request's type.
 * `at` is the input's field path in the REST request ('' = the whole body).
 */
export function request<N extends keyof Schemas>(name: N, input: object, at = ''): Schemas[N] {
  const json = asJson(input, at);
  const validate = contract().schema(name);
  if (!validate(json)) refuse(validate, at);
  return json as Schemas[N];
}

/**
 * A GraphQL input checked against the query parameters (or headers) of a REST
 * operation (`diagram` mirrors GET /v1/diagram), as the query after validation
 * (integers as numbers, defaults filled in).
 */
export function parameters(operationId: string, part: 'query' | 'headers', input: object): Record<string, unknown> {
  const json = asJson(input, '') as Record<string, unknown>;
  const validate = contract().parameters(operationId, part);
  if (!validate(json)) refuse(validate, '');
  return json;
}
