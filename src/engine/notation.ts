import { RulesError, rulesError } from './errors';
import { Result, err, ok } from './result';
import { BAR, OFF, Step } from './step';

/**
 * Move notation in gnubg style, in the mover's own numbering:
 * `24/18 18/13`, `24/18/13`, `24/13`, `24/18(2)`, `6/off`, `bar/22*`, and hits in passing such as 13/7 with a hit on 7 then on to 5.
 *
 * Parsing gives segments (from, to, how many times); a segment may span
 * several die-units (`24/13` with 6-5) and is expanded against the dice by
 * `expandSegments`. Making joins one checker's consecutive steps into a
 * chain that keeps every intermediate point (`24/18/13`), marks hits with
 * `*`, and counts repeated chains (`24/18(2)`).
 */
export interface Segment {
  readonly from: number;
  readonly to: number;
  /** Marked with `*` after `to` (short nardy: a hit there). Informational on input. */
  readonly hit: boolean;
}

const TOKEN = /^(bar|off|\d{1,2})(\*?)$/i;

function pointOf(token: string): number {
  const t = token.toLowerCase();
  if (t === 'bar') return BAR;
  if (t === 'off') return OFF;
  return Number(t);
}

/**
 * Parses notation into an ordered list of single segments; `24/18/13`
 * becomes 24→18, 18→13 and `8/5(2)` becomes 8→5 twice. The empty string and
 * the words `pass` / `none` mean an empty play.
 */
export function parseNotation(text: string, field = 'notation'): Result<Segment[], RulesError> {
  if (typeof text !== 'string') return err(rulesError('INVALID_NOTATION', 'notation must be a string', { field }));
  if (text.length > 200) return err(rulesError('INVALID_NOTATION', 'notation is longer than 200 characters', { field }));
  const trimmed = text.trim();
  if (trimmed === '' || /^(pass|none|-)$/i.test(trimmed)) return ok([]);
  const segments: Segment[] = [];
  for (const group of trimmed.split(/[\s,]+/)) {
    const m = /^(.*?)(?:\((\d)\))?$/.exec(group);
    const body = m ? m[1] : group;
    const times = m && m[2] ? Number(m[2]) : 1;
    if (times < 1 || times > 4) {
      return err(rulesError('INVALID_NOTATION', `repeat count in "${group}" must be 1..4`, { field }));
    }
    const parts = body.split('/');
    if (parts.length < 2) return err(rulesError('INVALID_NOTATION', `"${group}" is not of the form from/to`, { field }));
    const chain: Segment[] = [];
    for (let i = 0; i + 1 < parts.length; i++) {
      const a = TOKEN.exec(parts[i]);
      const b = TOKEN.exec(parts[i + 1]);
      if (!a || !b) return err(rulesError('INVALID_NOTATION', `cannot read "${group}"`, { field }));
      const from = pointOf(a[1]);
      const to = pointOf(b[1]);
      if (from < 1 || from > BAR || to < OFF || to > 24) {
        return err(rulesError('INVALID_NOTATION', `points in "${group}" must be bar, 1..24 or off`, { field }));
      }
      if (from === to) return err(rulesError('INVALID_NOTATION', `"${group}" moves from a point to itself`, { field }));
      chain.push({ from, to, hit: b[2] === '*' });
    }
    for (let k = 0; k < times; k++) segments.push(...chain);
    if (segments.length > 8) return err(rulesError('INVALID_NOTATION', 'too many moves in notation', { field }));
  }
  return ok(segments);
}

/**
 * All ways to play the segments as single die-unit steps with the given
 * units (each segment either one unit long or several in a row, in any
 * order of the units). Bear-off segments (`to` = off) may use a larger die
 * on their last unit. Returns at most `limit` step lists.
 */
