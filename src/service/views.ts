import { Step } from '../engine/step';

/**
 * The public views of the service (REST JSON = GraphQL fields). Engine
 * values never leave the service layer as they are.
 */
export interface StageView {
  actor: string;
  origin: string;
  units: number[];
  headAllowance?: number | string;
  firstTurnException?: boolean;
}

export interface NextView {
  kind: string;
  actor: string | null;
  units?: number[];
  stages?: number[][];
  winner?: string;
}

export interface TurnView {
  steps: Step[];
  notation: string;
  position: object;
  positionId: string;
  next: NextView;
}

export interface MovesView {
  variant: string;
  dice: number[] | null;
  stage: StageView;
  diceUsed: number;
  count: number;
  turns: TurnView[];
}

export interface RuleViolationView {
  code: string;
  message: string;
  stepIndex?: number;
  rule?: string;
}

export type ValidateView =
  | ({ legal: true; complete: true; stage: StageView } & TurnView)
  | { legal: true; complete: false; stage: StageView; remainingDice: number[] }
  | { legal: false; stage: StageView; error: RuleViolationView };
