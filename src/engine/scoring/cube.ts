import { LongRules } from '../long/rules';
import { Result, err, ok } from '../result';
import { Side, isSide, otherSide } from '../side';
import { CubeError, cubeError } from './cube-errors';
import { longCubeAllowed } from './long';
import { MatchState, checkMatchState } from './match';
import { GameScore, Stake, isPowerOfTwo, scoreDroppedCube, sideName } from './score';

/**
 * The doubling cube (SPEC §5.8, CUBE-1…CUBE-7) as a pure state machine:
 * `applyCubeAction(config, state, context, action)` → the next state, or the
 * end of the game on a drop, or a `CubeError` naming the rule.
 *
 * Offers are answered before anything else happens: while `state.offered`
 * is set the only legal actions are the doubled side's take / drop / beaver
 * and, after a beaver, the original doubler's raccoon or take / drop.
 */

/** Options of the cube (CUBE-1, CUBE-5). */
export interface CubeConfig {
  /** The cube is used in this game (short: on by default, §5.8; long: `long.cube`, LN-SCORE-5; Fevga: never, CUBE-7). */
  readonly enabled: boolean;
  /** CUBE-5, money play only: the doubled side may redouble at once and keep the cube. */
  readonly beaver: boolean;
  /** CUBE-5, money play only: the original doubler may answer a beaver with one more redouble. */
  readonly raccoon: boolean;
  /** CUBE-5, money play only: gammons count single unless the cube was turned. */
  readonly jacoby: boolean;
  /** CUBE-5, money play only: how many times equal roll-off dice double the centred cube (0 = off). */
  readonly automaticDoubles: number;
  /** CUBE-1: the highest value the cube may reach, a power of two; `null` = no cap. */
  readonly cap: number | null;
}

/** Money play with the plain cube: every optional rule off, no cap. */
export const DEFAULT_CUBE_CONFIG: Readonly<CubeConfig> = Object.freeze({
  enabled: true,
  beaver: false,
  raccoon: false,
  jacoby: false,
  automaticDoubles: 0,
  cap: null,
});

/** A game without the cube. */
export const CUBE_OFF: Readonly<CubeConfig> = Object.freeze({ ...DEFAULT_CUBE_CONFIG, enabled: false });

/** Who holds the cube: centred (anyone may double) or the side that last took it. */
export type CubeOwner = 'center' | Side;

/** A double waiting for an answer. `beaver` / `raccoon` mark the redoubles of CUBE-5. */
export interface CubeOffer {
  /** The side whose offer is pending: the doubler, the beaverer, or the raccooner. */
  readonly by: Side;
  readonly beaver?: boolean;
  readonly raccoon?: boolean;
}

/** The cube during one game (CUBE-1…CUBE-5). */
export interface CubeState {
  /**
   * The cube's value, a power of two (CUBE-1). While an offer is pending it
   * is the value *before* that offer: what a drop hands the offerer (CUBE-3).
   */
  readonly value: number;
  readonly owner: CubeOwner;
  readonly offered?: CubeOffer;
  /** At least one double has been accepted in this game (CUBE-5, Jacoby). */
  readonly turned: boolean;
  /** Automatic doubles applied in this game (CUBE-5). */
  readonly automaticDoubles: number;
}

/** The cube at the start of every game: centred at 1 (CUBE-1). */
export const INITIAL_CUBE: Readonly<CubeState> = Object.freeze({
  value: 1,
  owner: 'center',
  turned: false,
  automaticDoubles: 0,
});

/** Where the game stands when a cube action arrives. */
export interface CubeContext {
  /** The side whose turn it is. */
  readonly onRoll: Side;
  /** The side on roll has already rolled this turn (CUBE-2: doubles come before rolling). */
  readonly rolled: boolean;
  /** This is the first turn of the game (CUBE-2: never double during the opening move). */
  readonly openingMove: boolean;
  /** The match this game belongs to; absent or `null` for money play. */
  readonly match?: MatchState | null;
}

/** What a player does with the cube (CUBE-2, CUBE-3, CUBE-5). */
export type CubeActionType = 'double' | 'take' | 'drop' | 'beaver' | 'raccoon';

/** Every cube action, in the order `legalCubeActions` lists them. */
export const CUBE_ACTION_TYPES: readonly CubeActionType[] = ['double', 'take', 'drop', 'beaver', 'raccoon'];

