import { Arg, Field, InputType, Int, Query, Resolver } from 'type-graphql';
import { diagramSvgNow } from '../service/diagram';
import { PositionInput, parameters, request } from './inputs';

@InputType({ description: 'A position to draw and how; the same fields as GET /v1/diagram (without format).' })
export class DiagramInput extends PositionInput {
  @Field(() => String, { nullable: true, description: 'Backgammon: an XGID (instead of positionId).' })
  xgid?: string;

  @Field(() => [Int], { nullable: true })
  dice?: number[];

  @Field(() => String, { nullable: true, description: "A play in notation (mover's numbering), drawn as arrows." })
  move?: string;

  @Field(() => String, { nullable: true, description: 'white or black: the side seen at the bottom (default: the side to move).' })
  orientation?: string;

  @Field(() => Int, { nullable: true, description: 'Width in pixels, 160..2000 (default 600).' })
  size?: number;

  @Field(() => String, { nullable: true, description: 'light (default) or dark.' })
  theme?: string;

  @Field(() => String, { nullable: true, description: "white, black or none: point numbers in that side's own numbering." })
  labels?: string;
}

@Resolver()
export class DiagramResolver {
  @Query(() => String, { description: 'The board diagram as SVG text, as GET /v1/diagram.' })
  diagram(@Arg('input', () => DiagramInput) input: DiagramInput): string {
    // GET /v1/diagram takes the dice as text (`6,5`).
    const { dice, ...rest } = input;
    // A JSON position has no query-string form; it is checked against the same Position schema as REST bodies.
    if (rest.position) request('Position', rest.position, 'input.position');
    return diagramSvgNow(parameters('diagram', 'query', dice ? { ...rest, dice: dice.join(',') } : rest));
  }
}
