import { Dice, parseDice } from '../engine/dice';
import { RulesError, rulesError } from '../engine/errors';
import { Result, err, ok } from '../engine/result';
import { Step } from '../engine/step';
import { variantByName } from '../engine/variants';
import { ServiceError } from './errors';
import { Bound, FamilyValidation, Play, bind, withFamily } from '../engine/family';
import { CachedAnswer, HotCache } from './cache';
import { MovesView, ValidateView } from './views';
import { isPlainObject, rulesHash } from './request';

export type { MovesView, ValidateView } from './views';


interface ParsedRequest<R, S> {
  bound: Bound<R, S>;
  state: S;
  dice: Dice | undefined;
  body: Record<string, unknown>;
}

/** What is done with a parsed request, at its family's own types. */
type RequestWork<T> = <R, S>(req: ParsedRequest<R, S>) => T;

const MOVES_KEYS = ['variant', 'rules', 'position', 'positionId', 'matchId', 'dice'];
const VALIDATE_KEYS = [...MOVES_KEYS, 'steps', 'notation'];

/** Parses the common part of a moves / validate request and hands it to `work`; every failure names its field. */
function parseRequest<T>(input: unknown, allowed: readonly string[], work: RequestWork<T>): Result<T, RulesError> {
  if (!isPlainObject(input)) return err(rulesError('INVALID_REQUEST', 'the request body must be a JSON object', { field: '' }));
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key)) return err(rulesError('UNKNOWN_FIELD', `unknown field ${key.slice(0, 40)}`, { field: key.slice(0, 40) }));
  }
  const variant = variantByName(input.variant);
  if (!variant.ok) return variant;
  const bound = bind(variant.value, input.rules);
  if (!bound.ok) return bound;
  return withFamily(bound.value, (b) => {
    const parsed = b.family.parseState(b.rules, input);
    if (!parsed.ok) return parsed;
    let dice: Dice | undefined = parsed.value.dice;
    if (input.dice !== undefined && input.dice !== null) {
      const d = parseDice(input.dice);
      if (!d.ok) return d;
      dice = d.value;
    }
    return ok(work({ bound: b, state: parsed.value.state, dice, body: input }));
  });
}



function computeMoves<R, S>(req: ParsedRequest<R, S>): MovesView {
  const { bound, state, dice } = req;
  const family = bound.family;
  const result = family.legal(bound.rules, state, dice);
  if (!result.ok) throw ServiceError.from(result.error);
  const { stage, unitsUsed, turns } = result.value;
  return {
    variant: bound.variant.name,
    dice: dice ? [dice[0], dice[1]] : null,
    stage,
    diceUsed: unitsUsed,
    count: turns.length,
    turns: turns.map((t) => t.view),
  };
}

/**
 * `POST /v1/moves`: every legal play of the current stage. Answers go
 * through the hot-position cache keyed by variant, rules, position ID and dice.
 */
export async function listMoves(input: unknown, cache?: HotCache): Promise<CachedAnswer<MovesView>> {
  const req = parseRequest(input, MOVES_KEYS, (r) => {
    const { bound, state, dice } = r;
    return {
      key: `moves:${bound.variant.name}:${rulesHash(bound.rules)}:${bound.family.positionId(state)}:${dice ? dice.join('') : '-'}`,
      compute: () => computeMoves(r),
    };
  });
  if (!req.ok) throw ServiceError.from(req.error);
  const { key, compute } = req.value;
  if (!cache) {
    const value = compute();
    return { json: JSON.stringify(value), value, cache: 'BYPASS' };
  }
  return cache.through(key, compute);
}

/** Synchronous form for in-process callers without a cache. */
export function listMovesNow(input: unknown): MovesView {
  const req = parseRequest(input, MOVES_KEYS, computeMoves);
  if (!req.ok) throw ServiceError.from(req.error);
  return req.value;
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
      if (key !== 'from' && key !== 'to') {
        return err(rulesError('UNKNOWN_FIELD', `unknown field ${f}.${key.slice(0, 40)}`, { field: `${f}.${key.slice(0, 40)}` }));
      }
    }
    if (!Number.isInteger(s.from)) return err(rulesError('INVALID_STEPS', `${f}.from must be an integer`, { field: `${f}.from` }));
    if (!Number.isInteger(s.to)) return err(rulesError('INVALID_STEPS', `${f}.to must be an integer`, { field: `${f}.to` }));
    steps.push({ from: s.from as number, to: s.to as number });
  }
  return ok(steps);
}

function validationView<S>(v: FamilyValidation<S>): ValidateView {
  if (v.legal && v.complete) return { legal: true, complete: true, stage: v.stage, ...v.turn.view };
  if (v.legal) return { legal: true, complete: false, stage: v.stage, remainingDice: v.remainingDice };
  const error: { code: string; message: string; stepIndex?: number; rule?: string } = {
    code: v.error.code,
    message: v.error.message,
  };
  if (v.error.stepIndex !== undefined) error.stepIndex = v.error.stepIndex;
  if (v.error.rule !== undefined) error.rule = v.error.rule;
  return { legal: false, stage: v.stage, error };
}

/** `POST /v1/moves/validate`: is this play (or prefix, ALG-8) legal, and what does it lead to? */
export function validateMove(input: unknown): ValidateView {
  const req = parseRequest(input, VALIDATE_KEYS, validateParsed);
  if (!req.ok) throw ServiceError.from(req.error);
  return req.value;
}

function validateParsed<R, S>(req: ParsedRequest<R, S>): ValidateView {
  const { bound, state, dice, body } = req;
  const hasSteps = body.steps !== undefined;
  const hasNotation = body.notation !== undefined;
  if (hasSteps === hasNotation) {
    throw new ServiceError({ code: 'INVALID_REQUEST', message: 'give exactly one of steps or notation', field: 'steps' });
  }
  let play: Play;
  if (hasSteps) {
    const steps = parseSteps(body.steps);
    if (!steps.ok) throw ServiceError.from(steps.error);
    play = { steps: steps.value };
  } else {
    if (typeof body.notation !== 'string') {
      throw new ServiceError({ code: 'INVALID_NOTATION', message: 'notation must be a string', field: 'notation' });
    }
    play = { notation: body.notation };
  }
  const result = bound.family.validate(bound.rules, state, dice, play);
  if (!result.ok) throw ServiceError.from(result.error);
  return validationView(result.value);
}
