import { Dice } from '../engine/dice';
import { BoardView, SeatView } from '../engine/family';
import { longFamily } from '../engine/family/long';
import { shortFamily } from '../engine/family/short';
import { LongState } from '../engine/long/turn';
import { Segment } from '../engine/notation';
import { Side } from '../engine/side';
import { ShortPosition } from '../engine/short/position';
import { Diagram, DiagramCube, DiagramFamily, DiagramMatch, DiagramSeat } from './model';

/* Builders of a `Diagram` from trusted engine states (pure). */

function pipsOf(points: ArrayLike<number>, bar: number): number {
  let pips = bar * 25;
  for (let p = 1; p <= 24; p++) pips += (points[p] ?? 0) * p;
  return pips;
}

function seat({ points, bar, off }: SeatView): DiagramSeat {
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

export interface ShortExtras extends DiagramExtras {
  /** Absent when the variant plays without the cube (§5.6). */
  readonly cube?: DiagramCube;
  readonly match?: DiagramMatch;
}

/** A state of `family` as its binding's `board` shows it: both seats, the pending stages (TM-7), the first-turn flags, cube and match. */
export function diagramOf(family: DiagramFamily, board: BoardView, extras: ShortExtras): Diagram {
  const of = (side: Side): DiagramSeat => seat(board.seats[side]);
  return {
    family,
    title: extras.title,
    turn: board.turn,
    seats: { white: of('white'), black: of('black') },
    dice: extras.dice ? [extras.dice[0], extras.dice[1]] : null,
    pending: board.pending,
    ...(board.firstTurn ? { firstTurn: board.firstTurn } : {}),
    ...(extras.cube ? { cube: extras.cube } : {}),
    ...(extras.match ? { match: extras.match } : {}),
    ...arrowsOf(extras),
  };
}

/** A long-family state: both seats, the pending stages (TM-7) and the first-turn flags (LN-HEAD-3). */
export function longDiagram(state: LongState, extras: DiagramExtras): Diagram {
  return diagramOf('long', longFamily.board(state), extras);
}

/** A backgammon position with its bar, borne-off checkers, cube and match score. */
export function shortDiagram(position: ShortPosition, extras: ShortExtras): Diagram {
  return diagramOf('short', shortFamily.board(position), extras);
}
