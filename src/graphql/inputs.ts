import { ArrayMaxSize, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: "A step in the mover's own numbering (0 = off, 25 = bar)." })
export class StepInput {
  @Field(() => Int)
  @IsInt()
  @Min(0)
  @Max(25)
  from!: number;

  @Field(() => Int)
  @IsInt()
  @Min(0)
  @Max(25)
  to!: number;
}

/** The fields every query names its game by: a variant and overrides of its options. */
@InputType({ description: 'A variant and overrides of its options (the base of the query inputs).' })
export abstract class VariantInput {
  @Field(() => String)
  @IsString()
  @MaxLength(40)
  variant!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Overrides of the variant options.' })
  @IsOptional()
  rules?: Record<string, unknown>;
}

/** A variant and a position given as JSON, as a position ID, or (backgammon) as gnubg IDs. */
@InputType({ description: 'A variant and a position (the base of the position queries).' })
export abstract class PositionInput extends VariantInput {
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The JSON position of the README contract.' })
  @IsOptional()
  position?: Record<string, unknown>;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(80)
  positionId?: string;

  @Field(() => String, { nullable: true, description: 'Short nardy: a gnubg Match ID carrying the side on roll and the dice.' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  matchId?: string;
}

@InputType({ description: 'A position (or its ID) and dice; the same fields as POST /v1/moves.' })
export class MovesInput extends PositionInput {
  @Field(() => [Int], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(2)
  dice?: number[];
}

@InputType({ description: 'A proposed play: steps or notation; the same fields as POST /v1/moves/validate.' })
export class ValidateInput extends MovesInput {
  @Field(() => [StepInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(8)
  @ValidateNested()
  steps?: StepInput[];

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  notation?: string;
}

/** A GraphQL input as the plain JSON the service functions take (nulls mean "absent"). */
export function plain(input: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      out[key] = value.map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : v));
    } else out[key] = value;
  }
  return out;
}
