import { GameScore, scoreDroppedCube } from '../engine/scoring/score';
import { CubeConfig, CubeContext, CubeState, applyCubeAction, checkCubeConfig, legalCubeActions, parseCubeState, stakeOf } from '../engine/scoring/cube';
import { MatchState, nextMatchState, parseMatchState } from '../engine/scoring/match';
import { otherSide } from '../engine/side';
import { ServiceError, fail } from './errors';
import { AnyBound, Bound, withCubeOption, withFamily } from '../engine/family';
import { ScoreView, scoreView } from './sessions/views';
import { CubeRequest, ScoreRequest } from '../contract/requests';
import { bindNamed } from './request';

/** Binds the variant; a request that gives a cube plays with it (LN-SCORE-5 `cube` on). */
function bindRequest(body: { variant: string; rules?: Record<string, unknown> }, withCube: boolean): AnyBound {
  const bound = bindNamed(body.variant, body.rules);
  return withCube ? withCubeOption(bound, true) : bound;
}

/** The cube options in force for a scoring or cube request: the variant's, with the cube switched on. */
function cubeConfigOf<R, S>(bound: Bound<R, S>, wanted: boolean): CubeConfig {
  const config = bound.family.cubeConfig(bound.rules, wanted ? true : undefined);
  if (!config.ok) throw ServiceError.fromCube(config.error);
  return config.value;
}

export interface MatchView {
  length: number;
  crawford: boolean;
  score: { white: number; black: number };
  winner?: string;
  nextGameIsCrawford: boolean;
  crawfordPlayed: boolean;
}

/** The request's cube under `config`, and its match when it gives one (400 naming the field otherwise). */
function cubeAndMatch(input: { cube?: unknown; match?: unknown }, config: CubeConfig): { cube: CubeState; match: MatchState | null } {
  const cube = parseCubeState(input.cube, config);
  if (!cube.ok) throw ServiceError.fromCube(cube.error);
  if (input.match === undefined) return { cube: cube.value, match: null };
  const m = parseMatchState(input.match);
  if (!m.ok) throw ServiceError.fromCube(m.error);
  return { cube: cube.value, match: m.value };
}

function matchView(m: MatchState): MatchView {
  return {
    length: m.length,
    crawford: m.crawford,
    score: { white: m.score.white, black: m.score.black },
    ...(m.winner ? { winner: m.winner } : {}),
    nextGameIsCrawford: m.nextGameIsCrawford,
    crawfordPlayed: m.crawfordPlayed,
  };
}

export type ScoreAnswer = ScoreView & { match?: MatchView };

/**
 * `POST /v1/score`: the value of a finished game (LN-SCORE-*, SH-SCORE-*,
 * §5.6, KH-4, FV-6) × the cube, or of a resignation or a dropped double,
 * and the match after it (CUBE-6, LN-MATCH-1).
 */
export function scoreGame(input: ScoreRequest): ScoreAnswer {
  return withFamily(bindRequest(input, input.cube !== undefined), (bound) => scoreBound(bound, input));
}

