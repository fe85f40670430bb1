import { Dice, parseDice } from '../engine/dice';
import { RulesError } from '../engine/errors';
import { Result, ok } from '../engine/result';
import { ServiceError } from './errors';
import { Bound, FamilyValidation, Play, bindByName, withFamily } from '../engine/family';
import { CachedAnswer, HotCache } from './cache';
import { MovesView, ValidateView } from './views';
import { MovesRequest, ValidateRequest } from '../contract/requests';
import { rulesHash } from './request';

export type { MovesView, ValidateView } from './views';


interface ParsedRequest<R, S> {
  bound: Bound<R, S>;
  state: S;
  dice: Dice | undefined;
}

/** What is done with a parsed request, at its family's own types. */
type RequestWork<T> = <R, S>(req: ParsedRequest<R, S>) => T;

/**
 * Reads what the schema cannot check of a moves / validate request (the
 * variant, its rule overrides, the position against the rules) and hands it
 * to `work`; every failure names its field.
 */
function parseRequest<T>(input: MovesRequest, work: RequestWork<T>): Result<T, RulesError> {
  const bound = bindByName(input.variant, input.rules);
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
    return ok(work({ bound: b, state: parsed.value.state, dice }));
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
export async function listMoves(input: MovesRequest, cache?: HotCache): Promise<CachedAnswer<MovesView>> {
  const req = parseRequest(input, (r) => {
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
export function listMovesNow(input: MovesRequest): MovesView {
  const req = parseRequest(input, computeMoves);
  if (!req.ok) throw ServiceError.from(req.error);
  return req.value;
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
export function validateMove(input: ValidateRequest): ValidateView {
  const { steps, notation } = input;
  const req = parseRequest(input, (r) => {
    let play: Play;
    if (steps !== undefined && notation === undefined) play = { steps: steps.map((s) => ({ from: s.from, to: s.to })) };
    else if (notation !== undefined && steps === undefined) play = { notation };
    else throw new ServiceError({ code: 'INVALID_REQUEST', message: 'give exactly one of steps or notation', field: 'steps' });
    const result = r.bound.family.validate(r.bound.rules, r.state, r.dice, play);
    if (!result.ok) throw ServiceError.from(result.error);
    return validationView(result.value);
  });
  if (!req.ok) throw ServiceError.from(req.error);
  return req.value;
}
