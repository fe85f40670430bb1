import { parseDice } from '../dice';
import { CodedError, RulesErrorCode, isInputError, rulesError } from '../errors';
import { bind, withFamily } from '../family';
import { Result, err, ok } from '../result';
import { parseCubeConfig, parseCubeState } from '../scoring/cube';
import { MatchState, parseMatchState } from '../scoring/match';
import { GameScore, gameScoreFault, isGameScore } from '../scoring/score';
import { isSide } from '../side';
import { variantByName } from '../variants';
import { settledExpects } from './reducer';
import { Expects, GameError, GameRoundState, GameState } from './types';

/*
 * A game state read from outside (a game server sends back what it was
 * given): everything is checked against the rules, and the state must be
 * one the reducer can have made — its `expects` is what the rest of it
 * waits for. Every refusal names its field under `state`.
 */

const FIELD = 'state';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function invalid(message: string, field: string): { ok: false; error: GameError } {
  return err({ by: 'rules', ...rulesError('INVALID_REQUEST', message, { field }) });
}

/** A refusal of a part of the state, its field put under `state.<at>`. */
function under(by: GameError['by'], at: string, error: CodedError<GameError['code']>): { ok: false; error: GameError } {
  const field = error.field === undefined ? `${FIELD}.${at}` : error.field.startsWith(at) ? `${FIELD}.${error.field}` : `${FIELD}.${at}.${error.field}`;
  return err({ by, ...error, field });
}

function unknownKey(input: Record<string, unknown>, known: readonly string[], at: string): { ok: false; error: GameError } | null {
  const key = Object.keys(input).find((k) => !known.includes(k));
  return key === undefined ? null : err({ by: 'rules', ...rulesError('UNKNOWN_FIELD', `unknown field ${at}.${key}`, { field: `${at}.${key}` }) });
}

/** A game's result as the state keeps it: only its shape can be checked (a resignation or a drop leaves no trace on the board). */
function checkResult(input: unknown): Result<GameScore | null, GameError> {
  const at = `${FIELD}.game.result`;
  if (input === null || isGameScore(input)) return ok(input);
  const fault = gameScoreFault(input);
  const field = fault?.field ? `${at}.${fault.field}` : at;
  return invalid(`${fault?.field ? `result.${fault.field}` : 'result'} ${fault?.message ?? 'must be null or the score of the game'}`, field);
}

/** JSON text with the keys of every object sorted, so that equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * Checks a game state read from JSON: the variant and its effective rules,
 * the cube options (those the rules give), the match, the position against
 * the rules (15 checkers a side, pending stages the variant can have), the
 * dice, the cube, and that `expects` and `status` are what the rest of the
 * state waits for. Answers the state to hand to `applyAction`, or the
 * refusal naming its field.
 */