function scoreBound<R, S>(bound: Bound<R, S>, input: ScoreRequest): ScoreAnswer {
  const family = bound.family;
  const parsed = family.parseState(bound.rules, input);
  if (!parsed.ok) throw ServiceError.from(parsed.error);
  const state = { ok: true as const, value: parsed.value.state };
  const config = cubeConfigOf(bound, input.cube !== undefined);
  if (input.cube !== undefined && !config.enabled) {
    fail('CUBE_DISABLED', `${bound.variant.name} is never played with the doubling cube`, { field: 'cube', rule: 'CUBE-7' });
  }
  const { cube, match } = cubeAndMatch(input, config);
  const stake = stakeOf(config, cube, match);
  // Only a draw after the last roll needs to know who moved first (LN-SCORE-6).
  const { droppedBy, resignedBy, firstMover } = input;

  let score: GameScore;
  if (droppedBy !== undefined) {
    if (input.resign !== undefined) fail('INVALID_REQUEST', 'give either droppedBy or resign, not both', { field: 'resign' });
    if (!config.enabled) fail('CUBE_DISABLED', 'a double can only be dropped where the cube is used', { field: 'droppedBy' });
    // CUBE-3: the doubler wins the value before the offer; no gammons.
    const r = scoreDroppedCube(otherSide(droppedBy), cube.value);
    if (!r.ok) throw ServiceError.fromCube(r.error);
    score = r.value;
  } else if (input.resign !== undefined) {
    const resigner = resignedBy ?? family.sideToAct(state.value);
    const r = family.resign(bound.rules, state.value, resigner, input.resign, stake);
    if (!r.ok) throw ServiceError.fromCube(r.error);
    score = r.value;
  } else {
    const winner = family.winner(state.value);
    if (!winner) {
      fail('GAME_NOT_OVER', 'neither side has borne off all its checkers; give resign or droppedBy to score an unfinished game', {
        field: 'position',
        rule: family.endRule,
      });
    }
    const bothFinished = family.winner(family.withSideToAct(state.value, otherSide(winner))) !== winner;
    if (bothFinished) {
      // LN-SCORE-6: the second mover completed his bear-off with the last roll (or did not).
      const r = family.scoreLastRoll(bound.rules, state.value, firstMover ?? winner, stake);
      if (!r.ok) throw ServiceError.fromCube(r.error);
      score = r.value;
    } else {
      const r = family.score(bound.rules, state.value, winner, stake);
      if (!r.ok) throw ServiceError.fromCube(r.error);
      score = r.value;
    }
  }
  const answer: ScoreAnswer = scoreView(score);
  if (match) {
    if (score.winner) {
      const next = nextMatchState(match, { winner: score.winner, points: score.points });
      if (!next.ok) throw ServiceError.fromCube(next.error);
      answer.match = matchView(next.value);
    } else answer.match = matchView(match);
  }
  return answer;
}

export interface CubeAnswer {
  cube: CubeState;
  /** What each side may do with the cube now (CUBE-2…CUBE-5). */
  legalActions: { white: string[]; black: string[] };
  gameOver?: ScoreView;
}

/** `POST /v1/cube`: applies one cube action to a cube (+ match) state, or names the rule it breaks. */
export function cubeAction(input: CubeRequest): CubeAnswer {
  const bound = bindRequest(input, true);
  let config = withFamily(bound, (b) => cubeConfigOf(b, true));
  if (!config.enabled) fail('CUBE_DISABLED', `${bound.variant.name} is never played with the doubling cube`, { field: 'variant', rule: 'CUBE-7' });
  if (input.config !== undefined) {
    const checked = checkCubeConfig({ ...config, ...input.config } as CubeConfig, 'config');
    if (!checked.ok) throw ServiceError.fromCube(checked.error);
    config = checked.value;
  }
  const { cube, match } = cubeAndMatch(input, config);
  // config, context and action are closed objects of openapi.yaml's CubeRequest (unknown fields refused at the edge).
  const ctx = input.context;
  const context: CubeContext = { onRoll: ctx.onRoll, rolled: ctx.rolled === true, openingMove: ctx.openingMove === true, match };
  const a = input.action;
  const outcome = applyCubeAction(config, cube, context, { type: a.type, by: a.by });
  if (!outcome.ok) throw ServiceError.fromCube(outcome.error);
  const after = outcome.value.state;
  const nextContext: CubeContext = context;
  const answer: CubeAnswer = {
    cube: after,
    legalActions: {
      white: outcome.value.gameOver ? [] : legalCubeActions(config, after, nextContext, 'white'),
      black: outcome.value.gameOver ? [] : legalCubeActions(config, after, nextContext, 'black'),
    },
  };
  if (outcome.value.gameOver) answer.gameOver = scoreView(outcome.value.gameOver);
  return answer;
}
