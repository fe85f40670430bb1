import { RulesError, rulesError } from '../errors';
import { OptionSpec, booleanOption, describeOption, enumOption, integerOption, isPlainObject, notAnOverrideObject, readOverride } from '../option-spec';
import { Result, err, ok } from '../result';
import { LongRules } from './rules';

export type { OptionSpec } from '../option-spec';
export { readOptionValue } from '../option-spec';

/**
 * Descriptions of every long-family option (SPEC §2, §3.8, §6): allowed
 * values, the rule they implement, and how to read a JSON override of them.
 * `GET /v1/variants` publishes this table; `parseLongOverrides` applies it.
 */
export const LONG_OPTIONS: readonly OptionSpec[] = [
  enumOption('initialPosition', ['head15', 'khachapuri'], 'LN-INIT-1, KH-1', 'start layout: 15 on the head, or 4 on the head and 11 on own point 6'),
  enumOption('headLimitPerTurn', [1, 'unlimited', 'fevgaRunner'], 'LN-HEAD-1, KH-2, FV-2', 'checkers that may leave the head per stage, or Fevga\'s first-runner rule', { '1': 1 }),
  enumOption('firstTurnHeadException', ['conditional', 'fixedDoubles', 'anyDouble', 'none'], 'LN-HEAD-2', 'when a double on the first turn lets a second checker leave the head'),
  enumOption('sixBlock', ['needOpponentAhead', 'needOpponentInHome', 'forbidden', 'allowed', 'fevgaRules'], 'LN-BLOCK-3, LN-BLOCK-5, FV-3…FV-5', 'when six points in a row may be held'),
  enumOption('sixBlockTiming', ['endOfTurn', 'everyStep'], 'LN-BLOCK-4', 'check the block rule at the end of each stage, or after every step', { endOfStage: 'endOfTurn' }),
  enumOption('doubles', ['standard', 'cascade', 'rerollIfFull'], 'CR-1, GS-1', 'what a double does: four units; a cascade up to 6-6; a re-roll when fully played'),
  enumOption('unplayedDoubles', ['forfeit', 'toOpponent', 'toOpponentIfStarted'], 'CR-2, GS-2, FG-2, TM-3', 'where unplayable units of a cascade or re-roll double go'),
  enumOption('cascadeStopWhenAllHome', ['immediately', 'afterOneMoreStage', 'never'], 'CR-5, CG-4, FG-3', 'when the cascade ends once every checker is home'),
  integerOption('cascadeFromTurn', 1, 99, '§3.10', "the cascade applies from the player's N-th roll on (international Gul bara: 4)"),
  enumOption('bearOff', ['standard', 'exactOnly'], 'LN-OFF-3, CR-4, CG-5', 'whether a larger die may bear off from the highest point'),
  enumOption('homeMoves', ['allowed', 'forbiddenWhenAllHome', 'forbiddenAlways'], 'CR-4 (A10)', 'whether checkers may move inside the home'),
  enumOption('debtHeadAllowance', ['one', 'presetRule'], 'TM-4', 'head checkers allowed in each debt stage', { asStage: 'presetRule' }),
  enumOption('debtContinuation', ['stopAtFirstIncompleteStage', 'skipToNextStage'], 'TM-4 (A13)', 'what happens to the rest of a debt after a stage that could not be played fully'),
  enumOption('openingRoll', ['rerollByWinner', 'useRollOffDice', 'fixedFirstSeat'], 'LN-START-2', 'how the first roll of a game is made'),
  enumOption('nextGameStarter', ['previousWinner', 'rollOff'], 'LN-START-3', 'who starts the next game of a match'),
  enumOption('scoring.mode', ['oinMars', 'sovietLike', 'perChecker'], 'LN-SCORE-4 (K0, K5, K6)', 'oin 1 / mars 2; Soviet-like 1/2/4; or a stake per checker not borne off'),
  enumOption('scoring.koks', ['none', 'startQuarter', 'noneInHome'], 'LN-SCORE-3 (K3, K4)', 'when a loss with nothing borne off counts triple'),
  enumOption('scoring.homeMars', ['asMars', 'triple'], 'LN-SCORE-3 (K1, K2)', 'whether all home but none off counts triple'),
  booleanOption('cube', 'LN-SCORE-5, CUBE-7', 'the doubling cube (never in Fevga)'),
  enumOption('lastRoll', ['none', 'drawIfCompletes'], 'LN-SCORE-6', 'whether the second mover gets a last roll to draw'),
];

const BY_KEY = new Map(LONG_OPTIONS.map((o) => [o.key, o]));

const WORDING = {
  unknownKey: (key: string) => `unknown option ${key} for this variant`,
  badValue: (key: string, spec: OptionSpec) => `${key} must be ${describeOption(spec)}`,
};

/**
 * Applies a JSON object of overrides to a preset. Unknown keys and values
 * outside an option's domain are input errors naming the field. Fevga's
 * presets never take the cube (CUBE-7).
 */
export function parseLongOverrides(base: Readonly<LongRules>, input: unknown, field = 'rules'): Result<LongRules, RulesError> {
  if (input === undefined) return ok({ ...base, scoring: { ...base.scoring } });
  if (!isPlainObject(input)) return err(notAnOverrideObject(field));
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
    const v = readOverride(BY_KEY, key, value, field, WORDING);
    if (!v.ok) return v;
    if (key.startsWith('scoring.')) scoring[key.slice(8)] = v.value;
    else overrides[key] = v.value;
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
