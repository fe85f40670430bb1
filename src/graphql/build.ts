import 'reflect-metadata';
import { GraphQLScalarType } from 'graphql';
import { ArgsType, Field, InputType, ObjectType, registerEnumType } from 'type-graphql';

/*
 * GraphQL object, input and argument types built from field tables. A table
 * lists the fields in schema order, each as its GraphQL type (`Int`,
 * `String`, `[Step]`, a type built here) or as `optional(type)` /
 * `described(type, …)` for a nullable field or one with a description. The
 * builder applies type-graphql's own decorators (`ObjectType`, `InputType`,
 * `ArgsType`, `Field`) to a generated class, so the schema is what decorator
 * classes gave, and TypeScript reads each type's instance shape from the same
 * table: one declaration where a class needed a decorator and a property per
 * field.
 */

/** A type built here: type-graphql knows its fields from its metadata, TypeScript from `I`. */
export type Built<I = object> = new () => I;

/**
 * A GraphQL enum of REST strings: each value is the string the REST API
 * sends, its GraphQL name the same with `-` written `_` (GraphQL names allow
 * no hyphen: `crazy-gulbar` is `crazy_gulbar`). Resolvers and inputs see the
 * REST strings; the transport converts.
 */
export class EnumRef<V extends string = string> {
  readonly values: Readonly<Record<string, V>>;
  constructor(
    readonly name: string,
    list: readonly V[],
    description: string,
  ) {
    this.values = Object.fromEntries(list.map((value) => [value.replace(/-/g, '_'), value]));
    registerEnumType(this.values, { name, description });
  }
}

/** An enum type of these REST values (see EnumRef). */
export function enumType<const V extends string>(name: string, values: readonly V[], description: string): EnumRef<V> {
  return new EnumRef(name, values, description);
}

/** A field's GraphQL type as a table names it: a scalar, an enum, a built type, or a list of one (`[Int]`, `[[Int]]`). */
export type Ref = StringConstructor | BooleanConstructor | GraphQLScalarType | EnumRef | Built | readonly [Ref];

/** A field with more to say than its type: nullable, or described. */
class FieldSpec<R extends Ref = Ref, N extends boolean = boolean> {
  constructor(
    readonly type: R,
    readonly nullable: N,
    readonly description?: string,
  ) {}
}

/** A nullable field (absent from an answer, or an input the caller may leave out). */
export function optional<const R extends Ref>(type: R, description?: string): FieldSpec<R, true> {
  return new FieldSpec(type, true, description);
}

/** A non-null field with a description. */
export function described<const R extends Ref>(type: R, description: string): FieldSpec<R, false> {
  return new FieldSpec(type, false, description);
}

/** The fields of a type, in schema order. */
export type Table = { readonly [field: string]: Ref | FieldSpec };

/** The TypeScript value of a GraphQL type; a JSON scalar (typed `any` by graphql-scalars) is `unknown`. */
type Value<R> = R extends StringConstructor
  ? string
  : R extends EnumRef
    ? string // the service's views name these as strings; GraphQL checks the values
  : R extends BooleanConstructor
    ? boolean
    : R extends GraphQLScalarType<infer T, unknown>
      ? 0 extends 1 & T
        ? unknown
        : T
      : R extends readonly [infer E]
        ? Value<E>[]
        : R extends Built<infer I>
          ? I
          : never;

type RefOf<F> = F extends FieldSpec<infer R> ? R : F;
type NullableKeys<T extends Table> = { [K in keyof T]: T[K] extends FieldSpec<Ref, true> ? K : never }[keyof T];

/** The instance shape a table gives: non-null fields required, nullable ones optional and possibly null. */
export type Shape<T extends Table> = {
  -readonly [K in Exclude<keyof T, NullableKeys<T>>]: Value<RefOf<T[K]>>;
} & {
  -readonly [K in NullableKeys<T>]?: Value<RefOf<T[K]>> | null;
};

/** A type's description, or its description and the built type whose fields come first. */
type About<B extends Built> = string | { readonly description?: string; readonly extends?: B };

/** The decorator that registers a class as an object, input or arguments type. */
type Register = (name: string, options: { description?: string }) => ClassDecorator;

/** What type-graphql's `Field` takes for a table's type (its `ReturnTypeFuncValue`). */
type FieldType = Parameters<typeof Field>[0] extends infer F ? (F extends (...args: never[]) => infer T ? T : never) : never;

/** A table's type as type-graphql's `Field` takes it: an enum as its registered values object. */
function graphqlTypeOf(ref: Ref): FieldType {
  if (ref instanceof EnumRef) return ref.values as FieldType;
  if (Array.isArray(ref)) return [graphqlTypeOf(ref[0] as Ref)] as FieldType;
  return ref as FieldType;
}

function build(register: Register, name: string, fields: Table, about: About<Built> = {}): Built {
  const { description, extends: Base } = typeof about === 'string' ? { description: about, extends: undefined } : about;
  // A subclass: type-graphql puts the fields of a registered superclass before the subclass's own.
  const Type: Built = Base ? class extends Base {} : class {};
  Object.defineProperty(Type, 'name', { value: name });
  for (const [key, field] of Object.entries(fields)) {
    const spec = field instanceof FieldSpec ? field : new FieldSpec(field, false);
    // `nullable` only when true, as the decorators were written: the options type-graphql stores stay the same.
    const type = graphqlTypeOf(spec.type);
    Field(() => type, { ...(spec.nullable ? { nullable: true } : {}), description: spec.description })(Type.prototype, key);
  }
  register(name, { description })(Type);
  return Type;
}

/** A GraphQL object type (an answer) from its field table. */
export function objectType<const T extends Table, B extends Built = Built>(name: string, fields: T, about?: About<B>) {
  // The class has no properties of its own at run time; its shape is the table's (as `!:` fields were before).
  return build(ObjectType, name, fields, about) as Built<InstanceType<B> & Shape<T>>;
}

/** A GraphQL input type (a query argument) from its field table. */
export function inputType<const T extends Table, B extends Built = Built>(name: string, fields: T, about?: About<B>) {
  return build(InputType, name, fields, about) as Built<InstanceType<B> & Shape<T>>;
}

/**
 * The arguments of a query or mutation from their table, in argument order
 * (`@Args`); `name` only names the class, as GraphQL has no name for them.
 */
export function argsType<const T extends Table>(name: string, fields: T) {
  return build(ArgsType, name, fields) as Built<Shape<T>>;
}

/** An object type with one value per seat, `white` and `black` (COM-4). */
export function perSideType<const R extends Ref>(name: string, of: R, description?: string) {
  return objectType(name, { white: of, black: of }, description);
}

/** A table shared by several types (spread into theirs), typed as one: lists stay lists (`[Int]`). */
export function fields<const T extends Table>(table: T): T {
  return table;
}
