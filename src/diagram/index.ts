/**
 * Board diagrams: a pure drawing of a position as SVG text (no I/O), and
 * builders from the engine's trusted states.
 */
export type { Diagram, DiagramArrow, DiagramCube, DiagramFamily, DiagramMatch, DiagramOptions, DiagramSeat, DiagramStage, DiagramTheme } from './model';
export { describeDiagram, drawDiagram, otherSidePoint } from './draw';
export { diagramOf, longDiagram, shortDiagram } from './from-engine';
export type { DiagramExtras, ShortExtras } from './from-engine';
