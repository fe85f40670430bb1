import { randomInt } from 'crypto';
import { Dice, parseDice } from '../../engine/dice';
import { LongRules } from '../../engine/long/rules';
import { LongState } from '../../engine/long/turn';
import { CubeConfig, CubeState, parseCubeState } from '../../engine/scoring/cube';
import { MatchState, parseMatchState } from '../../engine/scoring/match';
import { ShortPosition } from '../../engine/short/position';
import { ShortRules } from '../../engine/short/rules';
import { Side, otherSide } from '../../engine/side';
import { Step } from '../../engine/step';
import { variantByName } from '../../engine/variants';
import { LongAnalyzer, PositionEvaluation, ShortAnalyzer, cubeDecisionOf, cubeEfficiencyOf } from '../../eval/analysis';
import { CubeDecision, CubeOwner, CubeSituation } from '../../eval/cube/decision';
import { Evaluator } from '../../eval/evaluator';
import { SearchBudget } from '../../eval/search-options';
import { OutcomeValues } from '../../eval/equity';
import { Probabilities } from '../../eval/probabilities';
import { RolloutOptions, RolloutResult, RolloutStart, rollout, rolloutTurns } from '../../eval/neural/rollout';
import { CachedAnswer, HotCache } from '../cache';
import { ServiceError, fail } from '../errors';
import { AnyBound, bind } from '../families';
import { Body, checkKeys, isPlainObject, rulesHash } from '../request';
import { TurnView } from '../views';
import { Analyzers } from './evaluators';
import {
  BatchItemView,
  BestMovesView,
  CubeDecisionView,
  EvaluationBatchView,
  EvaluationView,
  EvaluatorView,
  ProbabilitiesView,
  RankedTurnView,
  RolloutEstimateView,
  RolloutSettingsView,
  RolloutView,
} from './views';

/** Documented limits of the analysis endpoints (README, openapi.yaml). */
export const ANALYSIS_LIMITS = Object.freeze({
  maxPlies: 2,
  /** Positions in one `POST /v1/evaluate/batch`. */
  maxBatch: 64,
  /** Positions at 2 plies in one batch (each can take a second or more). */
  maxBatchTwoPly: 4,
  maxTrials: 5184,
  defaultTrials: 360,
  /** Default wall-clock budget of a search (ANALYSIS_BUDGET_MS): past it, the answer comes from fewer plies. */
  defaultSearchBudgetMs: 2_000,
  /** A batch's searches share this many single budgets in all. */
  batchBudgets: 4,
  /** Wall-clock budget of one rollout request, in milliseconds. */
  maxTimeBudgetMs: 10_000,
  defaultTimeBudgetMs: 2_000,
  maxTruncateAfter: 1000,
});

