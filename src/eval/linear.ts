import { EvaluatorCore, Family, FamilyLayers, layeredEvaluateInto } from './evaluator';

/**
 * The five logistic heads of a linear evaluator, each a weight vector over
 * the same features:
 * 0. P(win);
 * 1. P(win mars | win);   2. P(win koks | win mars);
 * 3. P(lose mars | lose); 4. P(lose koks | lose mars).
 * Chaining conditional probabilities keeps `koks ≤ mars ≤ win` by construction.
 */
export const HEADS = 5;

/** Weights of a linear evaluator: `HEADS × features`, head-major. */
export interface LinearWeights {
  readonly features: number;
  readonly weights: Float64Array;
}

/** Weights laid out for the hot path: feature-major (the five heads of a feature side by side). */
export interface PreparedLinear {
  readonly features: number;
  readonly byFeature: Float64Array;
  /** Which heads are used (a result the scoring does not have gives 0). */
  readonly enabled: Uint8Array;
}

/** Prepares head-major weights for `linearProbabilities`. */
export function prepareLinear(model: LinearWeights, enabled: readonly boolean[] = [true, true, true, true, true]): PreparedLinear {
  const n = model.features;
  const byFeature = new Float64Array(n * HEADS);
  for (let h = 0; h < HEADS; h++) for (let i = 0; i < n; i++) byFeature[i * HEADS + h] = model.weights[h * n + i];
  return { features: n, byFeature, enabled: Uint8Array.from(enabled.map((e) => (e ? 1 : 0))) };
}

function sigmoid(z: number): number {
  if (z > 30) return 1;
  if (z < -30) return 0;
  return 1 / (1 + Math.exp(-z));
}

/**
 * Evaluates the heads on a feature vector and writes the five
 * probabilities of the side to move into `out[offset …]` (win, winMars,
 * winKoks, loseMars, loseKoks). Skips zero features (most of a raw point
 * encoding). Allocation-free.
 */
export function linearProbabilities(model: PreparedLinear, features: Float64Array, out: Float64Array, offset: number): void {
  const n = model.features;
  const w = model.byFeature;
  let z0 = 0;
  let z1 = 0;
  let z2 = 0;
  let z3 = 0;
  let z4 = 0;
  for (let i = 0; i < n; i++) {
    const f = features[i];
    if (f === 0) continue;
    const k = i * 5;
    z0 += w[k] * f;
    z1 += w[k + 1] * f;
    z2 += w[k + 2] * f;
    z3 += w[k + 3] * f;
    z4 += w[k + 4] * f;
  }
  const on = model.enabled;
  const win = sigmoid(z0);
  const winMars = on[1] ? win * sigmoid(z1) : 0;
  const winKoks = on[2] ? winMars * sigmoid(z2) : 0;
  const loseMars = on[3] ? (1 - win) * sigmoid(z3) : 0;
  const loseKoks = on[4] ? loseMars * sigmoid(z4) : 0;
  // Slots of probabilities.ts (win, winMars, winKoks, loseMars, loseKoks), literal for the hot path.
  out[offset] = win;
  out[offset + 1] = winMars;
  out[offset + 2] = winKoks;
  out[offset + 3] = loseMars;
  out[offset + 4] = loseKoks;
}

/**
 * The core of a heuristic evaluator: the family's layers (terminal result,
 * race), then the linear heads over the features `featuresInto` writes.
 */
export function linearEvaluatorCore<F extends Family, R extends FamilyLayers['race']>(
  family: F,
  name: string,
  version: string,
  layers: FamilyLayers<R>,
  model: PreparedLinear,
  featuresInto: (board: Int8Array, features: Float64Array) => void,
): EvaluatorCore & { readonly family: F; readonly race: R; isRace(board: Int8Array): boolean } {
  const features = new Float64Array(model.features);
  const evaluateInto = layeredEvaluateInto(layers, (board, out, offset) => {
    featuresInto(board, features);
    linearProbabilities(model, features, out, offset);
  });
  return { family, name, version, race: layers.race, isRace: layers.isRace, evaluateInto };
}
