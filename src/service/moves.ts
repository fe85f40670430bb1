import { Dice, parseDice } from '../engine/dice';
import { RulesError, rulesError } from '../engine/errors';
import { ActiveStage, LongState, LongTurn, NextInfo, legalLongTurns } from '../engine/long/turn';
import { makeLongPositionId, parseLongPositionId } from '../engine/long/position-id';
import { LongRules } from '../engine/long/rules';
import { parseLongOverrides } from '../engine/long/options';
import { LongStateJson, checkStateAgainstRules, makeLongStateJson, parseLongState } from '../engine/long/state';
import { LongValidation, validateLongNotation, validateLongPlay } from '../engine/long/validate';
import { makeNotation, parseNotation } from '../engine/notation';
import { Result, err, ok } from '../engine/result';
import { Step } from '../engine/step';
import { Variant, variantByName } from '../engine/variants';
import { ServiceError } from './errors';

/** The answer of `POST /v1/moves` (README "Contract"). */
export interface MovesView {
  variant: string;
  dice: number[] | null;
  stage: StageView;
  diceUsed: number;
  count: number;
  turns: TurnView[];
}

export interface StageView {
  actor: string;
  origin: string;
  units: number[];
  headAllowance: number | string;
  firstTurnException: boolean;
}

export interface NextView {
  kind: string;
  actor: string | null;
  units?: number[];
  stages?: number[][];
  winner?: string;
}

export interface TurnView {
  steps: Step[];
  notation: string;
  position: LongStateJson;
  positionId: string;
  next: NextView;
}

export type ValidateView =
  | ({ legal: true; complete: true; stage: StageView } & TurnView)
  | { legal: true; complete: false; stage: StageView; remainingDice: number[] }
  | { legal: false; stage: StageView; error: { code: string; message: string; stepIndex?: number; rule?: string } };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface ParsedRequest {
  variant: Variant;
  rules: LongRules;
  state: LongState;
  dice: Dice | undefined;
  body: Record<string, unknown>;
}

const MOVES_KEYS = ['variant', 'rules', 'position', 'positionId', 'dice'];
const VALIDATE_KEYS = [...MOVES_KEYS, 'steps', 'notation'];

/** Parses the common part of a moves / validate request; every failure names its field. */
function parseRequest(input: unknown, allowed: readonly string[]): Result<ParsedRequest, RulesError> {
  if (!isPlainObject(input)) return err(rulesError('INVALID_REQUEST', 'the request body must be a JSON object', { field: '' }));
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key)) return err(rulesError('UNKNOWN_FIELD', `unknown field ${key.slice(0, 40)}`, { field: key.slice(0, 40) }));
  }
  const variant = variantByName(input.variant);
  if (!variant.ok) return variant;
  const rules = parseLongOverrides(variant.value.rules, input.rules);
  if (!rules.ok) return rules;
  let state: Result<LongState, RulesError>;
  if (input.position !== undefined && input.positionId !== undefined) {
    return err(rulesError('INVALID_REQUEST', 'give either position or positionId, not both', { field: 'positionId' }));
  } else if (input.position !== undefined) {
    state = parseLongState(input.position, rules.value);
  } else if (input.positionId !== undefined) {
    const parsed = parseLongPositionId(input.positionId);
    state = parsed.ok ? checkStateAgainstRules(rules.value, parsed.value, 'positionId') : parsed;
  } else {
    return err(rulesError('INVALID_REQUEST', 'a position or a positionId is required', { field: 'position' }));
  }
  if (!state.ok) return state;
  let dice: Dice | undefined;
  if (input.dice !== undefined && input.dice !== null) {
    const d = parseDice(input.dice);
    if (!d.ok) return d;
    dice = d.value;
  }
  return ok({ variant: variant.value, rules: rules.value, state: state.value, dice, body: input });
}

function stageView(stage: ActiveStage): StageView {
  return {
    actor: stage.actor,
    origin: stage.origin,
    units: stage.units.slice(),
    headAllowance: stage.headAllowance,
    firstTurnException: stage.firstTurnException,
  };
}

export function nextView(next: NextInfo): NextView {
  const view: NextView = { kind: next.kind, actor: next.actor };
  if (next.units) view.units = next.units.slice();
  if (next.stages) view.stages = next.stages.map((s) => s.slice());
  if (next.winner) view.winner = next.winner;
  return view;
}

