import type { Family } from './evaluator';

/**
 * Move filtering of the n-ply search (after gnubg's move filters): when a
 * position is looked at deeper, every legal turn is first scored at 0 ply,
 * then only the best `keep` turns whose 0-ply equity is within `window` of
 * the best are searched deeper; the others keep their 0-ply score.
 */
export interface MoveFilter {
  /** At most this many candidates are searched deeper (≥ 1). */
  readonly keep: number;
  /** Equity window below the best 0-ply candidate (cubeless, per unit stake). */
  readonly window: number;
}

/** Search settings. */
export interface SearchSettings {
  /** Plies of lookahead, 0…2 (gnubg's counting: 0 = static evaluation of the results). */
  readonly plies: number;
  /** Filter at the root (ranking the legal turns of a roll). */
  readonly rootFilter: MoveFilter;
  /** Filter inside the tree (choosing a turn for each roll of a deeper node). */
  readonly innerFilter: MoveFilter;
  /**
   * At 2 plies: the candidates that pass the root filter are first searched
   * at 1 ply, and only those that pass this filter by their 1-ply equity go
   * on to 2 plies (gnubg's move-filter cascade); null: all of them go
   * straight to 2 plies.
   */
  readonly stepFilter: MoveFilter | null;
}

/** gnubg's default for best-move analysis: 8 candidates within 0.16. */
export const ROOT_FILTER: MoveFilter = Object.freeze({ keep: 8, window: 0.16 });
/**
 * Inside the tree of a best-turn search: each roll's play chosen at 0 ply
 * (gnubg's). Keeping the 2 best within 0.04 instead cost about 1.4× the
 * 2-ply time for one best turn in 100 (docs/benchmarks.md, "Root move filter").
 */
export const INNER_FILTER: MoveFilter = Object.freeze({ keep: 1, window: 0 });
/**
 * Inside the tree of a position evaluation (`evaluate` at 2 plies): the 2
 * best within 0.04 — there the value itself is the answer, and choosing at
 * 0 ply doubles its error (docs/benchmarks.md, "Inner move filter").
 */
export const POSITION_INNER_FILTER: MoveFilter = Object.freeze({ keep: 2, window: 0.04 });

/**
 * At 2 plies, between the root filter and the 2-ply search, by family: in
 * backgammon the root's candidates are searched at 1 ply first and the
 * best 3 within 0.06 of them go on to 2 plies; in long nardy all go
 * straight to 2 plies, where the cascade saved less and gave up more
 * (docs/benchmarks.md, "Root move filter").
 */
export const STEP_FILTERS: Readonly<Record<Family, MoveFilter | null>> = Object.freeze({
  short: Object.freeze({ keep: 3, window: 0.06 }),
  long: null,
});

/** The best-turn search of a family's analyses at `plies` (the service's): the default filters and that family's step filter. */
export function bestTurnSettings(family: Family, plies: number): SearchSettings {
  return searchSettings(plies, ROOT_FILTER, INNER_FILTER, STEP_FILTERS[family]);
}

/**
 * The filters of a family's best-turn search as a tag (`root-8-0.16-step-3-0.06-inner-1-0`), for
 * cache keys: answers searched with other filters are never served for these.
 */
export function bestTurnFilters(family: Family): string {
  const step = STEP_FILTERS[family];
  return [
    `root-${ROOT_FILTER.keep}-${ROOT_FILTER.window}`,
    step ? `step-${step.keep}-${step.window}` : 'step-none',
    `inner-${INNER_FILTER.keep}-${INNER_FILTER.window}`,
  ].join('-');
}

/** Settings for `plies` with the default filters. */
export function searchSettings(
  plies: number,
  rootFilter: MoveFilter = ROOT_FILTER,
  innerFilter: MoveFilter = INNER_FILTER,
  stepFilter: MoveFilter | null = null,
): SearchSettings {
  if (!Number.isInteger(plies) || plies < 0 || plies > 2) throw new RangeError('plies must be 0, 1 or 2');
  return { plies, rootFilter, innerFilter, stepFilter };
}

/**
 * A wall-clock budget for a search (the core stays pure: the caller gives
 * the clock). The search looks at the clock every few hundred nodes and
 * throws `SearchBudgetExceeded` once `deadline` has passed; the analyzers
 * then answer at fewer plies (analysis.ts).
 */
export interface SearchBudget {
  /** Milliseconds, e.g. `performance.now`. */
  readonly clock: () => number;
  /** `clock()` value after which the search gives up. */
  readonly deadline: number;
  /**
   * True once the caller has given up on the answer (its client left): the
   * search then stops with `SearchAborted` instead of answering shallower.
   */
  readonly aborted?: () => boolean;
}

/** Thrown by a search whose budget ran out. */
export class SearchBudgetExceeded extends Error {
  constructor() {
    super('search budget exceeded');
    this.name = 'SearchBudgetExceeded';
  }
}

/** Thrown by a search whose caller gave up on it (`SearchBudget.aborted`). */
export class SearchAborted extends Error {
  constructor() {
    super('search aborted');
    this.name = 'SearchAborted';
  }
}

/** Node counter shared by the searches: checks the budget every 256 nodes (a few milliseconds of work). */
export class BudgetGuard {
  private budget: SearchBudget | null = null;
  private ticks = 0;

  set(budget: SearchBudget | null): void {
    this.budget = budget;
    this.ticks = 0;
  }

  /** Call at every search node. */
  tick(): void {
    if (this.budget === null || (++this.ticks & 255) !== 0) return;
    if (this.budget.aborted?.()) throw new SearchAborted();
    if (this.budget.clock() > this.budget.deadline) throw new SearchBudgetExceeded();
  }
}
