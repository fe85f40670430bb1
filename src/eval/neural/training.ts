import { flipInPlace } from '../probabilities';

/**
 * TD(λ) targets of one game, in the forward view (λ-returns), for the
 * positions where a side was about to roll, in order:
 *
 *   G_t = (1 − λ) · u_t + λ · G_{t+1}   (G_{t+1} seen from the side to move at t)
 *   G_last = u_last
 *
 * where `u_t` (`after[5t …]`) is the value, for the side to move at t, of
 * the position its chosen play led to — the network's evaluation of the
 * next position flipped, or the final result when the play ended the game.
 * λ = 0 is TD(0) (learn from the next evaluation); λ = 1 is Monte Carlo
 * (learn from the result). `movers[t]` tells which side moved at t, so
 * consecutive positions of the same side (a re-roll) are not flipped.
 *
 * Returns a fresh `5 × positions` array of probabilities.
 */
export function tdTargets(after: Float64Array, movers: Int8Array, lambda: number): Float64Array {
  const n = movers.length;
  if (after.length !== 5 * n) throw new RangeError('after must hold 5 numbers per position');
  const targets = new Float64Array(5 * n);
  const carried = new Float64Array(5);
  for (let t = n - 1; t >= 0; t--) {
    const o = 5 * t;
    if (t === n - 1) {
      for (let i = 0; i < 5; i++) targets[o + i] = after[o + i];
    } else {
      for (let i = 0; i < 5; i++) carried[i] = targets[o + 5 + i];
      if (movers[t + 1] !== movers[t]) flipInPlace(carried, 0);
      for (let i = 0; i < 5; i++) targets[o + i] = (1 - lambda) * after[o + i] + lambda * carried[i];
    }
  }
  return targets;
}
