import { RulesError, rulesError } from '../errors';
import { Result, err, ok } from '../result';
import { LongRules } from './rules';

/**
 * Descriptions of every long-family option (SPEC §2, §3.8, §6): allowed
 * values, the rule they implement, and how to read a JSON override of them.
 * `GET /v1/variants` publishes this table; `parseLongOverrides` applies it.
 */
export interface OptionSpec {
  readonly key: string;
  readonly kind: 'enum' | 'integer' | 'boolean';
  readonly values?: readonly (string | number)[];
  readonly min?: number;
  readonly max?: number;
  readonly rule: string;
  readonly description: string;
  /** Accepted spellings that mean a canonical value (spec or oracle names). */
  readonly aliases?: Readonly<Record<string, string | number>>;
}

export const LONG_OPTIONS: readonly OptionSpec[] = [
  {
    key: 'initialPosition',
    kind: 'enum',
    values: ['head15', 'khachapuri'],
    rule: 'LN-INIT-1, KH-1',
    description: 'start layout: 15 on the head, or 4 on the head and 11 on own point 6',
  },
  {
    key: 'headLimitPerTurn',
    kind: 'enum',
    values: [1, 'unlimited', 'fevgaRunner'],
    rule: 'LN-HEAD-1, KH-2, FV-2',
    description: 'checkers that may leave the head per stage, or Fevga\'s first-runner rule',
    aliases: { '1': 1 },
  },
  {
    key: 'firstTurnHeadException',
    kind: 'enum',
    values: ['conditional', 'fixedDoubles', 'anyDouble', 'none'],
    rule: 'LN-HEAD-2',
    description: 'when a double on the first turn lets a second checker leave the head',
  },
  {
    key: 'sixBlock',
    kind: 'enum',
    values: ['needOpponentAhead', 'needOpponentInHome', 'forbidden', 'allowed', 'fevgaRules'],
    rule: 'LN-BLOCK-3, LN-BLOCK-5, FV-3…FV-5',
    description: 'when six points in a row may be held',
  },
  {
    key: 'sixBlockTiming',
    kind: 'enum',
    values: ['endOfTurn', 'everyStep'],
    rule: 'LN-BLOCK-4',
    description: 'check the block rule at the end of each stage, or after every step',
    aliases: { endOfStage: 'endOfTurn' },
  },
  {
    key: 'doubles',
    kind: 'enum',
    values: ['standard', 'cascade', 'rerollIfFull'],
    rule: 'CR-1, GS-1',
    description: 'what a double does: four units; a cascade up to 6-6; a re-roll when fully played',
  },
  {
    key: 'unplayedDoubles',
    kind: 'enum',
    values: ['forfeit', 'toOpponent', 'toOpponentIfStarted'],
    rule: 'CR-2, GS-2, FG-2, TM-3',
    description: 'where unplayable units of a cascade or re-roll double go',
  },
  {
    key: 'cascadeStopWhenAllHome',
    kind: 'enum',
    values: ['immediately', 'afterOneMoreStage', 'never'],
    rule: 'CR-5, CG-4, FG-3',
    description: 'when the cascade ends once every checker is home',
  },
  {
    key: 'cascadeFromTurn',
    kind: 'integer',
    min: 1,
    max: 99,
    rule: '§3.10',
    description: "the cascade applies from the player's N-th roll on (international Gul bara: 4)",
  },
  {
    key: 'bearOff',
    kind: 'enum',
    values: ['standard', 'exactOnly'],
    rule: 'LN-OFF-3, CR-4, CG-5',
    description: 'whether a larger die may bear off from the highest point',
  },
  {
    key: 'homeMoves',
    kind: 'enum',
    values: ['allowed', 'forbiddenWhenAllHome', 'forbiddenAlways'],
    rule: 'CR-4 (A10)',
    description: 'whether checkers may move inside the home',
  },
  {
    key: 'debtHeadAllowance',
    kind: 'enum',
    values: ['one', 'presetRule'],
    rule: 'TM-4',
    description: 'head checkers allowed in each debt stage',
    aliases: { asStage: 'presetRule' },
  },
  {
    key: 'debtContinuation',
    kind: 'enum',
    values: ['stopAtFirstIncompleteStage', 'skipToNextStage'],
    rule: 'TM-4 (A13)',
    description: 'what happens to the rest of a debt after a stage that could not be played fully',
  },
  {
    key: 'openingRoll',
    kind: 'enum',
    values: ['rerollByWinner', 'useRollOffDice', 'fixedFirstSeat'],
    rule: 'LN-START-2',
    description: 'how the first roll of a game is made',
  },
  {
    key: 'nextGameStarter',
    kind: 'enum',
    values: ['previousWinner', 'rollOff'],
    rule: 'LN-START-3',
    description: 'who starts the next game of a match',
  },
  {
    key: 'scoring.mode',
    kind: 'enum',
    values: ['oinMars', 'sovietLike', 'perChecker'],
    rule: 'LN-SCORE-4 (K0, K5, K6)',
    description: 'oin 1 / mars 2; Soviet-like 1/2/4; or a stake per checker not borne off',
  },
  {
    key: 'scoring.koks',
    kind: 'enum',
    values: ['none', 'startQuarter', 'noneInHome'],
    rule: 'LN-SCORE-3 (K3, K4)',
    description: 'when a loss with nothing borne off counts triple',
  },
  {
    key: 'scoring.homeMars',
    kind: 'enum',
    values: ['asMars', 'triple'],
    rule: 'LN-SCORE-3 (K1, K2)',
    description: 'whether all home but none off counts triple',
  },
  { key: 'cube', kind: 'boolean', rule: 'LN-SCORE-5, CUBE-7', description: 'the doubling cube (never in Fevga)' },
  {
    key: 'lastRoll',
    kind: 'enum',
    values: ['none', 'drawIfCompletes'],
    rule: 'LN-SCORE-6',
    description: 'whether the second mover gets a last roll to draw',
  },
];