/** One cube action and the side that takes it. */
export interface CubeAction {
  readonly type: CubeActionType;
  readonly by: Side;
}

/** The result of a legal cube action. */
export interface CubeOutcome {
  readonly state: CubeState;
  /** Set when the action ended the game: a drop (CUBE-3). */
  readonly gameOver?: GameScore;
}

/**
 * The options actually in force: CUBE-5 / CUBE-6 switch Jacoby, beavers,
 * raccoons and automatic doubles off in matches; a raccoon needs beavers.
 */
export function effectiveCubeConfig(config: CubeConfig, match?: MatchState | null): CubeConfig {
  const money = match === undefined || match === null;
  return {
    enabled: config.enabled,
    beaver: config.enabled && money && config.beaver,
    raccoon: config.enabled && money && config.beaver && config.raccoon,
    jacoby: config.enabled && money && config.jacoby,
    automaticDoubles: config.enabled && money ? config.automaticDoubles : 0,
    cap: config.cap,
  };
}

/**
 * The cube of a long-family game: off unless `long.cube` (LN-SCORE-5), and
 * always off for Fevga and Giul whatever the options say (CUBE-7).
 */
export function longCubeConfig(
  rules: Pick<LongRules, 'cube' | 'sixBlock' | 'headLimitPerTurn'>,
  options: Partial<Omit<CubeConfig, 'enabled'>> = {},
): CubeConfig {
  if (!longCubeAllowed(rules)) return CUBE_OFF;
  return { ...DEFAULT_CUBE_CONFIG, ...options, enabled: true };
}

/**
 * The cube options of a short-nardy rules object, read structurally (any
 * object with these keys, e.g. the short family's rules): `cube` switches it
 * on (§5.8), the rest are CUBE-1 / CUBE-5 options.
 */
export interface ShortCubeOptions {
  /** CUBE-1…4: the doubling cube is in use. */
  readonly cube: boolean;
  /** CUBE-5 (money only): gammons count single until the cube is turned. */
  readonly jacoby: boolean;
  /** CUBE-5 (money only): a doubled player may redouble at once and keep the cube. */
  readonly beaver: boolean;
  /** CUBE-5 (money only): the doubler may answer a beaver with one more redouble. */
  readonly raccoon: boolean;
  /** CUBE-5 (money only): how many times equal roll-off dice double the stake (0 = never). */
  readonly automaticDoubles: number;
  /** CUBE-1: the highest cube value, or `null` for no cap. */
  readonly cubeCap: number | null;
}

/** The cube of a short-nardy game from its rules' options. */
export function shortCubeConfig(options: ShortCubeOptions): CubeConfig {
  if (!options.cube) return CUBE_OFF;
  return {
    enabled: true,
    jacoby: options.jacoby,
    beaver: options.beaver,
    raccoon: options.raccoon,
    automaticDoubles: options.automaticDoubles,
    cap: options.cubeCap,
  };
}

/**
 * What the cube brings to the score of the game (CUBE-4, CUBE-5): its value,
 * whether it was turned, and whether the Jacoby rule is in force (money play
 * with the option on).
 */
export function stakeOf(config: CubeConfig, state: CubeState, match?: MatchState | null): Stake {
  const effective = effectiveCubeConfig(config, match);
  return {
    cubeValue: effective.enabled ? state.value : 1,
    cubeTurned: effective.enabled && state.turned,
    jacoby: effective.jacoby,
  };
}

function fail(
  code: CubeError['code'],
  message: string,
  rule: string,
  field?: string,
): { ok: false; error: CubeError } {
  return err(cubeError(code, message, field === undefined ? { rule } : { rule, field }));
}

/** Is `value × factor` within the cap (CUBE-1)? */
function withinCap(config: CubeConfig, value: number, factor: number): boolean {
  return config.cap === null || value * factor <= config.cap;
}

