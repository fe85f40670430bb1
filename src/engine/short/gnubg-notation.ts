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
  const hitPoints = new Set<number>();
  steps.forEach((s, i) => {
    if (hits[i] && s.to !== OFF) hitPoints.add(s.to);
  });
  const order = steps.map((s) => ({ from: s.from, to: s.to })).sort((a, b) => b.from - a.from || b.to - a.to);
  interface Move {
    from: number;
    to: number;
    via: number[];
  }
  const moves: Move[] = [];
  const used = new Array<boolean>(order.length).fill(false);
  for (let i = 0; i < order.length; i++) {
    if (used[i]) continue;
    used[i] = true;
    const move: Move = { from: order[i].from, to: order[i].to, via: [] };
    for (let j = i + 1; j < order.length; j++) {
      if (used[j] || order[j].from !== move.to || move.to === OFF) continue;
      if (hitPoints.has(move.to)) move.via.push(move.to);
      move.to = order[j].to;
      used[j] = true;
    }
    moves.push(move);
  }
  const point = (p: number): string => (p === BAR ? 'bar' : p === OFF ? 'off' : String(p));
  // Group equal moves (same source, same final landing) in order of first appearance.
  const groups: { move: Move; count: number }[] = [];
  for (const m of moves) {
    const same = groups.find((g) => g.move.from === m.from && g.move.to === m.to);
    if (same) same.count++;
    else groups.push({ move: m, count: 1 });
  }
  // A hit is marked once, on the first move (in written order) that reaches the point.
  const marked = new Set<number>();
  const mark = (p: number): string => {
    if (!hitPoints.has(p) || marked.has(p)) return point(p);
    marked.add(p);
    return `${point(p)}*`;
  };
  const texts: string[] = [];
  for (const { move, count } of groups) {
    const text = [point(move.from), ...move.via.map(mark), mark(move.to)].join('/');
    texts.push(count > 1 ? `${text}(${count})` : text);
  }
  return texts.join(' ');
}
