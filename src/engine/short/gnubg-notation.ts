import { BAR, OFF, Step } from '../step';

/**
 * gnubg's move text, e.g. `24/13`, `24/18*\/13`, `8/5(2) 6/5`, `bar/22*`,
 * `6/off`.
 *
 * Unlike `makeNotation` (the service default, which keeps every
 * intermediate point: `24/18/13`), gnubg joins one checker's steps into a
 * single move and writes an intermediate point only where a blot was hit
 * there. The rules, as observed on gnubg 1.07's output:
 * - the steps are ordered by source point, highest first (then by landing
 *   point, highest first);
 * - a step whose source is the landing point of an earlier move continues
 *   that move (the earliest such move wins);
 * - an intermediate point is written only where the play hit a blot;
 * - moves with the same source and the same final landing point are
 *   written once with a count, `8/5(2)`; the written order follows the
 *   sorted steps;
 * - a hit is marked `*` once, on the first written move that reaches the
 *   point (`bar/20* 24/20`, `7/1*(2)`).
 * Checked against the `text` of all 37,423 moves of the gnubg oracle.
 * @param steps the play in the mover's own numbering (25 = bar, 0 = off)
 * @param hits per step, whether it hit (as returned with legal turns)
 */
export function makeGnubgNotation(steps: readonly Step[], hits: readonly boolean[] = []): string {
  // Points as bits (1..24; bar and off never hold a hit blot): where the play hit, and where a hit is written.
  let hitPoints = 0;
  for (let i = 0; i < steps.length; i++) if (hits[i] && steps[i].to !== OFF) hitPoints |= 1 << steps[i].to;
  // The steps by source, highest first, then by landing, highest first (a stable insertion sort).
  const n = steps.length;
  const from: number[] = new Array<number>(n);
  const to: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    let k = i;
    const f = steps[i].from;
    const t = steps[i].to;
    while (k > 0 && (from[k - 1] < f || (from[k - 1] === f && to[k - 1] < t))) {
      from[k] = from[k - 1];
      to[k] = to[k - 1];
      k--;
    }
    from[k] = f;
    to[k] = t;
  }
  // One checker's steps joined into moves: a step from the landing point of an earlier move continues it.
  const moveFrom: number[] = [];
  const moveTo: number[] = [];
  const moveVia: number[][] = [];
  const used = new Array<boolean>(n).fill(false);
  for (let i = 0; i < n; i++) {
    if (used[i]) continue;
    used[i] = true;
    let end = to[i];
    const via: number[] = [];
    for (let j = i + 1; j < n; j++) {
      if (used[j] || from[j] !== end || end === OFF) continue;
      if (hitPoints & (1 << end)) via.push(end);
      end = to[j];
      used[j] = true;
    }
    moveFrom.push(from[i]);
    moveTo.push(end);
    moveVia.push(via);
  }
  // Equal moves (same source, same final landing) grouped in order of first appearance.
  const group: number[] = [];
  const count: number[] = [];
  for (let m = 0; m < moveFrom.length; m++) {
    let g = 0;
    while (g < group.length && !(moveFrom[group[g]] === moveFrom[m] && moveTo[group[g]] === moveTo[m])) g++;
    if (g < group.length) count[g]++;
    else {
      group.push(m);
      count.push(1);
    }
  }
  // A hit is marked once, on the first move (in written order) that reaches the point.
  let marked = 0;
  const mark = (p: number): string => {
    const bit = 1 << p;
    if (p === OFF || p === BAR || !(hitPoints & bit) || marked & bit) return pointText(p);
    marked |= bit;
    return `${pointText(p)}*`;
  };
  let text = '';
  for (let g = 0; g < group.length; g++) {
    const m = group[g];
    let move = pointText(moveFrom[m]);
    for (const p of moveVia[m]) move += `/${mark(p)}`;
    move += `/${mark(moveTo[m])}`;
    if (count[g] > 1) move += `(${count[g]})`;
    text += g === 0 ? move : ` ${move}`;
  }
  return text;
}

function pointText(p: number): string {
  return p === BAR ? 'bar' : p === OFF ? 'off' : String(p);
}
