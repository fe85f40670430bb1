import { Int } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { described, objectType, optional } from './build';
import { Position } from './position';
import { FamilyEnum, NextKindEnum, SideEnum, StageOriginEnum, VariantNameEnum } from './enums';

/*
 * GraphQL views of the service answers. They mirror the REST JSON field for
 * field; positions and rule overrides are JSON objects in both transports
 * (the contract of the README), everything else is typed.
 */

export const Health = objectType('Health', { status: String }, 'Liveness.');
export type Health = InstanceType<typeof Health>;

export const VariantOption = objectType(
  'VariantOption',
  {
    key: String,
    type: described(String, 'enum, integer or boolean'),
    values: optional([GraphQLJSON]),
    min: optional(Int),
    max: optional(Int),
    default: optional(GraphQLJSON),
    rule: String,
    description: String,
  },
  'One option of a variant, with its default in that preset.',
);

export const Variant = objectType(
  'Variant',
  { name: VariantNameEnum, family: FamilyEnum, title: String, russian: String, description: String, specSection: String, aliases: [String], options: [VariantOption] },
  'A preset of the rules.',
);
export type Variant = InstanceType<typeof Variant>;

export const Step = objectType('Step', { from: Int, to: Int }, "One checker moved by one die-unit, in the mover's own numbering (0 = off, 25 = bar).");

export const Stage = objectType(
  'Stage',
  {
    actor: SideEnum,
    origin: StageOriginEnum,
    units: [Int],
    headAllowance: optional(GraphQLJSON, 'long family: a number, "unlimited" or "fevgaRunner"'),
    firstTurnException: optional(Boolean, 'long family: LN-HEAD-2 raised the head allowance'),
  },
  'The stage being played (SPEC TM-1).',
);

export const Next = objectType(
  'Next',
  {
    kind: NextKindEnum,
    actor: optional(SideEnum),
    units: optional([Int]),
    stages: optional([[Int]]),
    winner: optional(SideEnum),
  },
  'What follows a play.',
);

export const Turn = objectType(
  'Turn',
  {
    steps: [Step],
    notation: String,
    position: described(Position, 'The position the play leads to.'),
    positionId: described(String, 'Short nardy: the gnubg Position ID of the result, the opponent on roll; long: the position key.'),
    next: Next,
  },
  'One legal play and the position it leads to.',
);

/** The plays of a roll: the variant, the dice and the stage being played. */
export const StagePlays = objectType('StagePlays', { variant: VariantNameEnum, dice: optional([Int]), stage: Stage });

export const MovesResult = objectType('MovesResult', { diceUsed: Int, count: Int, turns: [Turn] }, { description: 'Every legal play of the current stage.', extends: StagePlays });
export type MovesResult = InstanceType<typeof MovesResult>;

/** An error as every answer carries one: its stable code and a message. */
export const ErrorFields = objectType('ErrorFields', { code: String, message: String });

export const RuleViolation = objectType('RuleViolation', { stepIndex: optional(Int), rule: optional(String) }, { description: 'The rule a proposed play breaks.', extends: ErrorFields });

export const ValidationResult = objectType(
  'ValidationResult',
  {
    legal: Boolean,
    complete: optional(Boolean),
    stage: Stage,
    remainingDice: optional([Int]),
    steps: optional([Step]),
    notation: optional(String),
    position: optional(Position),
    positionId: optional(String),
    next: optional(Next),
    error: optional(RuleViolation),
  },
  'The verdict on a proposed play (or a prefix of one).',
);
export type ValidationResult = InstanceType<typeof ValidationResult>;