export function expandSegments(segments: readonly Segment[], units: readonly number[], limit = 64): Step[][] {
  const out: Step[][] = [];
  const steps: Step[] = [];
  const remaining = units.slice();
  const expand = (index: number): void => {
    if (out.length >= limit) return;
    if (index === segments.length) {
      out.push(steps.slice());
      return;
    }
    const seg = segments[index];
    const from = seg.from === BAR ? 25 : seg.from;
    const distance = from - seg.to;
    if (distance <= 0) {
      // Not a forward move: keep it as one step so validation names the fault.
      steps.push({ from: seg.from, to: seg.to });
      expand(index + 1);
      steps.pop();
      return;
    }
    const walk = (at: number, left: number, depth: number): void => {
      if (left === 0) {
        expand(index + 1);
        return;
      }
      if (depth > 4) return;
      const tried = new Set<number>();
      for (let i = 0; i < remaining.length; i++) {
        const d = remaining[i];
        if (tried.has(d)) continue;
        tried.add(d);
        const exact = d === left;
        const over = seg.to === OFF && d > left;
        if (!exact && !over && d >= left) continue;
        const to = exact || over ? seg.to : at - d;
        remaining.splice(i, 1);
        steps.push({ from: at === 25 ? seg.from : at, to });
        walk(to === OFF ? 0 : to, exact || over ? 0 : left - d, depth + 1);
        steps.pop();
        remaining.splice(i, 0, d);
      }
    };
    walk(from, distance, 0);
  };
  expand(0);
  // No way to fit the units: offer the literal steps so validation names the fault.
  if (out.length === 0) out.push(segments.map((s) => ({ from: s.from, to: s.to })));
  return out;
}

/** One checker's path through a play, with hit marks per landing. */
export interface Chain {
  points: number[];
  hits: boolean[];
}

/**
 * Groups steps into chains of one checker (a step continues a chain whose
 * last point is its source) and writes them in gnubg style, highest source
 * first, repeated chains counted: `24/18/13`, `24/18(2)`, `6/off`, `bar/22*`.
 */
export function makeNotation(steps: readonly Step[], hits?: readonly boolean[]): string {
  const chains: Chain[] = [];
  steps.forEach((s, i) => {
    const hit = hits ? hits[i] : false;
    // Prefer extending a chain whose end is this step's source, the most recent first.
    for (let c = chains.length - 1; c >= 0; c--) {
      const chain = chains[c];
      if (chain.points[chain.points.length - 1] === s.from && s.from !== OFF) {
        chain.points.push(s.to);
        chain.hits.push(hit);
        return;
      }
    }
    chains.push({ points: [s.from, s.to], hits: [false, hit] });
  });
  const text = (c: Chain) =>
    c.points.map((p, i) => (p === BAR ? 'bar' : p === OFF ? 'off' : String(p)) + (c.hits[i] ? '*' : '')).join('/');
  chains.sort((a, b) => b.points[0] - a.points[0] || b.points.length - a.points.length);
  const parts: string[] = [];
  const counts = new Map<string, number>();
  const order: string[] = [];
  for (const c of chains) {
    const t = text(c);
    if (!counts.has(t)) order.push(t);
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  for (const t of order) {
    const n = counts.get(t) ?? 1;
    parts.push(n > 1 ? `${t}(${n})` : t);
  }
  return parts.join(' ');
}

/**
 * Every distinct order of a list of steps, the given order first (at most
 * 4! = 24 for a stage). Used when notation does not fix the order of moves.
 */
export function orderings(steps: readonly Step[]): Step[][] {
  const out: Step[][] = [];
  const seen = new Set<string>();
  const used = new Array<boolean>(steps.length).fill(false);
  const current: Step[] = [];
  const walk = (): void => {
    if (current.length === steps.length) {
      const key = current.map((s) => `${s.from}/${s.to}`).join(' ');
      if (!seen.has(key)) {
        seen.add(key);
        out.push(current.slice());
      }
      return;
    }
    for (let i = 0; i < steps.length; i++) {
      if (used[i]) continue;
      used[i] = true;
      current.push(steps[i]);
      walk();
      current.pop();
      used[i] = false;
    }
  };
  walk();
  return out;
}
