import { Bound } from '../../engine/family';
import { LongRules } from '../../engine/long/rules';
import { ShortRules } from '../../engine/short/rules';
import { LongAnalyzer, ShortAnalyzer, createLongAnalyzer, createShortAnalyzer } from '../../eval/analysis';
import { EvalFamily, FamilyAnalyzer, FamilyEvaluators } from '../../eval/family';
import { TranspositionTable } from '../../eval/transpositions';

/**
 * Where the analysis service gets its evaluators: one per family and rules
 * object (the long family's outcome values and bear-off rule set depend on
 * the preset). The production set reads the committed networks and bear-off
 * databases (data.ts); `Analyzers` asks for one evaluator per rules object
 * and keeps it; tests inject `createFakeEvaluator` through the same
 * interface, so API answers are exact.
 */
export interface EvaluatorSet extends FamilyEvaluators {
  /** `neural`, `heuristic`, `fake`, …: logged at start-up. */
  readonly kind: string;
  /** Loads whatever the set loads lazily (the service calls it at start-up; errors surface there). */
  preload?(): void;
}

/** Most distinct rules objects whose analyzers are kept (rule overrides make new ones). */
const MAX_ANALYZERS = 64;

/**
 * Analyzers (evaluator + search + cube) per family and effective rules, made
 * on first use and kept. Analyzers reuse scratch buffers; a Node process
 * runs one request's analysis at a time, so sharing them is safe.
 */
export class Analyzers {
  private readonly kept = new Map<string, unknown>();
  /** One transposition table for every search of this thread (they run one at a time). */
  private readonly transpositions = new TranspositionTable();

  constructor(readonly evaluators: EvaluatorSet) {}

  /** The analyzer kept under `key`, made by `make` on first use. */
  private keep<A>(key: string, make: () => A): A {
    const hit = this.kept.get(key);
    if (hit) return hit as A;
    if (this.kept.size >= MAX_ANALYZERS) this.kept.clear();
    const made = make();
    this.kept.set(key, made);
    return made;
  }

  /** The analyzer of a binding, through its family's evaluation side (`withEvalFamily`). */
  of<R, S>(bound: Bound<R, S>, family: EvalFamily<R, S>): FamilyAnalyzer<S> {
    return this.keep(`${family.name} ${bound.variant.name} ${JSON.stringify(bound.rules)}`, () =>
      family.createAnalyzer(bound.rules, {
        evaluator: family.evaluatorOf(this.evaluators, bound.rules, bound.variant.name),
        transpositions: this.transpositions,
      }),
    );
  }

  short(rules: Readonly<ShortRules>): ShortAnalyzer {
    return this.keep(`short ${JSON.stringify(rules)}`, () =>
      createShortAnalyzer(rules, { evaluator: this.evaluators.short(rules), transpositions: this.transpositions }),
    );
  }

  long(rules: Readonly<LongRules>, preset: string): LongAnalyzer {
    return this.keep(`long ${preset} ${JSON.stringify(rules)}`, () =>
      createLongAnalyzer(rules, { evaluator: this.evaluators.long(rules, preset), transpositions: this.transpositions }),
    );
  }
}