/**
 * Applies one cube action (CUBE-2, CUBE-3, CUBE-5, CUBE-6). Checks, in
 * order: the cube is used; the match is not over; then per action —
 *
 * - `double`: no Crawford game; no offer pending; `by` is on roll, has not
 *   rolled and this is not the opening move; the cube is centred or his;
 *   the doubled value stays within the cap. The value is unchanged until
 *   the answer.
 * - `take`: the doubled side accepts; the value doubles and the taker owns
 *   the cube — after a beaver the beaverer keeps it (CUBE-5).
 * - `drop`: the doubled side refuses; the game ends and the offerer wins the
 *   value before the offer, no gammons (CUBE-3).
 * - `beaver`: the doubled side takes and at once redoubles, keeping the cube;
 *   money play, option on, within the cap (CUBE-5).
 * - `raccoon`: the original doubler takes the beaver and redoubles once more;
 *   the beaverer keeps the cube (CUBE-5).
 *
 * Trusts `config`; checks `state` (INVALID_CUBE) and `context.match` (INVALID_MATCH).
 */
export function applyCubeAction(
  config: CubeConfig,
  state: CubeState,
  context: CubeContext,
  action: CubeAction,
): Result<CubeOutcome, CubeError> {
  const checked = checkCubeState(config, state);
  if (!checked.ok) return checked;
  if (
    typeof action !== 'object' ||
    action === null ||
    !CUBE_ACTION_TYPES.includes(action.type) ||
    !isSide(action.by)
  ) {
    return err(
      cubeError(
        'INVALID_CUBE',
        `an action is { type: ${CUBE_ACTION_TYPES.join(' | ')}, by: "white" | "black" }`,
        {
          field: 'action',
        },
      ),
    );
  }
  const match = context.match ?? null;
  if (match) {
    const m = checkMatchState(match, 'context.match');
    if (!m.ok) return m;
  }
  const effective = effectiveCubeConfig(config, match);
  if (!effective.enabled) return fail('CUBE_DISABLED', 'the doubling cube is not used in this game', '§5.8');
  if (match && match.winner !== undefined) {
    return fail('MATCH_OVER', `the match is over: ${match.winner} has won it`, 'CUBE-6');
  }
  if (action.type === 'double') return offerDouble(effective, state, context, action.by);
  const offer = state.offered;
  if (!offer) return fail('NO_DOUBLE_OFFERED', 'there is no double to answer', 'CUBE-3');
  return answerOffer(effective, state, offer, action, match !== null);
}

/** A double by `by` (CUBE-2, CUBE-6): the value stays until the answer. */
function offerDouble(effective: CubeConfig, state: CubeState, context: CubeContext, by: Side): Result<CubeOutcome, CubeError> {
  const match = context.match ?? null;
  const offer = state.offered;
  if (match && match.nextGameIsCrawford) {
    return fail('CRAWFORD_NO_DOUBLE', 'nobody may double in the Crawford game', 'CUBE-6');
  }
  if (offer) {
    return fail('OFFER_PENDING', `${sideName(offer.by)}'s double must be answered first`, 'CUBE-3');
  }
  if (by !== context.onRoll) return fail('NOT_YOUR_TURN', 'only the side on roll may double', 'CUBE-2');
  if (context.openingMove) {
    // CUBE-2 forbids a double in the first turn of a game: where the roll-off dice are
    // the opening roll they are already made; where the first mover rolls afresh
    // (or moves first by seat) there is still no double before the first play.
    return fail(
      'NOT_BEFORE_ROLL',
      context.rolled
        ? 'no double during the opening move: its roll is already made'
        : 'no double in the first turn of a game: the cube can be turned from the second turn on',
      'CUBE-2',
    );
  }
  if (context.rolled) {
    return fail('NOT_BEFORE_ROLL', 'a double is offered before rolling, not after', 'CUBE-2');
  }
  if (state.owner !== 'center' && state.owner !== by) {
    return fail('CUBE_NOT_OWNED', `${sideName(state.owner)} owns the cube; only he may redouble`, 'CUBE-2');
  }
  if (!withinCap(effective, state.value, 2)) {
    return fail('CUBE_CAP_REACHED', `the cube may not go above ${effective.cap}`, 'CUBE-1');
  }
  return ok({ state: { ...state, offered: { by } } });
}

