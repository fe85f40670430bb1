/** A sparse input vector: `count` pairs (`index[i]`, `value[i]`), indices increasing, values non-zero. */
export interface SparseInput {
  readonly index: Int32Array;
  readonly value: Float64Array;
  count: number;
}

/** A sparse input buffer able to hold every input of a network with `inputs` inputs. */
export function sparseInput(inputs: number): SparseInput {
  return { index: new Int32Array(inputs), value: new Float64Array(inputs), count: 0 };
}
