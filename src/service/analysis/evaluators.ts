import { LongRules } from '../../engine/long/rules';
import { ShortRules } from '../../engine/short/rules';
import { LongAnalyzer, ShortAnalyzer, createLongAnalyzer, createShortAnalyzer } from '../../eval/analysis';
import { TranspositionTable } from '../../eval/transpositions';
import { Evaluator } from '../../eval/evaluator';

/**
 * Where the analysis service gets its evaluators: one per family and rules
 * object (the long family's outcome values and bear-off rule set depend on
 * the preset). The production set reads the committed networks and bear-off
 * databases (data.ts); `Analyzers` asks for one evaluator per rules object
 * and keeps it; tests inject `createFakeEvaluator` through the same
 * interface, so API answers are exact.
 */
export interface EvaluatorSet {
  /** `neural`, `heuristic`, `fake`, …: logged at start-up. */
  readonly kind: string;
  short(rules: Readonly<ShortRules>): Evaluator;
  /** `preset`: the variant's name (a preset may have its own network). */
  long(rules: Readonly<LongRules>, preset: string): Evaluator;
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
  private readonly shorts = new Map<string, ShortAnalyzer>();
  private readonly longs = new Map<string, LongAnalyzer>();
  /** One transposition table for every search of this thread (they run one at a time). */
  private readonly transpositions = new TranspositionTable();

  constructor(readonly evaluators: EvaluatorSet) {}

  short(rules: Readonly<ShortRules>): ShortAnalyzer {
    const key = JSON.stringify(rules);
    let a = this.shorts.get(key);
    if (!a) {
      if (this.shorts.size >= MAX_ANALYZERS) this.shorts.clear();
      a = createShortAnalyzer(rules, { evaluator: this.evaluators.short(rules), transpositions: this.transpositions });
      this.shorts.set(key, a);
    }
    return a;
  }

  long(rules: Readonly<LongRules>, preset: string): LongAnalyzer {
    const key = `${preset} ${JSON.stringify(rules)}`;
    let a = this.longs.get(key);
    if (!a) {
      if (this.longs.size >= MAX_ANALYZERS) this.longs.clear();
      a = createLongAnalyzer(rules, { evaluator: this.evaluators.long(rules, preset), transpositions: this.transpositions });
      this.longs.set(key, a);
    }
    return a;
  }
}