/** An answer to the pending offer: take, drop, beaver or raccoon (CUBE-3, CUBE-5). */
function answerOffer(
  effective: CubeConfig,
  state: CubeState,
  offer: CubeOffer,
  action: CubeAction,
  inMatch: boolean,
): Result<CubeOutcome, CubeError> {
  const by = action.by;
  // The side that must answer the pending offer.
  const responder = otherSide(offer.by);
  switch (action.type) {
    case 'take': {
      if (by !== responder) {
        return fail('NOT_YOUR_DECISION', `${sideName(responder)} must answer the double`, 'CUBE-3');
      }
      // Plain take: the taker owns the cube. Beaver: the beaverer (the offerer)
      // keeps it. Raccoon: the beaverer (now the taker) keeps it (CUBE-5).
      const owner: Side = offer.beaver && !offer.raccoon ? offer.by : responder;
      return ok({ state: withoutOffer(state, { value: state.value * 2, owner, turned: true }) });
    }
    case 'drop': {
      if (by !== responder) {
        return fail('NOT_YOUR_DECISION', `${sideName(responder)} must answer the double`, 'CUBE-3');
      }
      const score = scoreDroppedCube(offer.by, state.value);
      if (!score.ok) return score;
      return ok({ state: withoutOffer(state, {}), gameOver: score.value });
    }
    case 'beaver':
      return beaver(effective, state, offer, by, responder, inMatch);
    case 'raccoon':
      return raccoon(effective, state, offer, by, responder, inMatch);
  }
  return fail('INVALID_CUBE', 'unknown cube action', 'CUBE-2', 'action.type');
}

/** CUBE-5: beavers and raccoons are money play only, and each needs its option. */
function notAllowed(code: 'BEAVER_NOT_ALLOWED' | 'RACCOON_NOT_ALLOWED', what: string, inMatch: boolean): Result<CubeOutcome, CubeError> {
  return fail(code, inMatch ? `${what} are not used in matches` : `${what} are not allowed by the cube options`, 'CUBE-5');
}

/** The doubled side takes and at once redoubles, keeping the cube (CUBE-5). */
function beaver(effective: CubeConfig, state: CubeState, offer: CubeOffer, by: Side, responder: Side, inMatch: boolean): Result<CubeOutcome, CubeError> {
  if (!effective.beaver) return notAllowed('BEAVER_NOT_ALLOWED', 'beavers', inMatch);
  if (offer.beaver) return fail('BEAVER_NOT_ALLOWED', 'a beaver cannot be beavered; answer it', 'CUBE-5');
  if (by !== responder) {
    return fail('NOT_YOUR_DECISION', `only ${sideName(responder)} was doubled`, 'CUBE-5');
  }
  if (!withinCap(effective, state.value, 4)) {
    return fail('CUBE_CAP_REACHED', `a beaver would take the cube above ${effective.cap}`, 'CUBE-1');
  }
  // The beaver takes the double (the value doubles now) and offers the next one.
  return ok({
    state: { ...state, value: state.value * 2, owner: by, turned: true, offered: { by, beaver: true } },
  });
}

/** The original doubler takes the beaver and redoubles once more; the beaverer keeps the cube (CUBE-5). */
function raccoon(effective: CubeConfig, state: CubeState, offer: CubeOffer, by: Side, responder: Side, inMatch: boolean): Result<CubeOutcome, CubeError> {
  if (!effective.raccoon) return notAllowed('RACCOON_NOT_ALLOWED', 'raccoons', inMatch);
  if (!offer.beaver || offer.raccoon) {
    return fail('RACCOON_NOT_ALLOWED', 'a raccoon answers a beaver, once', 'CUBE-5');
  }
  if (by !== responder) {
    return fail('NOT_YOUR_DECISION', `only ${sideName(responder)} may answer the beaver`, 'CUBE-5');
  }
  if (!withinCap(effective, state.value, 4)) {
    return fail('CUBE_CAP_REACHED', `a raccoon would take the cube above ${effective.cap}`, 'CUBE-1');
  }
  return ok({
    state: {
      ...state,
      value: state.value * 2,
      owner: offer.by,
      turned: true,
      offered: { by, beaver: true, raccoon: true },
    },
  });
}

function withoutOffer(state: CubeState, changes: Partial<Omit<CubeState, 'offered'>>): CubeState {
  return {
    value: changes.value ?? state.value,
    owner: changes.owner ?? state.owner,
    turned: changes.turned ?? state.turned,
    automaticDoubles: changes.automaticDoubles ?? state.automaticDoubles,
  };
}

/**
 * CUBE-5 automatic doubles: the opening roll-off dice were equal. Money play
 * with the option on: the value doubles and the cube stays centred, at most
 * `config.automaticDoubles` times per game and never above the cap. In every
 * other case the cube is returned unchanged (a tie is a fact, not a request).
 */