export function turnView(turn: LongTurn): TurnView {
  return {
    steps: turn.steps.map((s) => ({ from: s.from, to: s.to })),
    notation: makeNotation(turn.steps),
    position: makeLongStateJson(turn.state),
    positionId: makeLongPositionId(turn.state),
    next: nextView(turn.next),
  };
}

/** `POST /v1/moves`: every legal play of the current stage. */
export function listMoves(input: unknown): MovesView {
  const req = parseRequest(input, MOVES_KEYS);
  if (!req.ok) throw ServiceError.from(req.error);
  const { variant, rules, state, dice } = req.value;
  const result = legalLongTurns(rules, state, dice);
  if (!result.ok) throw ServiceError.from(result.error);
  const { stage, unitsUsed, turns } = result.value;
  return {
    variant: variant.name,
    dice: dice ? [dice[0], dice[1]] : null,
    stage: stageView(stage),
    diceUsed: unitsUsed,
    count: turns.length,
    turns: turns.map(turnView),
  };
}

function parseSteps(input: unknown): Result<Step[], RulesError> {
  if (!Array.isArray(input)) return err(rulesError('INVALID_STEPS', 'steps must be an array of {from, to}', { field: 'steps' }));
  if (input.length > 8) return err(rulesError('INVALID_STEPS', 'a stage has at most four steps', { field: 'steps' }));
  const steps: Step[] = [];
  for (let i = 0; i < input.length; i++) {
    const s = input[i];
    const f = `steps[${i}]`;
    if (!isPlainObject(s)) return err(rulesError('INVALID_STEPS', `${f} must be an object {from, to}`, { field: f }));
    for (const key of Object.keys(s)) {
      if (key !== 'from' && key !== 'to') return err(rulesError('UNKNOWN_FIELD', `unknown field ${f}.${key.slice(0, 40)}`, { field: `${f}.${key.slice(0, 40)}` }));
    }
    if (!Number.isInteger(s.from)) return err(rulesError('INVALID_STEPS', `${f}.from must be an integer`, { field: `${f}.from` }));
    if (!Number.isInteger(s.to)) return err(rulesError('INVALID_STEPS', `${f}.to must be an integer`, { field: `${f}.to` }));
    steps.push({ from: s.from as number, to: s.to as number });
  }
  return ok(steps);
}

function validationView(v: LongValidation): ValidateView {
  const stage = stageView(v.stage);
  if (v.legal && v.complete) return { legal: true, complete: true, stage, ...turnView(v.turn) };
  if (v.legal) return { legal: true, complete: false, stage, remainingDice: v.remainingUnits.slice() };
  const error: { code: string; message: string; stepIndex?: number; rule?: string } = {
    code: v.error.code,
    message: v.error.message,
  };
  if (v.error.stepIndex !== undefined) error.stepIndex = v.error.stepIndex;
  if (v.error.rule !== undefined) error.rule = v.error.rule;
  return { legal: false, stage, error };
}

/** `POST /v1/moves/validate`: is this play (or prefix, ALG-8) legal, and what does it lead to? */
export function validateMove(input: unknown): ValidateView {
  const req = parseRequest(input, VALIDATE_KEYS);
  if (!req.ok) throw ServiceError.from(req.error);
  const { rules, state, dice, body } = req.value;
  const hasSteps = body.steps !== undefined;
  const hasNotation = body.notation !== undefined;
  if (hasSteps === hasNotation) {
    throw new ServiceError({ code: 'INVALID_REQUEST', message: 'give exactly one of steps or notation', field: 'steps' });
  }
  let result: Result<LongValidation, RulesError>;
  if (hasSteps) {
    const steps = parseSteps(body.steps);
    if (!steps.ok) throw ServiceError.from(steps.error);
    result = validateLongPlay(rules, state, dice, steps.value);
  } else {
    if (typeof body.notation !== 'string') {
      throw new ServiceError({ code: 'INVALID_NOTATION', message: 'notation must be a string', field: 'notation' });
    }
    const segments = parseNotation(body.notation);
    if (!segments.ok) throw ServiceError.from(segments.error);
    // The units of the stage decide how a segment such as 24/13 splits into steps.
    const units = stageUnits(state, dice);
    result = validateLongNotation(rules, state, dice, segments.value, units);
  }
  if (!result.ok) throw ServiceError.from(result.error);
  return validationView(result.value);
}

function stageUnits(state: LongState, dice: Dice | undefined): number[] {
  const first = state.pending[0];
  if (first?.units) return first.units.slice();
  if (!dice) throw new ServiceError({ code: 'INVALID_DICE', message: 'dice are required: the side to move must roll', field: 'dice' });
  return dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
}
