import { randomInt } from 'crypto';
import { Dice, parseDice } from '../../engine/dice';
import { CubeConfig, CubeState, parseCubeState } from '../../engine/scoring/cube';
import { MatchState, parseMatchState } from '../../engine/scoring/match';
import { Side, otherSide } from '../../engine/side';
import { Step } from '../../engine/step';
import { KeepPlay, PositionEvaluation, cubeDecisionOf, cubeEfficiencyOf } from '../../eval/analysis';
import { EvalFamily, FamilyAnalyzer, withEvalFamily } from '../../eval/family';
import { CubeDecision, CubeOwner, CubeSituation } from '../../eval/cube/decision';
import { Evaluator } from '../../eval/evaluator';
import { ROOT_FILTER, bestTurnFilters, SearchAborted, SearchBudget } from '../../eval/search-options';
import { OutcomeValues } from '../../eval/equity';
import { Probabilities } from '../../eval/probabilities';
import { RolloutOptions, RolloutResult, RolloutTrials, rolloutTrials, rolloutTurns, summarizeRollout } from '../../eval/neural/rollout';
import { ServiceError, fail } from '../errors';
import { Bound } from '../../engine/family';
import { Body, bindNamed, rulesHash } from '../request';
import { ANALYSIS_LIMITS } from '../../limits';
import { TurnView } from '../views';
import { BestMovesRequest, EvaluateBatchRequest, EvaluateRequest, RolloutRequest } from '../../contract/requests';
import { AnalysisOperation, evaluateCost, moveListCost, rolloutCost } from './cost';
import { Analyzers } from './evaluators';
import {
  BatchItemView,
  BestMovesView,
  CubeDecisionView,
  EvaluationView,
  EvaluatorView,
  ProbabilitiesView,
  RankedTurnView,
  RolloutEstimateView,
  RolloutSettingsView,
  RolloutView,
} from './views';

/**
 * A best-moves request from inside the service: `keep`, the position ID after a play (a turn's
 * `positionId`), has that play searched at the full depth whatever the root filter says, as gnubg's
 * analysis keeps the play made (match analysis). Not part of the public request.
 */
export type BestMovesQuery = BestMovesRequest & { readonly keep?: string };

/**
 * The request of each operation as openapi.yaml has it: the transports
 * validate it before it comes here (fields, types, ranges: nothing of its
 * shape is checked again here); what the schema cannot say (the rules,
 * the position, the cube of the variant, the batch's 2-ply share) is
 * checked by `prepare`.
 */
export interface AnalysisRequests {
  readonly evaluate: EvaluateRequest;
  readonly best: BestMovesQuery;
  readonly rollout: RolloutRequest;
  readonly batch: EvaluateBatchRequest;
}

/** The request of one position's analysis (a batch item is an `evaluate`). */
export type PositionRequest = AnalysisRequests['evaluate' | 'best' | 'rollout'];

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

function probabilitiesView(p: Probabilities): ProbabilitiesView {
  return { win: round(p.win), winMars: round(p.winMars), winKoks: round(p.winKoks), loseMars: round(p.loseMars), loseKoks: round(p.loseKoks) };
}

function stepsKey(steps: readonly Step[]): string {
  return steps.map((s) => `${s.from}/${s.to}`).join(' ');
}

/** The legal turns of a request: its stage and each turn's view, keyed by its canonical steps. */
interface LegalViews {
  readonly stage: BestMovesView['stage'];
  readonly views: Map<string, TurnView>;
}

