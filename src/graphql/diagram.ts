import { Arg, Int, Query, Resolver } from 'type-graphql';
import { DiagramQuery } from '../contract/requests';
import { diagramSvgNow } from '../service/diagram';
import { inputType, optional } from './build';
import { PositionInput, parameters, request } from './inputs';

export const DiagramInput = inputType(
  'DiagramInput',
  {
    xgid: optional(String, 'Backgammon: an XGID (instead of positionId).'),
    dice: optional([Int]),
    move: optional(String, "A play in notation (mover's numbering), drawn as arrows."),
    orientation: optional(String, 'white or black: the side seen at the bottom (default: the side to move).'),
    size: optional(Int, 'Width in pixels, 160..2000 (default 600).'),
    theme: optional(String, 'light (default) or dark.'),
    labels: optional(String, "white, black or none: point numbers in that side's own numbering."),
  },
  { description: 'A position to draw and how; the same fields as GET /v1/diagram (without format).', extends: PositionInput },
);
export type DiagramInput = InstanceType<typeof DiagramInput>;

@Resolver()
export class DiagramResolver {
  @Query(() => String, { description: 'The board diagram as SVG text, as GET /v1/diagram.' })
  diagram(@Arg('input', () => DiagramInput) input: DiagramInput): string {
    // GET /v1/diagram takes the dice as text (`6,5`).
    const { dice, ...rest } = input;
    // A JSON position has no query-string form; it is checked against the same Position schema as REST bodies.
    if (rest.position) request('Position', rest.position, 'position');
    // Checked against the query parameters of GET /v1/diagram; rules and position are the GraphQL additions (DiagramQuery).
    return diagramSvgNow(parameters('diagram', 'query', dice ? { ...rest, dice: dice.join(',') } : rest) as DiagramQuery);
  }
}