const BY_KEY = new Map(LONG_OPTIONS.map((o) => [o.key, o]));

/** Reads one option value; `undefined` when it is not acceptable. */
export function readOptionValue(spec: OptionSpec, value: unknown): string | number | boolean | undefined {
  if (spec.kind === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (spec.kind === 'integer') {
    if (!Number.isInteger(value)) return undefined;
    const n = value as number;
    return n >= (spec.min ?? -Infinity) && n <= (spec.max ?? Infinity) ? n : undefined;
  }
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (spec.values?.includes(value)) return value;
  const alias = spec.aliases?.[String(value)];
  return alias !== undefined ? alias : undefined;
}

function describe(spec: OptionSpec): string {
  if (spec.kind === 'boolean') return 'true or false';
  if (spec.kind === 'integer') return `an integer ${spec.min}..${spec.max}`;
  return `one of ${(spec.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Applies a JSON object of overrides to a preset. Unknown keys and values
 * outside an option's domain are input errors naming the field. Fevga's
 * presets never take the cube (CUBE-7).
 */
export function parseLongOverrides(base: Readonly<LongRules>, input: unknown, field = 'rules'): Result<LongRules, RulesError> {
  if (input === undefined) return ok({ ...base, scoring: { ...base.scoring } });
  if (!isPlainObject(input)) return err(rulesError('INVALID_RULES', `${field} must be an object of option overrides`, { field }));
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(input)) {
    if (key === 'scoring' && isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) entries.push([`scoring.${k}`, v]);
    } else entries.push([key, value]);
  }
  // Each value is one its option's spec accepts, and the specs name only fields of LongRules.
  const overrides: Record<string, string | number | boolean> = {};
  const scoring: Record<string, string | number | boolean> = {};
  for (const [key, value] of entries) {
    const spec = BY_KEY.get(key);
    const f = `${field}.${key}`;
    if (!spec) return err(rulesError('INVALID_RULES', `unknown option ${key} for this variant`, { field: f }));
    const v = readOptionValue(spec, value);
    if (v === undefined) return err(rulesError('INVALID_RULES', `${key} must be ${describe(spec)}`, { field: f }));
    if (key.startsWith('scoring.')) scoring[key.slice(8)] = v;
    else overrides[key] = v;
  }
  const rules: LongRules = { ...base, ...overrides, scoring: { ...base.scoring, ...scoring } };
  if (rules.cube && (base.sixBlock === 'fevgaRules' || rules.sixBlock === 'fevgaRules')) {
    return err(rulesError('INVALID_RULES', 'Fevga and Giul are never played with the doubling cube (CUBE-7)', { field: `${field}.cube` }));
  }
  return ok(rules);
}

/** The option values of a rules object, flat (`scoring.mode` …), for publication. */
export function longOptionValues(rules: Readonly<LongRules>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const spec of LONG_OPTIONS) {
    if (spec.key.startsWith('scoring.')) out[spec.key] = rules.scoring[spec.key.slice(8) as keyof LongRules['scoring']];
    else out[spec.key] = rules[spec.key as keyof LongRules] as string | number | boolean;
  }
  return out;
}
