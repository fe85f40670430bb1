/**
 * Weighted logistic regression with soft targets and an L2 penalty, solved
 * by Newton's method (iteratively reweighted least squares). Used by the
 * scripts that fit the linear evaluators' weights; not part of the service.
 *
 * Minimises Σ c_i · CE(t_i, σ(w·x_i)) + λ/2 · |w|² (the bias, feature 0 by
 * convention of the callers, is penalised too but lightly).
 */
export interface LogisticData {
  readonly rows: readonly Float64Array[];
  readonly targets: Float64Array;
  readonly weights: Float64Array;
}

function sigmoid(z: number): number {
  if (z > 30) return 1;
  if (z < -30) return 0;
  return 1 / (1 + Math.exp(-z));
}

/** Solves A x = b for a symmetric positive definite A (Cholesky), in place on copies. */
function solveSpd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
      if (i === j) l[i * n + i] = Math.sqrt(Math.max(s, 1e-12));
      else l[i * n + j] = s / l[j * n + j];
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * n + k] * y[k];
    y[i] = s / l[i * n + i];
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= l[k * n + i] * x[k];
    x[i] = s / l[i * n + i];
  }
  return x;
}

/** Fits one logistic head; returns the weight vector. */
export function fitLogistic(data: LogisticData, features: number, lambda = 1, iterations = 12, start?: Float64Array): Float64Array {
  const w = start ? Float64Array.from(start) : new Float64Array(features);
  const n = features;
  const nonzero: Int32Array[] = data.rows.map((row) => {
    const idx: number[] = [];
    for (let i = 0; i < n; i++) if (row[i] !== 0) idx.push(i);
    return Int32Array.from(idx);
  });
  for (let it = 0; it < iterations; it++) {
    const grad = new Float64Array(n);
    const hess = new Float64Array(n * n);
    let loss = 0;
    for (let r = 0; r < data.rows.length; r++) {
      const c = data.weights[r];
      if (c <= 0) continue;
      const x = data.rows[r];
      const idx = nonzero[r];
      let z = 0;
      for (let k = 0; k < idx.length; k++) z += w[idx[k]] * x[idx[k]];
      const p = sigmoid(z);
      const t = data.targets[r];
      loss -= c * (t * Math.log(Math.max(p, 1e-12)) + (1 - t) * Math.log(Math.max(1 - p, 1e-12)));
      const g = c * (p - t);
      const h = c * Math.max(p * (1 - p), 1e-6);
      for (let a = 0; a < idx.length; a++) {
        const i = idx[a];
        const xi = x[i];
        grad[i] += g * xi;
        const hx = h * xi;
        const rowBase = i * n;
        for (let b = 0; b <= a; b++) {
          const j = idx[b];
          hess[rowBase + j] += hx * x[j];
        }
      }
    }
    // Symmetrise (only i ≥ j was filled, in index order), add the penalty.
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < i; j++) {
        const v = hess[i * n + j] + hess[j * n + i];
        hess[i * n + j] = v;
        hess[j * n + i] = v;
      }
      hess[i * n + i] += lambda;
      grad[i] += lambda * w[i];
    }
    const step = solveSpd(hess, grad, n);
    let size = 0;
    for (let i = 0; i < n; i++) {
      w[i] -= step[i];
      size = Math.max(size, Math.abs(step[i]));
    }
    if (process.env.FIT_VERBOSE) console.log(`  iteration ${it}: loss ${loss.toFixed(2)}, step ${size.toExponential(2)}`);
    if (size < 1e-6) break;
  }
  return w;
}
