import { VARIANTS } from '../engine/variants';
import { components } from '../contract/schema';
import { enumType } from './build';

/*
 * The GraphQL enums: each lists the strings of the REST answer field it
 * types (`satisfies` ties each list to openapi.yaml's enum of that field),
 * written with `_` for `-` in GraphQL (EnumRef). Code generators read them
 * as enums, as the REST client's types are unions of literals.
 */

type Schemas = components['schemas'];

export const VariantNameEnum = enumType(
  'VariantName',
  VARIANTS.map((v) => v.name),
  'A preset of the rules by its API name (GET /v1/variants); the spec aliases of REST are not GraphQL names.',
);

export const SideEnum = enumType('Side', ['white', 'black'] as const satisfies readonly Schemas['Side'][], 'A seat: white or black (COM-4).');

export const FamilyEnum = enumType('Family', ['long', 'short'] as const satisfies readonly Schemas['Game']['family'][], 'Long nardy and its variants, or short nardy (backgammon).');

export const StageOriginEnum = enumType(
  'StageOrigin',
  ['roll', 'reroll', 'cascade', 'debt'] as const satisfies readonly Schemas['Stage']['origin'][],
  'Where the units of a stage come from (SPEC TM-1).',
);

export const NextKindEnum = enumType(
  'NextKind',
  ['turn', 'cascade', 'reroll', 'debt', 'roll', 'gameOver'] as const satisfies readonly Schemas['Next']['kind'][],
  'What follows a play.',
);

export const GameStatusEnum = enumType('GameStatus', ['playing', 'finished'] as const satisfies readonly Schemas['Game']['status'][], 'A session in progress or over.');

export const SessionActionEnum = enumType(
  'SessionAction',
  ['roll', 'play', 'double', 'take', 'drop', 'beaver', 'raccoon', 'resign', 'next-game'] as const satisfies readonly Schemas['Game']['allowed']['white'][number][],
  'An action of a seat in a game session.',
);

export const ExpectedActionEnum = enumType(
  'ExpectedAction',
  ['roll', 'play', 'respond', 'next-game'] as const satisfies readonly NonNullable<Schemas['Game']['expects']>['action'][],
  'What the game waits for: a roll, a play, an answer to a double, the next game of a match.',
);

export const ResignLevelEnum = enumType(
  'ResignLevel',
  ['single', 'mars', 'koks', 'soviet-4', 'soviet-8', 'per-checker'] as const satisfies readonly NonNullable<Schemas['ResignRequest']['as']>[],
  'The level a resignation concedes (single when absent).',
);

export const CubeActionEnum = enumType(
  'CubeAction',
  ['noDouble', 'doubleTake', 'doublePass', 'tooGood', 'notAvailable'] as const,
  'The right cube action of the side on roll.',
);

export const CubeResponseEnum = enumType('CubeResponse', ['take', 'pass', 'beaver'] as const, "The opponent's right answer to a double.");
