import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';

/*
 * GraphQL views of the service answers. They mirror the REST JSON field for
 * field; positions and rule overrides are JSON objects in both transports
 * (the contract of the README), everything else is typed.
 */

@ObjectType({ description: 'Liveness.' })
export class Health {
  @Field(() => String)
  status!: string;
}

@ObjectType({ description: 'One option of a variant, with its default in that preset.' })
export class VariantOption {
  @Field(() => String)
  key!: string;
  @Field(() => String, { description: 'enum, integer or boolean' })
  type!: string;
  @Field(() => [GraphQLJSON], { nullable: true })
  values?: (string | number)[];
  @Field(() => Int, { nullable: true })
  min?: number;
  @Field(() => Int, { nullable: true })
  max?: number;
  @Field(() => GraphQLJSON, { nullable: true })
  default!: string | number | boolean | null;
  @Field(() => String)
  rule!: string;
  @Field(() => String)
  description!: string;
}

@ObjectType({ description: 'A preset of the rules.' })
export class Variant {
  @Field(() => String)
  name!: string;
  @Field(() => String)
  family!: string;
  @Field(() => String)
  title!: string;
  @Field(() => String)
  russian!: string;
  @Field(() => String)
  description!: string;
  @Field(() => String)
  specSection!: string;
  @Field(() => [String])
  aliases!: string[];
  @Field(() => [VariantOption])
  options!: VariantOption[];
}

@ObjectType({ description: "One checker moved by one die-unit, in the mover's own numbering (0 = off, 25 = bar)." })
export class Step {
  @Field(() => Int)
  from!: number;
  @Field(() => Int)
  to!: number;
}

@ObjectType({ description: 'The stage being played (SPEC TM-1).' })
export class Stage {
  @Field(() => String)
  actor!: string;
  @Field(() => String, { description: 'roll, reroll, cascade or debt' })
  origin!: string;
  @Field(() => [Int])
  units!: number[];
  @Field(() => GraphQLJSON, { nullable: true, description: 'long family: a number, "unlimited" or "fevgaRunner"' })
  headAllowance?: number | string;
  @Field(() => Boolean, { nullable: true, description: 'long family: LN-HEAD-2 raised the head allowance' })
  firstTurnException?: boolean;
}

@ObjectType({ description: 'What follows a play.' })
export class Next {
  @Field(() => String, { description: 'turn, cascade, reroll, debt, roll or gameOver' })
  kind!: string;
  @Field(() => String, { nullable: true })
  actor!: string | null;
  @Field(() => [Int], { nullable: true })
  units?: number[];
  @Field(() => [[Int]], { nullable: true })
  stages?: number[][];
  @Field(() => String, { nullable: true })
  winner?: string;
}

@ObjectType({ description: 'One legal play and the position it leads to.' })
export class Turn {
  @Field(() => [Step])
  steps!: Step[];
  @Field(() => String)
  notation!: string;
  @Field(() => GraphQLJSONObject, { description: 'The JSON position of the README contract.' })
  position!: object;
  @Field(() => String, { description: 'Short nardy: the gnubg Position ID of the result, the opponent on roll; long: the position key.' })
  positionId!: string;
  @Field(() => Next)
  next!: Next;
}

/** The plays of a roll: the variant, the dice and the stage being played. */
@ObjectType()
export abstract class StagePlays {
  @Field(() => String)
  variant!: string;
  @Field(() => [Int], { nullable: true })
  dice!: number[] | null;
  @Field(() => Stage)
  stage!: Stage;
}

@ObjectType({ description: 'Every legal play of the current stage.' })
export class MovesResult extends StagePlays {
  @Field(() => Int)
  diceUsed!: number;
  @Field(() => Int)
  count!: number;
  @Field(() => [Turn])
  turns!: Turn[];
}

/** An error as every answer carries one: its stable code and a message. */
@ObjectType()
export abstract class ErrorFields {
  @Field(() => String)
  code!: string;
  @Field(() => String)
  message!: string;
}

@ObjectType({ description: 'The rule a proposed play breaks.' })
export class RuleViolation extends ErrorFields {
  @Field(() => Int, { nullable: true })
  stepIndex?: number;
  @Field(() => String, { nullable: true })
  rule?: string;
}

@ObjectType({ description: 'The verdict on a proposed play (or a prefix of one).' })
export class ValidationResult {
  @Field(() => Boolean)
  legal!: boolean;
  @Field(() => Boolean, { nullable: true })
  complete?: boolean;
  @Field(() => Stage)
  stage!: Stage;
  @Field(() => [Int], { nullable: true })
  remainingDice?: number[];
  @Field(() => [Step], { nullable: true })
  steps?: Step[];
  @Field(() => String, { nullable: true })
  notation?: string;
  @Field(() => GraphQLJSONObject, { nullable: true })
  position?: object;
  @Field(() => String, { nullable: true })
  positionId?: string;
  @Field(() => Next, { nullable: true })
  next?: Next;
  @Field(() => RuleViolation, { nullable: true })
  error?: RuleViolation;
}
