import { Dice } from '../engine/dice';
import { seatCheckers } from '../engine/long/position';
import { LongState } from '../engine/long/turn';
import { Segment } from '../engine/notation';
import { PerSide, Side } from '../engine/side';
import { shortSeat } from '../engine/short/position';
import { ShortPosition } from '../engine/short/position';
import { Diagram, DiagramCube, DiagramMatch, DiagramSeat } from './model';

/* Builders of a `Diagram` from trusted engine states (pure). */

function pipsOf(points: ArrayLike<number>, bar: number): number {
  let pips = bar * 25;
  for (let p = 1; p <= 24; p++) pips += (points[p] ?? 0) * p;
  return pips;
}

function seat(points: Int8Array, bar: number, off: number): DiagramSeat {
  // COM-3: own point numbers summed, the bar counting 25.
  return { points: Array.from(points), bar, off, pips: pipsOf(points, bar) };
}

export interface DiagramExtras {
  readonly title: string;
  readonly dice: Dice | null;
  /** The move to draw, as parsed from notation (mover's own numbering). */
  readonly move?: { readonly text: string; readonly segments: readonly Segment[] };
}

function arrowsOf(extras: DiagramExtras): Pick<Diagram, 'arrows' | 'moveText'> {
  if (!extras.move) return { arrows: [] };
  return { arrows: extras.move.segments.map((s) => ({ from: s.from, to: s.to, hit: s.hit })), moveText: extras.move.text };
}

/** A long-family state: both seats, the pending stages (TM-7) and the first-turn flags (LN-HEAD-3). */
export function longDiagram(state: LongState, extras: DiagramExtras): Diagram {
  const position = state.position;
  const seats: PerSide<DiagramSeat> = {
    white: (({ points, off }) => seat(points, 0, off))(seatCheckers(position, 'white')),
    black: (({ points, off }) => seat(points, 0, off))(seatCheckers(position, 'black')),
  };
  return {
    family: 'long',
    title: extras.title,
    turn: position.turn,
    seats,
    dice: extras.dice ? [extras.dice[0], extras.dice[1]] : null,
    pending: state.pending.map((s) => ({ origin: s.origin, ...(s.units ? { units: s.units.slice() } : {}), ...(s.last ? { last: true } : {}) })),
    firstTurn: { white: position.firstTurn.white, black: position.firstTurn.black },
    ...arrowsOf(extras),
  };
}

export interface ShortExtras extends DiagramExtras {
  /** Absent when the variant plays without the cube (§5.6). */
  readonly cube?: DiagramCube;
  readonly match?: DiagramMatch;
}

/** A backgammon position with its bar, borne-off checkers, cube and match score. */
export function shortDiagram(position: ShortPosition, extras: ShortExtras): Diagram {
  const of = (side: Side): DiagramSeat => {
    const s = shortSeat(position, side);
    return seat(s.points, s.bar, s.off);
  };
  return {
    family: 'short',
    title: extras.title,
    turn: position.turn,
    seats: { white: of('white'), black: of('black') },
    dice: extras.dice ? [extras.dice[0], extras.dice[1]] : null,
    pending: [],
    ...(extras.cube ? { cube: extras.cube } : {}),
    ...(extras.match ? { match: extras.match } : {}),
    ...arrowsOf(extras),
  };
}