function integerField(body: Body, name: string, min: number, max: number, fallback: number): number {
  const v = body[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    fail('INVALID_REQUEST', `${name} must be an integer ${min}..${max}`, { field: name });
  }
  return v;
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

function probabilitiesView(p: Probabilities): ProbabilitiesView {
  return { win: round(p.win), winMars: round(p.winMars), winKoks: round(p.winKoks), loseMars: round(p.loseMars), loseKoks: round(p.loseKoks) };
}

function stepsKey(steps: readonly Step[]): string {
  return steps.map((s) => `${s.from}/${s.to}`).join(' ');
}

/** A request bound to its variant, with its state and analyzer. */
type Target =
  | { family: 'short'; bound: AnyBound; state: ShortPosition; analyzer: ShortAnalyzer; dice?: Dice }
  | { family: 'long'; bound: AnyBound; state: LongState; analyzer: LongAnalyzer; dice?: Dice };

const POSITION_KEYS = ['variant', 'rules', 'position', 'positionId', 'matchId'];
const EVALUATE_KEYS = [...POSITION_KEYS, 'cube', 'match', 'plies'];
const BEST_KEYS = [...POSITION_KEYS, 'dice', 'plies', 'limit'];
const ROLLOUT_KEYS = [...POSITION_KEYS, 'dice', 'trials', 'timeBudgetMs', 'seed', 'truncateAfter', 'settleRaces', 'luckAdjust'];

/** The cube of an evaluation request, as the evaluator's situation. */
interface CubeRequest {
  readonly situation: CubeSituation;
  /** For the cache key. */
  readonly key: string;
}

/**
 * Position analysis for the transports (issue 7/8): evaluation with cube
 * decisions, ranked best turns and rollouts, for every preset of both
 * families. Answers of the deterministic queries go through the hot-position
 * cache; their keys carry the evaluator's name and version, so new weights
 * never serve stale answers.
 */
export class AnalysisService {
  private readonly searchBudgetMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly analyzers: Analyzers,
    private readonly cache?: HotCache,
    options: { searchBudgetMs?: number; clock?: () => number } = {},
  ) {
    this.searchBudgetMs = options.searchBudgetMs ?? ANALYSIS_LIMITS.defaultSearchBudgetMs;
    this.clock = options.clock ?? (() => performance.now());
  }

  /** The budget of a search starting now, not past `until` (a batch's shared deadline). */
  private budget(until = Infinity): SearchBudget {
    return { clock: this.clock, deadline: Math.min(this.clock() + this.searchBudgetMs, until) };
  }

  /** The evaluator kind in use (`neural`, `heuristic`, `fake`). */
  get kind(): string {
    return this.analyzers.evaluators.kind;
  }

  private target(body: Body, allowed: readonly string[]): Target {
    checkKeys(body, allowed);
    const variant = variantByName(body.variant);
    if (!variant.ok) throw ServiceError.from(variant.error);
    const bound = bind(variant.value, body.rules);
    if (!bound.ok) throw ServiceError.from(bound.error);
    const parsed = bound.value.family.parseState(bound.value.rules, body);
    if (!parsed.ok) throw ServiceError.from(parsed.error);
    let dice = parsed.value.dice;
    if (body.dice !== undefined && body.dice !== null) {
      const d = parseDice(body.dice);
      if (!d.ok) throw ServiceError.from(d.error);
      dice = d.value;
    }
    if (variant.value.family === 'short') {
      const rules = bound.value.rules as ShortRules;
      return { family: 'short', bound: bound.value, state: parsed.value.state as ShortPosition, analyzer: this.analyzers.short(rules), dice };
    }
    const rules = bound.value.rules as LongRules;
    return { family: 'long', bound: bound.value, state: parsed.value.state as LongState, analyzer: this.analyzers.long(rules, variant.value.name), dice };
  }

  private evaluatorView(evaluator: Evaluator, plies: number, requestedPlies = plies): EvaluatorView {
    return { name: evaluator.name, version: evaluator.version, plies, requestedPlies };
  }

  private cubeRequest(t: Target, body: Body): CubeRequest | null {
    if (body.cube === undefined && body.match === undefined) return null;
    const config: CubeConfig = (() => {
      const c = t.bound.family.cubeConfig(t.bound.rules, true);
      if (!c.ok) fail(c.error.code, c.error.message, { ...(c.error.field ? { field: c.error.field } : {}) });
      return c.value;
    })();
    const field = body.cube !== undefined ? 'cube' : 'match';
    if (!config.enabled) fail('CUBE_DISABLED', `${t.bound.variant.name} is never played with the doubling cube`, { field, rule: 'CUBE-7' });
    if (t.family === 'long' && t.state.pending.length > 0) {
      fail('STAGE_MISMATCH', 'the cube is turned only before a roll, with no stage pending (CUBE-2)', { field: 'position.pending' });
    }
    const cube = parseCubeState(body.cube, config);
    if (!cube.ok) fail(cube.error.code, cube.error.message, { ...(cube.error.field ? { field: cube.error.field } : {}) });
    const c: CubeState = cube.value;
    if (c.offered) fail('INVALID_CUBE', 'evaluate a cube without a pending offer: the decision is computed for both answers', { field: 'cube.offered' });
    const mover: Side = t.bound.family.sideToAct(t.state);
    const owner: CubeOwner = c.owner === 'center' ? 'centre' : c.owner === mover ? 'mover' : 'opponent';
    if (body.match !== undefined) {
      const m = parseMatchState(body.match);
      if (!m.ok) fail(m.error.code, m.error.message, { ...(m.error.field ? { field: m.error.field } : {}) });
      const match: MatchState = m.value;
      if (match.winner) fail('INVALID_MATCH', 'the match is over', { field: 'match.score' });
      const situation: CubeSituation = {
        kind: 'match',
        value: c.value,
        owner,
        length: match.length,
        score: [match.score[mover], match.score[otherSide(mover)]],
        crawford: match.crawford && match.nextGameIsCrawford,
      };
      return { situation, key: JSON.stringify(situation) };
    }
    const situation: CubeSituation = {
      kind: 'money',
      value: c.value,
      owner,
      jacoby: config.jacoby && !c.turned,
      beaver: config.beaver,
    };
    return { situation, key: JSON.stringify(situation) };
  }

  private evaluateTarget(t: Target, plies: number, cube: CubeRequest | null, until?: number): EvaluationView {
    const budget = this.budget(until);
    const e = t.family === 'short' ? t.analyzer.evaluateWithin(t.state, plies, budget) : t.analyzer.evaluateWithin(t.state, plies, budget);
    if (!e.ok) throw ServiceError.from(e.error);
    const mover = t.bound.family.sideToAct(t.state);
    const ev: PositionEvaluation = e.value;
    const view: EvaluationView = {
      variant: t.bound.variant.name,
      positionId: t.bound.family.positionId(t.state),
      sideToMove: mover,
      probabilities: probabilitiesView(ev.probabilities),
      equity: { cubeless: round(ev.equity) },
      pips: mover === 'white' ? { white: ev.pips.mover, black: ev.pips.opponent } : { white: ev.pips.opponent, black: ev.pips.mover },
      race: ev.race,
      evaluator: this.evaluatorView(t.analyzer.evaluator, ev.plies, plies),
    };
    if (cube) {
      const values: OutcomeValues = t.analyzer.values;
      const d = cubeDecisionOf(ev, cube.situation, values);
      view.cubeDecision = cubeView(d, cubeEfficiencyOf(ev));
      view.equity.cubeful = view.cubeDecision.equity;
    }
    return view;
  }

  private evaluationKey(t: Target, plies: number, cube: CubeRequest | null): string {
    const e = t.analyzer.evaluator;
    return `eval:${e.name}:${e.version}:${t.bound.variant.name}:${rulesHash(t.bound.rules)}:${t.bound.family.positionId(t.state)}:${plies}:${cube ? cube.key : '-'}`;
  }

  private prepareEvaluation(input: unknown): { t: Target; plies: number; cube: CubeRequest | null } {
    if (!isPlainObject(input)) fail('INVALID_REQUEST', 'the request body must be a JSON object', { field: '' });
    const t = this.target(input, EVALUATE_KEYS);
    const plies = integerField(input, 'plies', 0, ANALYSIS_LIMITS.maxPlies, 0);
    const cube = this.cubeRequest(t, input);
    return { t, plies, cube };
  }

  /** `POST /v1/evaluate`: probabilities, equity, pips and (with `cube` or `match`) the cube decision. */
  async evaluate(input: unknown, until?: number): Promise<CachedAnswer<EvaluationView>> {
    const { t, plies, cube } = this.prepareEvaluation(input);
    const compute = (): EvaluationView => this.evaluateTarget(t, plies, cube, until);
    if (!this.cache) {
      const value = compute();
      return { json: JSON.stringify(value), value, cache: 'BYPASS' };
    }
    return this.cache.through(this.evaluationKey(t, plies, cube), compute);
  }

  /**
   * `POST /v1/evaluate/batch`: `{"positions": [...]}`, each an evaluate
   * request; answers in order, each an evaluation or its own error.
   */
  async evaluateBatch(input: unknown): Promise<EvaluationBatchView> {
    if (!isPlainObject(input)) fail('INVALID_REQUEST', 'the request body must be a JSON object', { field: '' });
    checkKeys(input, ['positions']);
    const list = input.positions;
    if (!Array.isArray(list) || list.length === 0 || list.length > ANALYSIS_LIMITS.maxBatch) {
      fail('INVALID_REQUEST', `positions must be an array of 1..${ANALYSIS_LIMITS.maxBatch} evaluate requests`, { field: 'positions' });
    }
    const deep = list.filter((p) => isPlainObject(p) && p.plies === 2).length;
    if (deep > ANALYSIS_LIMITS.maxBatchTwoPly) {
      fail('INVALID_REQUEST', `at most ${ANALYSIS_LIMITS.maxBatchTwoPly} positions of a batch may ask for 2 plies`, { field: 'positions' });
    }
    const results: BatchItemView[] = [];
    // The searches of a batch share a few single budgets; past them every position is answered at 0 ply.
    const until = this.clock() + ANALYSIS_LIMITS.batchBudgets * this.searchBudgetMs;
    for (let i = 0; i < list.length; i++) {
      try {
        const answer = await this.evaluate(list[i], until);
        results.push({ index: i, evaluation: answer.value ?? (JSON.parse(answer.json) as EvaluationView) });
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        const { code, message, field, rule } = e.body;
        const error: BatchItemView['error'] = { code, message };
        if (field !== undefined) error.field = `positions[${i}]${field ? `.${field}` : ''}`;
        if (rule !== undefined) error.rule = rule;
        results.push({ index: i, error });
      }
    }
    return { count: results.length, results };
  }

  /** `POST /v1/moves/best`: every legal turn of the roll (or pending stage), best first, with its evaluation. */
  async bestMoves(input: unknown): Promise<CachedAnswer<BestMovesView>> {
    if (!isPlainObject(input)) fail('INVALID_REQUEST', 'the request body must be a JSON object', { field: '' });
    const t = this.target(input, BEST_KEYS);
    const plies = integerField(input, 'plies', 0, ANALYSIS_LIMITS.maxPlies, 0);
    const limit = integerField(input, 'limit', 1, 10_000, 10_000);
    const compute = (): BestMovesView => this.rank(t, plies, limit);
    if (!this.cache) {
      const value = compute();
      return { json: JSON.stringify(value), value, cache: 'BYPASS' };
    }
    const e = t.analyzer.evaluator;
    const key = `best:${e.name}:${e.version}:${t.bound.variant.name}:${rulesHash(t.bound.rules)}:${t.bound.family.positionId(t.state)}:${t.dice ? t.dice.join('') : '-'}:${plies}:${limit}`;
    return this.cache.through(key, compute);
  }

  /** The legal turns' views, keyed by their canonical steps. */
  private turnViews(t: Target): { stage: BestMovesView['stage']; views: Map<string, TurnView> } {
    const legal = t.bound.family.legal(t.bound.rules, t.state, t.dice);
    if (!legal.ok) throw ServiceError.from(legal.error);
    const views = new Map<string, TurnView>();
    for (const turn of legal.value.turns) views.set(stepsKey(turn.view.steps), turn.view);
    return { stage: legal.value.stage, views };
  }

  /** The view of a turn found by the search: the move list's own view of the same steps. */
  private viewOf(t: Target, views: Map<string, TurnView>, steps: readonly Step[]): TurnView {
    const found = views.get(stepsKey(steps));
    if (found) return found;
    const v = t.bound.family.validate(t.bound.rules, t.state, t.dice, { steps });
    if (v.ok && v.value.legal && v.value.complete) return v.value.turn.view;
    throw new Error(`the search returned a play the move list does not hold: ${stepsKey(steps)}`);
  }

  private rank(t: Target, plies: number, limit: number): BestMovesView {
    const { stage, views } = this.turnViews(t);
    const budget = this.budget();
    const ranked =
      t.family === 'short'
        ? (() => {
            if (!t.dice) fail('INVALID_DICE', 'dice are required (or a matchId that carries them)', { field: 'dice' });
            return t.analyzer.rankTurnsWithin(t.state, t.dice, plies, budget);
          })()
        : t.analyzer.rankTurnsWithin(t.state, t.dice, plies, budget);
    if (!ranked.ok) throw ServiceError.from(ranked.error);
    const turns: RankedTurnView[] = ranked.value.turns.slice(0, limit).map((r, i) => ({
      rank: i + 1,
      ...this.viewOf(t, views, r.steps),
      probabilities: probabilitiesView(r.probabilities),
      equity: round(r.equity),
      equityDiff: round(r.equityDiff),
      plies: r.plies,
    }));
    return {
      variant: t.bound.variant.name,
      dice: t.dice ? [t.dice[0], t.dice[1]] : null,
      stage,
      count: ranked.value.turns.length,
      evaluator: this.evaluatorView(t.analyzer.evaluator, ranked.value.plies, plies),
      turns,
    };
  }

  /**
   * `POST /v1/rollout`: Monte Carlo rollouts with the evaluator playing both
   * sides at 0 ply (stratified first two rolls), bounded by `trials` and
   * `timeBudgetMs`. Without dice: the position before the roll; with dice
   * (or a pending stage): every legal turn, the budget shared between them.
   * Not cached: an answer depends on its budget and seed.
   */
  rollout(input: unknown): RolloutView {
    if (!isPlainObject(input)) fail('INVALID_REQUEST', 'the request body must be a JSON object', { field: '' });
    const t = this.target(input, ROLLOUT_KEYS);
    const L = ANALYSIS_LIMITS;
    const trials = integerField(input, 'trials', 1, L.maxTrials, L.defaultTrials);
    const timeBudgetMs = integerField(input, 'timeBudgetMs', 1, L.maxTimeBudgetMs, L.defaultTimeBudgetMs);
    const seed = integerField(input, 'seed', 0, 2 ** 31 - 1, -1);
    const truncate = integerField(input, 'truncateAfter', 1, L.maxTruncateAfter, 0);
    for (const flag of ['settleRaces', 'luckAdjust']) {
      if (input[flag] !== undefined && typeof input[flag] !== 'boolean') fail('INVALID_REQUEST', `${flag} must be a boolean`, { field: flag });
    }
    const settings: RolloutSettingsView = {
      trials,
      timeBudgetMs,
      seed: seed >= 0 ? seed : randomInt(0, 2 ** 31 - 1),
      truncateAfter: truncate > 0 ? truncate : null,
      settleRaces: input.settleRaces === true,
      luckAdjust: input.luckAdjust === true,
    };
    const evaluator = t.analyzer.evaluator;
    const start: RolloutStart =
      t.family === 'short' ? { family: 'short', board: t.state.board } : { family: 'long', rules: t.bound.rules as LongRules, state: t.state };
    const mover = t.bound.family.sideToAct(t.state);
    const base = {
      variant: t.bound.variant.name,
      positionId: t.bound.family.positionId(t.state),
      sideToMove: mover,
      evaluator: this.evaluatorView(evaluator, 0),
      settings,
    };
    const options = (budget: number): RolloutOptions => ({
      trials,
      seed: settings.seed,
      timeBudgetMs: budget,
      clock: this.clock,
      values: t.analyzer.values,
      settleRaces: settings.settleRaces,
      luckAdjust: settings.luckAdjust,
      ...(settings.truncateAfter !== null ? { truncateAfter: settings.truncateAfter } : {}),
    });
    // A finished game (or a state the rules cannot play) answers as /v1/evaluate does.
    const playable = t.family === 'short' ? t.analyzer.evaluate(t.state, 0) : t.analyzer.evaluate(t.state, 0);
    if (!playable.ok) throw ServiceError.from(playable.error);
    const rollsNow = t.bound.family.needsDice(t.state);
    if (rollsNow && !t.dice) {
      const r = rollout(start, evaluator, options(timeBudgetMs));
      return { ...base, estimate: estimateView(r) };
    }
    const { stage, views } = this.turnViews(t);
    const count = views.size;
    const answer = rolloutTurns(start, rollsNow ? t.dice : undefined, evaluator, options(Math.max(1, Math.floor(timeBudgetMs / Math.max(1, count)))));
    if (!answer.ok) throw ServiceError.from(answer.error);
    const sorted = [...answer.value].sort((a, b) => b.result.equity - a.result.equity);
    const best = sorted.length > 0 ? sorted[0].result.equity : 0;
    return {
      ...base,
      dice: t.dice ? [t.dice[0], t.dice[1]] : null,
      stage,
      count: sorted.length,
      turns: sorted.map((r, i) => ({
        rank: i + 1,
        ...this.viewOf(t, views, r.steps),
        equityDiff: round(r.result.equity - best),
        ...estimateView(r.result),
      })),
    };
  }
}

function estimateView(r: RolloutResult): RolloutEstimateView {
  return {
    probabilities: probabilitiesView(r.probabilities),
    standardErrors: probabilitiesView(r.standardErrors),
    equity: round(r.equity),
    equityStandardError: round(r.equityStandardError),
    trials: r.trials,
    truncatedTrials: r.truncatedTrials,
    stoppedBy: r.stoppedBy,
  };
}

function cubeView(d: CubeDecision, efficiency: number): CubeDecisionView {
  const view: CubeDecisionView = {
    action: d.action,
    response: d.response,
    equity: round(d.equity),
    noDouble: round(d.noDouble),
    doubleTake: round(d.doubleTake),
    doublePass: round(d.doublePass),
    cubeless: round(d.cubeless),
    efficiency: round(efficiency),
  };
  if (d.matchWinningChances) {
    const m = d.matchWinningChances;
    view.matchWinningChances = { cubeless: round(m.cubeless), noDouble: round(m.noDouble), doubleTake: round(m.doubleTake), doublePass: round(m.doublePass) };
  }
  return view;
}