/** Milliseconds since the epoch with sub-millisecond precision: the same clock in every thread (deadlines cross threads). */
export function epochClock(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * A request bound to its variant, with its state and analyzer: the family
 * was picked once, by the binding (`withEvalFamily`); everything below
 * reaches it through `bound.family` (rules), `family` (evaluation) and
 * `analyzer`, at the family's own types `R` and `S`.
 */
interface FamilyTarget<R, S> {
  readonly bound: Bound<R, S>;
  readonly family: EvalFamily<R, S>;
  readonly state: S;
  readonly analyzer: FamilyAnalyzer<S>;
  readonly dice?: Dice;
}

/** A target whose family types are opaque: the family only gets back the states it made. */
type Target = FamilyTarget<unknown, unknown>;

/**
 * How one analysis runs: `deadline` (milliseconds of the engine's clock) is
 * the end of the request's budget, counted from its arrival so that time
 * spent waiting for a worker counts against it; `aborted` turns true when
 * the caller has given up (its client left), and the search then stops
 * within a few milliseconds.
 */
export interface RunControl {
  readonly deadline: number;
  readonly aborted: () => boolean;
}

/** A request read and checked, priced in network evaluations, ready to run (here or in a worker). */
export interface PreparedAnalysis {
  readonly op: AnalysisOperation;
  /** The request as it came (a worker reads it again). */
  readonly input: PositionRequest;
  /** Estimated network evaluations (cost.ts). */
  readonly cost: number;
  /** The hot-cache key of a deterministic answer; null when the answer is not cached (rollouts). */
  readonly cacheKey: string | null;
  /** `strict: true`: a shallower answer than asked is an error (ANALYSIS_TIMEOUT) instead. */
  readonly strict: boolean;
  /** A rollout's own time budget in milliseconds (0 for the searches, whose budget is ANALYSIS_BUDGET_MS). */
  readonly timeBudgetMs: number;
  /** Runs the analysis in this thread. */
  readonly run: (control: RunControl) => unknown;
  /** A rollout of one position (no dice): its trials can be played in ranges on several workers (service.ts). */
  readonly split?: RolloutSplit;
}

/**
 * A rollout played in ranges of trials: `play` plays one range (in a
 * worker, from the request with `seed` fixed), `answer` builds the answer
 * from the ranges merged in trial order (`mergeRolloutTrials`), as `run`
 * would have answered.
 */
export interface RolloutSplit {
  readonly trials: number;
  /** The rollout's seed (drawn when the request gave none): every range must use it. */
  readonly seed: number;
  readonly play: (range: { readonly firstTrial: number; readonly trials: number }, control: RunControl) => RolloutTrials;
  readonly answer: (merged: RolloutTrials) => RolloutView;
}

/** A batch item: the item's prepared evaluation, or its own error. */
export type PreparedItem = { readonly ok: true; readonly prepared: PreparedAnalysis } | { readonly ok: false; readonly error: BatchItemView['error'] };

function timedOut(what: string): never {
  fail('ANALYSIS_TIMEOUT', `${what} did not finish within its budget, and the request is strict`, { field: 'strict' });
}

/** Runs `work`, turning a search its caller gave up on into ANALYSIS_CANCELLED. */
function cancellable<T>(work: () => T): T {
  try {
    return work();
  } catch (e) {
    if (e instanceof SearchAborted) fail('ANALYSIS_CANCELLED', 'the analysis was cancelled: its client went away');
    throw e;
  }
}

/** A batch item's error, its field named inside the batch. */
export function batchItemError(e: ServiceError, index: number): NonNullable<BatchItemView['error']> {
  const { code, message, field, rule } = e.body;
  const error: NonNullable<BatchItemView['error']> = { code, message };
  if (field !== undefined) error.field = `positions[${index}]${field ? `.${field}` : ''}`;
  if (rule !== undefined) error.rule = rule;
  return error;
}

/** The cube of an evaluation request, as the evaluator's situation. */
interface CubeRequest {
  readonly situation: CubeSituation;
  /** For the cache key. */
  readonly key: string;
}

/**
 * Position analysis, one request at a time and without I/O: it reads and
 * prices a request (`prepare`, in the request thread) and runs it (in the
 * request thread for cheap requests, in a worker thread for the others —
 * see service.ts and pool.ts): evaluation with cube decisions, ranked best
 * turns and rollouts, for every preset of both families. Analyzers keep
 * scratch buffers, so one engine runs one analysis at a time; each worker
 * thread has its own.
 */
export class AnalysisEngine {
  private readonly searchBudgetMs: number;
  readonly clock: () => number;

  constructor(
    private readonly analyzers: Analyzers,
    options: { searchBudgetMs?: number; clock?: () => number } = {},
  ) {
    this.searchBudgetMs = options.searchBudgetMs ?? ANALYSIS_LIMITS.defaultSearchBudgetMs;
    this.clock = options.clock ?? epochClock;
  }

  /** Milliseconds of one search's budget (ANALYSIS_BUDGET_MS). */
  get budgetMs(): number {
    return this.searchBudgetMs;
  }

  /** The budget of a search starting now, not past the request's deadline. */
  private budget(control: RunControl): SearchBudget {
    return { clock: this.clock, deadline: Math.min(this.clock() + this.searchBudgetMs, control.deadline), aborted: control.aborted };
  }

  /** The evaluator kind in use (`neural`, `heuristic`, `fake`). */
  get kind(): string {
    return this.analyzers.evaluators.kind;
  }

  private target(body: Body): Target {
    return withEvalFamily(bindNamed(body.variant, body.rules), <R, S>(bound: Bound<R, S>, family: EvalFamily<R, S>): Target => {
      const parsed = this.stateOf(bound, body);
      return { bound, family, state: parsed.state, analyzer: this.analyzers.of(bound, family), dice: parsed.dice };
    });
  }

  /** The request's state, and its dice (given, or carried by a gnubg Match ID). */
  private stateOf<R, S>(bound: Bound<R, S>, body: Body): { state: S; dice?: Dice } {
    const parsed = bound.family.parseState(bound.rules, body);
    if (!parsed.ok) throw ServiceError.from(parsed.error);
    let dice = parsed.value.dice;
    if (body.dice !== undefined && body.dice !== null) {
      const d = parseDice(body.dice);
      if (!d.ok) throw ServiceError.from(d.error);
      dice = d.value;
    }
    return { state: parsed.value.state, dice };
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
    const refused = t.analyzer.cubeError(t.state);
    if (refused) throw ServiceError.from(refused);
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

  private evaluateTarget(t: Target, plies: number, cube: CubeRequest | null, control: RunControl, strict: boolean): EvaluationView {
    const budget = this.budget(control);
    const e = cancellable(() => t.analyzer.evaluateWithin(t.state, plies, budget));
    if (!e.ok) throw ServiceError.from(e.error);
    if (strict && e.value.plies < plies) timedOut(`the ${plies}-ply evaluation`);
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

  /**
   * Reads and prices a request (`POST /v1/evaluate`, `/v1/moves/best`,
   * `/v1/rollout`; a batch item is an `evaluate`); throws a ServiceError
   * for a bad one. Cheap: it builds at most the move list.
   */
  prepare<O extends Exclude<AnalysisOperation, 'batch'>>(op: O, input: AnalysisRequests[O]): PreparedAnalysis {
    switch (op) {
      case 'evaluate':
        return this.prepareEvaluation(input as EvaluateRequest);
      case 'best':
        return this.prepareBest(input as BestMovesRequest);
      case 'rollout':
        return this.prepareRollout(input as RolloutRequest);
    }
  }

  /** The items of `POST /v1/evaluate/batch`, each prepared or with its own error. */
  prepareBatch(input: EvaluateBatchRequest): PreparedItem[] {
    // 1..64 positions is openapi.yaml's (minItems, maxItems); how many ask for 2 plies is not a shape it can state.
    const list = input.positions;
    const deep = list.filter((p) => p.plies === 2).length;
    if (deep > ANALYSIS_LIMITS.maxBatchTwoPly) {
      fail('INVALID_REQUEST', `at most ${ANALYSIS_LIMITS.maxBatchTwoPly} positions of a batch may ask for 2 plies`, { field: 'positions' });
    }
    return list.map((item, i): PreparedItem => {
      try {
        return { ok: true, prepared: this.prepare('evaluate', item) };
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        return { ok: false, error: batchItemError(e, i) };
      }
    });
  }

  /** The deadline of a batch's searches: they share a few single budgets; past them every position is answered at 0 ply. */
  batchDeadline(arrival: number): number {
    return arrival + ANALYSIS_LIMITS.batchBudgets * this.searchBudgetMs;
  }

  /** Runs evaluations of a batch in order; an item that fails gets its own error. */
  runBatch(items: readonly { readonly index: number; readonly prepared: PreparedAnalysis }[], control: RunControl): BatchItemView[] {
    return items.map(({ index, prepared }) => {
      try {
        return { index, evaluation: prepared.run(control) as EvaluationView };
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        return { index, error: batchItemError(e, index) };
      }
    });
  }

  private prepareEvaluation(input: EvaluateRequest): PreparedAnalysis {
    const t = this.target(input);
    const plies = input.plies ?? ANALYSIS_LIMITS.defaultPlies;
    const strict = input.strict === true;
    const cube = this.cubeRequest(t, input);
    return {
      op: 'evaluate',
      input,
      cost: evaluateCost(t.family.name, plies),
      cacheKey: this.evaluationKey(t, plies, cube),
      strict,
      timeBudgetMs: 0,
      run: (control) => this.evaluateTarget(t, plies, cube, control, strict),
    };
  }

  private prepareBest(input: BestMovesQuery): PreparedAnalysis {
    const t = this.target(input);
    const plies = input.plies ?? t.family.bestTurnPlies(t.bound.rules);
    const limit = input.limit ?? ANALYSIS_LIMITS.maxBestLimit;
    const strict = input.strict === true;
    const legal = this.turnViews(t);
    const keep = input.keep === undefined ? undefined : this.keptPlay(legal.views, input.keep);
    const e = t.analyzer.evaluator;
    return {
      op: 'best',
      input,
      cost: moveListCost(t.family.name, legal.views.size, plies, ROOT_FILTER.keep + (keep ? 1 : 0)),
      cacheKey: `best:${e.name}:${e.version}:${bestTurnFilters(t.family.name)}:${t.bound.variant.name}:${rulesHash(t.bound.rules)}:${t.bound.family.positionId(t.state)}:${t.dice ? t.dice.join('') : '-'}:${plies}:${limit}:${input.keep ?? '-'}`,
      strict,
      timeBudgetMs: 0,
      run: (control) => this.rank(t, legal, plies, limit, control, strict, keep),
    };
  }

  /** The play whose result is `positionIdAfter`, as the search picks it: by its canonical steps. */
  private keptPlay(views: Map<string, TurnView>, positionIdAfter: string): KeepPlay {
    for (const [key, view] of views) if (view.positionId === positionIdAfter) return (steps) => stepsKey(steps) === key;
    throw new Error(`no legal play leads to ${positionIdAfter}`);
  }

  /** The legal turns' views, keyed by their canonical steps. */
  private turnViews(t: Target): LegalViews {
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

  private rank(t: Target, legal: LegalViews, plies: number, limit: number, control: RunControl, strict: boolean, keep?: KeepPlay): BestMovesView {
    const { stage, views } = legal;
    const budget = this.budget(control);
    const ranked = cancellable(() => t.analyzer.rankTurnsWithin(t.state, t.dice, plies, budget, keep));
    if (!ranked.ok) throw ServiceError.from(ranked.error);
    if (strict && ranked.value.plies < plies) timedOut(`the ${plies}-ply ranking`);
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

  /** `POST /v1/rollout`: reads the settings; priced by trials, or by its time budget when that is smaller. */
  private prepareRollout(input: RolloutRequest): PreparedAnalysis {
    const t = this.target(input);
    const trials = input.trials ?? ANALYSIS_LIMITS.defaultTrials;
    const timeBudgetMs = input.timeBudgetMs ?? ANALYSIS_LIMITS.defaultTimeBudgetMs;
    const strict = input.strict === true;
    const settings: RolloutSettingsView = {
      trials,
      timeBudgetMs,
      seed: input.seed ?? randomInt(0, ANALYSIS_LIMITS.maxSeed),
      truncateAfter: input.truncateAfter ?? null,
      settleRaces: input.settleRaces === true,
      luckAdjust: input.luckAdjust === true,
    };
    // A finished game (or a state the rules cannot play) answers as /v1/evaluate does.
    const playable = t.analyzer.playable(t.state);
    if (!playable.ok) throw ServiceError.from(playable.error);
    const wholePosition = t.bound.family.needsDice(t.state) && !t.dice;
    const legal = wholePosition ? null : this.turnViews(t);
    return {
      op: 'rollout',
      input,
      cost: rolloutCost(t.family.name, {
        trials,
        starts: legal ? legal.views.size : 1,
        truncateAfter: settings.truncateAfter,
        luckAdjust: settings.luckAdjust,
        timeBudgetMs,
      }),
      cacheKey: null,
      strict,
      timeBudgetMs,
      run: (control) => this.runRollout(t, settings, legal, control, strict),
      ...(legal
        ? {}
        : {
            split: {
              trials,
              seed: settings.seed,
              play: (range, control) => rolloutTrials(this.rolloutStart(t), t.analyzer.evaluator, { ...this.rolloutOptions(t, settings, control), ...range }),
              answer: (merged) => this.rolloutAnswer(t, settings, merged, strict),
            } satisfies RolloutSplit,
          }),
    };
  }

  private rolloutStart(t: Target) {
    return t.family.rolloutStart(t.bound.rules, t.state);
  }

  /** The rollout's options, its time budget what is left until the deadline (split between `starts` positions). */
  private rolloutOptions(t: Target, settings: RolloutSettingsView, control: RunControl, starts = 1): RolloutOptions {
    const remaining = Math.max(1, Math.floor(control.deadline - this.clock()));
    return {
      trials: settings.trials,
      seed: settings.seed,
      timeBudgetMs: Math.max(1, Math.floor(remaining / Math.max(1, starts))),
      clock: this.clock,
      values: t.analyzer.values,
      settleRaces: settings.settleRaces,
      luckAdjust: settings.luckAdjust,
      aborted: control.aborted,
      ...(settings.truncateAfter !== null ? { truncateAfter: settings.truncateAfter } : {}),
    };
  }

  private rolloutBase(t: Target, settings: RolloutSettingsView): Omit<RolloutView, 'estimate' | 'turns'> {
    return {
      variant: t.bound.variant.name,
      positionId: t.bound.family.positionId(t.state),
      sideToMove: t.bound.family.sideToAct(t.state),
      evaluator: this.evaluatorView(t.analyzer.evaluator, 0),
      settings,
    };
  }

  /** The answer of a whole-position rollout from its trials (played here or merged from workers). */
  private rolloutAnswer(t: Target, settings: RolloutSettingsView, played: RolloutTrials, strict: boolean): RolloutView {
    const r = summarizeRollout(played);
    checkRollout(r, settings, strict);
    return { ...this.rolloutBase(t, settings), estimate: estimateView(r) };
  }

  /**
   * Monte Carlo rollouts with the evaluator playing both sides at 0 ply
   * (stratified first two rolls), bounded by `trials` and the time budget
   * (counted from the request's arrival). Without dice: the position before
   * the roll; with dice (or a pending stage): every legal turn, the budget
   * shared between them. Not cached: an answer depends on its budget and seed.
   */
  private runRollout(t: Target, settings: RolloutSettingsView, legal: LegalViews | null, control: RunControl, strict: boolean): RolloutView {
    if (!legal) return this.rolloutAnswer(t, settings, rolloutTrials(this.rolloutStart(t), t.analyzer.evaluator, this.rolloutOptions(t, settings, control)), strict);
    const { stage, views } = legal;
    const dice = t.bound.family.needsDice(t.state) ? t.dice : undefined;
    const answer = rolloutTurns(this.rolloutStart(t), dice, t.analyzer.evaluator, this.rolloutOptions(t, settings, control, views.size));
    if (!answer.ok) throw ServiceError.from(answer.error);
    for (const r of answer.value) checkRollout(r.result, settings, strict);
    const sorted = [...answer.value].sort((a, b) => b.result.equity - a.result.equity);
    const best = sorted.length > 0 ? sorted[0].result.equity : 0;
    return {
      ...this.rolloutBase(t, settings),
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

/** A rollout its caller left is cancelled; one cut short by its budget is an error when the request is strict. */
function checkRollout(r: RolloutResult, settings: RolloutSettingsView, strict: boolean): void {
  if (r.stoppedBy === 'cancelled') fail('ANALYSIS_CANCELLED', 'the rollout was cancelled: its client went away');
  if (strict && r.stoppedBy === 'time') timedOut(`the rollout of ${settings.trials} trials`);
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
