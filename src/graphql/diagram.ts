import { ArrayMaxSize, IsIn, IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import { Arg, Field, InputType, Int, Query, Resolver } from 'type-graphql';
import { diagramSvgNow } from '../service/diagram';
import { PositionInput, plain } from './inputs';

@InputType({ description: 'A position to draw and how; the same fields as GET /v1/diagram (without format).' })
export class DiagramInput extends PositionInput {
  @Field(() => String, { nullable: true, description: 'Backgammon: an XGID (instead of positionId).' })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  xgid?: string;

  @Field(() => [Int], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(2)
  dice?: number[];

  @Field(() => String, { nullable: true, description: "A play in notation (mover's numbering), drawn as arrows." })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  move?: string;

  @Field(() => String, { nullable: true, description: 'white or black: the side seen at the bottom (default: the side to move).' })
  @IsOptional()
  @IsIn(['white', 'black'])
  orientation?: string;

  @Field(() => Int, { nullable: true, description: 'Width in pixels, 160..2000 (default 600).' })
  @IsOptional()
  @IsInt()
  size?: number;

  @Field(() => String, { nullable: true, description: 'light (default) or dark.' })
  @IsOptional()
  @IsIn(['light', 'dark'])
  theme?: string;

  @Field(() => String, { nullable: true, description: "white, black or none: point numbers in that side's own numbering." })
  @IsOptional()
  @IsIn(['white', 'black', 'none'])
  labels?: string;
}

@Resolver()
export class DiagramResolver {
  @Query(() => String, { description: 'The board diagram as SVG text, as GET /v1/diagram.' })
  diagram(@Arg('input', () => DiagramInput) input: DiagramInput): string {
    return diagramSvgNow(plain(input));
  }
}