export function applyRollOffTie(config: CubeConfig, state: CubeState, match?: MatchState | null): CubeState {
  const effective = effectiveCubeConfig(config, match);
  if (!effective.enabled || state.automaticDoubles >= effective.automaticDoubles) return state;
  if (state.owner !== 'center' || state.offered || !withinCap(effective, state.value, 2)) return state;
  return { ...state, value: state.value * 2, automaticDoubles: state.automaticDoubles + 1 };
}

/**
 * The actions open to `side` now, for clients (the same checks as
 * `applyCubeAction`, so a listed action always succeeds).
 */
export function legalCubeActions(
  config: CubeConfig,
  state: CubeState,
  context: CubeContext,
  side: Side,
): CubeActionType[] {
  return CUBE_ACTION_TYPES.filter((type) => applyCubeAction(config, state, context, { type, by: side }).ok);
}

/** Checks a cube configuration given by hand (transports parse JSON with `parseCubeConfig`). */
export function checkCubeConfig(config: CubeConfig, field = 'cube.config'): Result<CubeConfig, CubeError> {
  const bad = (message: string, key: string) =>
    err(
      cubeError('INVALID_CUBE', message, {
        field: `${field}.${key}`,
        rule: key === 'cap' ? 'CUBE-1' : 'CUBE-5',
      }),
    );
  if (typeof config !== 'object' || config === null) {
    return err(cubeError('INVALID_CUBE', `${field} must be an object`, { field }));
  }
  for (const key of ['enabled', 'beaver', 'raccoon', 'jacoby'] as const) {
    if (typeof config[key] !== 'boolean') return bad(`${key} must be a boolean`, key);
  }
  if (
    !Number.isInteger(config.automaticDoubles) ||
    config.automaticDoubles < 0 ||
    config.automaticDoubles > 6
  ) {
    return bad('automaticDoubles must be an integer 0..6', 'automaticDoubles');
  }
  if (config.cap !== null && !isPowerOfTwo(config.cap)) {
    return bad('cap must be null or a power of two: 1, 2, 4…', 'cap');
  }
  if (config.raccoon && !config.beaver) {
    return bad('a raccoon answers a beaver: raccoon needs beaver', 'raccoon');
  }
  return ok(config);
}

/**
 * Checks a cube state against its configuration: a power-of-two value within
 * the cap, an owner only after a take, a pending offer that could have been
 * made (CUBE-1…CUBE-5).
 */
export function checkCubeState(
  config: CubeConfig,
  state: CubeState,
  field = 'cube',
): Result<CubeState, CubeError> {
  const bad = (message: string, key: string, rule = 'CUBE-1') =>
    err(cubeError('INVALID_CUBE', message, { field: `${field}.${key}`, rule }));
  if (typeof state !== 'object' || state === null) {
    return err(cubeError('INVALID_CUBE', `${field} must be an object`, { field }));
  }
  if (!isPowerOfTwo(state.value)) return bad('the cube value must be a power of two: 1, 2, 4, 8…', 'value');
  if (config.cap !== null && state.value > config.cap) {
    return bad(`the cube value is above the cap ${config.cap}`, 'value');
  }
  if (state.owner !== 'center' && !isSide(state.owner)) {
    return bad('owner must be "center", "white" or "black"', 'owner');
  }
  if (typeof state.turned !== 'boolean') return bad('turned must be a boolean', 'turned', 'CUBE-5');
  if (!Number.isInteger(state.automaticDoubles) || state.automaticDoubles < 0) {
    return bad('automaticDoubles must be a whole number ≥ 0', 'automaticDoubles', 'CUBE-5');
  }
  // The cube leaves the centre with the first take and never returns to it.
  if ((state.owner !== 'center') !== state.turned) {
    return bad('the cube has an owner exactly when a double has been taken', 'owner', 'CUBE-3');
  }
  // Only automatic doubles (centred) and takes (which at least double) change the value.
  if (
    state.turned
      ? state.value < 2 ** (state.automaticDoubles + 1)
      : state.value !== 2 ** state.automaticDoubles
  ) {
    return bad('the value does not match the automatic doubles and takes behind it', 'value', 'CUBE-5');
  }
  const offer = state.offered;
  if (offer !== undefined) {
    if (typeof offer !== 'object' || offer === null || !isSide(offer.by)) {
      return bad('offered must be { by: "white" | "black", beaver?, raccoon? }', 'offered', 'CUBE-2');
    }
    if (offer.raccoon && !offer.beaver) return bad('a raccoon answers a beaver', 'offered.raccoon', 'CUBE-5');
    if (offer.beaver) {
      // After a beaver the beaverer has taken (and owns) the cube; after a raccoon he still does.
      const beaverer = offer.raccoon ? otherSide(offer.by) : offer.by;
      if (!state.turned || state.owner !== beaverer) {
        return bad('after a beaver the beaverer holds the cube', 'offered.beaver', 'CUBE-5');
      }
    } else if (state.owner !== 'center' && state.owner !== offer.by) {
      return bad(
        'only the owner of the cube, or anyone while it is centred, may double',
        'offered.by',
        'CUBE-2',
      );
    }
    // `value` already holds every implicit take, so the offer is always to value × 2.
    if (config.cap !== null && state.value * 2 > config.cap) {
      return bad('the pending offer goes above the cap', 'offered', 'CUBE-1');
    }
  }
  return ok(state);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unknownKeys(
  input: Record<string, unknown>,
  known: readonly string[],
  field: string,
): CubeError | null {
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) {
      return cubeError('INVALID_CUBE', `unknown field ${field}.${key}`, { field: `${field}.${key}` });
    }
  }
  return null;
}

