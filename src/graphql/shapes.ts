import { Field, Float, Int, ObjectType } from 'type-graphql';

/* Shapes that several GraphQL answer types share, written once. */

/** The GraphQL type of a field, as `@Field` takes it. */
type FieldType = () => object;

/** An object type with one value per seat, `white` and `black` (COM-4). */
export function perSideType<T>(name: string, of: FieldType, description?: string) {
  @ObjectType(name, description === undefined ? {} : { description })
  class PerSide {
    @Field(of)
    white!: T;
    @Field(of)
    black!: T;
  }
  return PerSide;
}

export const Pips = perSideType<number>('Pips', () => Int);
export type Pips = InstanceType<typeof Pips>;

@ObjectType({ description: 'Outcome probabilities of one side.' })
export class Probabilities {
  @Field(() => Float)
  win!: number;
  @Field(() => Float)
  winMars!: number;
  @Field(() => Float)
  winKoks!: number;
  @Field(() => Float)
  loseMars!: number;
  @Field(() => Float)
  loseKoks!: number;
}

/** A class a mixin can extend: TypeScript asks mixin bases for `any[]` constructor arguments. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Extendable = abstract new (...args: any[]) => object;

/**
 * The fields of a rollout estimate (probabilities, their standard errors,
 * equity, trials, how it stopped) after the fields of `Base`.
 */
export function withRolloutEstimate<B extends Extendable>(Base: B, name: string, stoppedBy?: { description: string }) {
  @ObjectType(name)
  abstract class RolloutEstimateFields extends Base {
    @Field(() => Probabilities)
    probabilities!: Probabilities;
    @Field(() => Probabilities)
    standardErrors!: Probabilities;
    @Field(() => Float)
    equity!: number;
    @Field(() => Float)
    equityStandardError!: number;
    @Field(() => Int)
    trials!: number;
    @Field(() => Int)
    truncatedTrials!: number;
    @Field(() => String, stoppedBy)
    stoppedBy!: string;
  }
  return RolloutEstimateFields;
}
