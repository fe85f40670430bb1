import { PendingView, SeatView } from '../engine/family/types';
import { PerSide, Side } from '../engine/side';

/**
 * What a board diagram shows, as plain data: both seats' checkers in their
 * own numbering (COM-2), whose turn it is, the dice, the stages still owed
 * (SPEC §3.9) and, for backgammon, the cube and the match. The drawing
 * (draw.ts) knows nothing else of the rules; from-engine.ts builds this from
 * trusted engine states.
 */
export type DiagramFamily = 'long' | 'short';

/** One seat's checkers in its own numbering (COM-2), as the family binding's `board` gives them, with its pips. */
export interface DiagramSeat extends SeatView {
  /** Checkers per own point: index 1..24 (index 0 unused). */
  readonly points: readonly number[];
  /** COM-3. */
  readonly pips: number;
}

/** A stage the side to move still owes before (or instead of) rolling (TM-7). */
export type DiagramStage = PendingView;

/** One move arrow, in the mover's own numbering (0 = off, 25 = bar). */
export interface DiagramArrow {
  readonly from: number;
  readonly to: number;
  /** Short nardy: the step hits a blot (notation `*`). */
  readonly hit: boolean;
}

export interface DiagramCube {
  readonly value: number;
  /** `null`: centred. */
  readonly owner: Side | null;
}

export interface DiagramMatch {
  /** 0 = money play. */
  readonly length: number;
  readonly score: PerSide<number>;
  readonly crawford: boolean;
}

export interface Diagram {
  readonly family: DiagramFamily;
  /** The variant's title, e.g. "Long nardy (classic)". */
  readonly title: string;
  /** The side to move (or to roll). */
  readonly turn: Side;
  readonly seats: PerSide<DiagramSeat>;
  readonly dice: readonly [number, number] | null;
  readonly pending: readonly DiagramStage[];
  /** Long family: who is still to play his first roll (LN-HEAD-2, LN-HEAD-3). */
  readonly firstTurn?: PerSide<boolean>;
  readonly cube?: DiagramCube;
  readonly match?: DiagramMatch;
  /** The move drawn, played by `turn`. */
  readonly arrows: readonly DiagramArrow[];
  /** The move as written, for the caption. */
  readonly moveText?: string;
}

export type DiagramTheme = 'light' | 'dark';

export interface DiagramOptions {
  /** The side seen at the bottom of the board. */
  readonly viewer: Side;
  /** Width in pixels; the height follows the fixed aspect ratio. */
  readonly width: number;
  readonly theme: DiagramTheme;
  /** Point numbers in this side's own numbering, or none. */
  readonly labels: Side | 'none';
}