export function parseGameState(input: unknown): Result<GameState, GameError> {
  if (!isPlainObject(input)) return invalid('state must be a game state object', FIELD);
  const unknown = unknownKey(input, ['variant', 'rules', 'cubeConfig', 'match', 'status', 'expects', 'game'], FIELD);
  if (unknown) return unknown;
  const variant = variantByName(input.variant, `${FIELD}.variant`);
  if (!variant.ok) return err({ by: 'rules', ...variant.error });
  if (!isPlainObject(input.rules)) return invalid('rules must be the effective rules of the variant', `${FIELD}.rules`);
  const { family, ...options } = input.rules;
  if (family !== variant.value.family) return invalid(`rules.family must be "${variant.value.family}" for ${variant.value.name}`, `${FIELD}.rules.family`);
  const bound = bind(variant.value, options);
  if (!bound.ok) return under('rules', 'rules', bound.error);
  if (!sameJson(bound.value.rules, input.rules)) return invalid('rules must list every option of the effective rules, as the state was given', `${FIELD}.rules`);
  const config = parseCubeConfig(input.cubeConfig, `${FIELD}.cubeConfig`);
  if (!config.ok) return err({ by: 'cube', ...config.error });
  const expectedConfig = withFamily(bound.value, (b) => b.family.cubeConfig(b.rules, undefined));
  if (!expectedConfig.ok || !sameJson(config.value, expectedConfig.value)) {
    return invalid('cubeConfig must be the cube options the rules give (the rules hold the cube option)', `${FIELD}.cubeConfig`);
  }
  let match: MatchState | null = null;
  if (input.match !== null) {
    const m = parseMatchState(input.match, `${FIELD}.match`);
    if (!m.ok) return err({ by: 'cube', ...m.error });
    match = m.value;
  }
  const game = input.game;
  if (!isPlainObject(game)) return invalid('game must be the game in progress', `${FIELD}.game`);
  const unknownInGame = unknownKey(game, ['number', 'firstMover', 'position', 'dice', 'lastRoll', 'opening', 'cube', 'result'], `${FIELD}.game`);
  if (unknownInGame) return unknownInGame;
  if (typeof game.number !== 'number' || !Number.isInteger(game.number) || game.number < 1) return invalid('game.number must be a whole number ≥ 1', `${FIELD}.game.number`);
  if (game.firstMover !== null && !isSide(game.firstMover)) return invalid('game.firstMover must be "white", "black" or null', `${FIELD}.game.firstMover`);
  for (const key of ['lastRoll', 'opening'] as const) {
    if (typeof game[key] !== 'boolean') return invalid(`game.${key} must be true or false`, `${FIELD}.game.${key}`);
  }
  const position = withFamily(bound.value, (b) => {
    const parsed = b.family.parseState(b.rules, { position: game.position });
    return parsed.ok ? ok(b.family.toJson(parsed.value.state)) : parsed;
  });
  if (!position.ok) return under('rules', 'game', position.error);
  let dice: [number, number] | null = null;
  if (game.dice !== null) {
    const d = parseDice(game.dice);
    if (!d.ok) return under('rules', 'game', d.error);
    dice = [d.value[0], d.value[1]];
  }
  let cube = null;
  if (config.value.enabled !== (game.cube !== null)) return invalid(config.value.enabled ? 'game.cube is the cube of this game' : 'game.cube must be null: the cube is not used', `${FIELD}.game.cube`);
  if (game.cube !== null) {
    const c = parseCubeState(game.cube, config.value, `${FIELD}.game.cube`);
    if (!c.ok) return err({ by: 'cube', ...c.error });
    cube = c.value;
  }
  const result = checkResult(game.result);
  if (!result.ok) return result;
  const round: GameRoundState = {
    number: game.number,
    firstMover: game.firstMover as GameRoundState['firstMover'],
    position: position.value,
    dice,
    lastRoll: game.lastRoll as boolean,
    opening: game.opening as boolean,
    cube,
    result: result.value,
  };
  const finished = match ? match.winner !== undefined : result.value !== null;
  if (input.status !== (finished ? 'finished' : 'playing')) {
    return invalid(`status must be "${finished ? 'finished' : 'playing'}": ${finished ? 'the game (match) is over' : 'the game (match) goes on'}`, `${FIELD}.status`);
  }
  const state: GameState = {
    variant: variant.value.name,
    rules: bound.value.rules,
    cubeConfig: config.value,
    match,
    status: finished ? 'finished' : 'playing',
    expects: input.expects as Expects | null,
    game: round,
  };
  const expects = settledExpects(state);
  if (!expects.ok) {
    // The position and its dice cannot be played on: a state no game reaches, so bad input (400), not a broken rule.
    const { code } = expects.error;
    const input = expects.error.by === 'rules' && isInputError(code as RulesErrorCode) ? code : 'INVALID_REQUEST';
    const at = expects.error.field;
    const field = at === undefined ? `${FIELD}.game.dice` : at.startsWith(`${FIELD}.`) ? at : `${FIELD}.game.${at}`;
    return err({ ...expects.error, by: 'rules', code: input, field });
  }
  if (!sameJson(expects.value, input.expects ?? null)) {
    const wanted = expects.value ? `${expects.value.action} from ${expects.value.seat}` : 'nothing';
    return invalid(`this state waits for ${wanted}; expects must say so`, `${FIELD}.expects`);
  }
  return ok(state);
}
