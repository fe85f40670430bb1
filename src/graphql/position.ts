import { FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { ServiceError } from '../service/errors';
import { Built, fields, inputType, objectType, optional, perSideType } from './build';
import { SideEnum, StageOriginEnum } from './enums';

/*
 * Positions as typed GraphQL values. REST writes a side's checkers as an
 * object keyed by its own point numbers (`{"24": 15}`); GraphQL has no such
 * map, so a side's `points` is a list of {point, checkers} (own numbering,
 * COM-2), highest point first. Everything else is the REST position field
 * for field. The transport converts both ways; the service sees REST JSON.
 */

/** The fields of a stage owed, in answers and inputs alike. */
const PENDING_STAGE = fields({
  actor: SideEnum,
  origin: StageOriginEnum,
  units: optional([Int]),
  last: optional(Boolean, 'The one extra stage of Crazy Gul-bara after which the cascade ends (CG-4).'),
});

export const PointCheckers = objectType('PointCheckers', { point: Int, checkers: Int }, "A side's checkers on one of its own points (1..24).");

export const SideCheckers = objectType(
  'SideCheckers',
  { points: [PointCheckers], off: optional(Int, 'Checkers borne off.'), bar: optional(Int, 'Short nardy only: checkers on the bar (own point 25 in steps).') },
  "One side's checkers, in its own numbering.",
);

export const PendingStage = objectType(
  'PendingStage',
  { ...PENDING_STAGE },
  'A stage the side to move still owes in this turn: cascade, reroll or debt (SPEC TM-1, TM-7).',
);

export const FirstTurn = perSideType('FirstTurn', Boolean, 'Whether each player is still to play his first roll (LN-HEAD-3).');
export const RollsPlayed = perSideType('RollsPlayed', Int, "Each player's rolls so far (international Gul bara's cascadeFromTurn).");

/** Typed for TypeScript as any object: resolvers hand over REST positions (points keyed by point), which SideCheckersResolver lists. */
export const Position: Built<object> = objectType(
  'Position',
  { turn: SideEnum, white: SideCheckers, black: SideCheckers, firstTurn: optional(FirstTurn), pending: optional([PendingStage]), rollsPlayed: optional(RollsPlayed) },
  'A position: the side to move, both sides in their own numbering, and (long family) the stages owed and first-turn flags.',
);

/** REST's `points` object as GraphQL's list, highest point first. */
@Resolver(() => SideCheckers)
export class SideCheckersResolver {
  @FieldResolver(() => [PointCheckers])
  points(@Root() side: { points: Record<string, number> | InstanceType<typeof PointCheckers>[] }): InstanceType<typeof PointCheckers>[] {
    if (Array.isArray(side.points)) return side.points;
    return Object.entries(side.points)
      .map(([point, checkers]) => ({ point: Number(point), checkers }))
      .sort((a, b) => b.point - a.point);
  }
}

export const PointCheckersInput = inputType('PointCheckersInput', { point: Int, checkers: Int }, "A side's checkers on one of its own points (1..24).");

export const SideCheckersInput = inputType(
  'SideCheckersInput',
  { points: [PointCheckersInput], off: optional(Int), bar: optional(Int, 'Short nardy only.') },
  "One side's checkers, in its own numbering; a point listed twice is refused.",
);

export const PendingStageInput = inputType('PendingStageInput', { ...PENDING_STAGE }, 'A stage owed by the side to move.');

export const FirstTurnInput = inputType('FirstTurnInput', { white: optional(Boolean), black: optional(Boolean) }, 'Whether each player is still to play his first roll.');

export const RollsPlayedInput = inputType('RollsPlayedInput', { white: Int, black: Int }, "Each player's rolls so far.");

export const BoardInput = inputType(
  'BoardInput',
  {
    turn: SideEnum,
    white: SideCheckersInput,
    black: SideCheckersInput,
    firstTurn: optional(FirstTurnInput),
    pending: optional([PendingStageInput]),
    rollsPlayed: optional(RollsPlayedInput),
  },
  'A position, typed (the fields of the REST position; points as a list).',
);

/**
 * A side's typed checkers as REST writes them (`points` keyed by point);
 * `field` names the side in errors as REST would (`position.white`).
 */
export function restSideCheckers(side: { points: readonly { point: number; checkers: number }[] }, field: string): Record<string, unknown> {
  const points: Record<string, number> = {};
  side.points.forEach(({ point, checkers }, i) => {
    if (Object.hasOwn(points, String(point))) {
      throw new ServiceError({ code: 'INVALID_POSITION', message: `point ${point} is listed twice`, field: `${field}.points[${i}]` });
    }
    points[String(point)] = checkers;
  });
  return { ...side, points };
}