/** JSON → cube options; missing keys take `DEFAULT_CUBE_CONFIG`'s values. */
export function parseCubeConfig(input: unknown, field = 'cube.config'): Result<CubeConfig, CubeError> {
  if (input === undefined) return ok(DEFAULT_CUBE_CONFIG);
  if (!isPlainObject(input)) return err(cubeError('INVALID_CUBE', `${field} must be an object`, { field }));
  const unknown = unknownKeys(input, Object.keys(DEFAULT_CUBE_CONFIG), field);
  if (unknown) return err(unknown);
  return checkCubeConfig({ ...DEFAULT_CUBE_CONFIG, ...input } as CubeConfig, field);
}

/** An offer read from JSON whose keys are known and flags boolean; `checkCubeState` checks `by`. */
function offerOf(offered: Record<string, unknown>): CubeOffer {
  return {
    by: offered.by as Side,
    ...(typeof offered.beaver === 'boolean' ? { beaver: offered.beaver } : {}),
    ...(typeof offered.raccoon === 'boolean' ? { raccoon: offered.raccoon } : {}),
  };
}

/** JSON → a checked cube state; missing keys take `INITIAL_CUBE`'s values. */
export function parseCubeState(
  input: unknown,
  config: CubeConfig,
  field = 'cube',
): Result<CubeState, CubeError> {
  if (input === undefined) return ok(INITIAL_CUBE);
  if (!isPlainObject(input)) return err(cubeError('INVALID_CUBE', `${field} must be an object`, { field }));
  const unknown = unknownKeys(input, ['value', 'owner', 'offered', 'turned', 'automaticDoubles'], field);
  if (unknown) return err(unknown);
  const offered = input.offered;
  if (offered !== undefined && offered !== null) {
    if (!isPlainObject(offered)) {
      return err(
        cubeError('INVALID_CUBE', `${field}.offered must be an object`, { field: `${field}.offered` }),
      );
    }
    const unknownOffer = unknownKeys(offered, ['by', 'beaver', 'raccoon'], `${field}.offered`);
    if (unknownOffer) return err(unknownOffer);
    for (const key of ['beaver', 'raccoon'] as const) {
      if (offered[key] !== undefined && typeof offered[key] !== 'boolean') {
        return err(
          cubeError('INVALID_CUBE', `${key} must be a boolean`, { field: `${field}.offered.${key}` }),
        );
      }
    }
  }
  const value = input.value ?? 1;
  const owner = input.owner ?? 'center';
  const state: CubeState = {
    value: value as number,
    owner: owner as CubeOwner,
    turned: (input.turned ?? owner !== 'center') as boolean,
    automaticDoubles: (input.automaticDoubles ?? 0) as number,
    ...(isPlainObject(offered) ? { offered: offerOf(offered) } : {}),
  };
  return checkCubeState(config, state, field);
}
