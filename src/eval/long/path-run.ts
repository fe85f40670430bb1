/**
 * The longest run of points a side holds along the **other** side's path,
 * as the six-block rule measures it (LN-BLOCK-1): the other side's own
 * points 1..24 in a row, no wrap; the side holds his point r when
 * `own[offset + otherPoint(r)] > 0` (COM-5: r ± 12). Returns `length * 32 + top`, where
 * `top` is the run's highest point in the other side's numbering (0 when
 * nothing is held); packed so that the hot paths allocate nothing.
 */
export function longestRunOnPath(own: ArrayLike<number>, offset: number): number {
  let run = 0;
  let longest = 0;
  let top = 0;
  for (let r = 1; r <= 24; r++) {
    // COM-5: his point r is our r ± 12.
    if (own[offset + (r <= 12 ? r + 12 : r - 12)] > 0) {
      run++;
      if (run > longest) {
        longest = run;
        top = r;
      }
    } else run = 0;
  }
  return longest * 32 + top;
}
