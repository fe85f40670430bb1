import { Dice } from '../../engine/dice';
import { CubeOwner, CubeSituation, cubeDecision } from '../../eval/cube/decision';
import { OutcomeValues, STANDARD_VALUES } from '../../eval/equity';
import { Probabilities } from '../../eval/probabilities';
import { AnalysisCaller } from '../analysis/service';
import { CubeDecisionView, EvaluationView, ProbabilitiesView } from '../analysis/views';
import { AnalysisHooks, PlayerReport } from './types';

/*
 * What the analyses of both families share (docs/match-files.md,
 * "Analysis"): gnubg's skill marks and rating label, the tally of one
 * player's decisions and its report, the judgement of a cube action
 * against the cube decision, and the mover's cubeful equity after a play.
 */

/** gnubg's skill thresholds (normalised equity). */
export const SKILL_THRESHOLDS = Object.freeze({ doubtful: 0.03, error: 0.06, blunder: 0.12 });
/** gnubg's "close or actual" cube decision: the best action is within this of a double / take. */
const CLOSE_CUBE = 0.16;

/** The per-decision calls are priced when the job is submitted, not again. */
export const CALLER: AnalysisCaller = { client: 'match-analysis', budget: 0 };

/** The 21 distinct rolls, each with its weight out of 36. */
export const ROLLS: readonly { dice: Dice; weight: number }[] = (() => {
  const out: { dice: Dice; weight: number }[] = [];
  for (let a = 1; a <= 6; a++)
    for (let b = a; b <= 6; b++) out.push({ dice: [b, a], weight: a === b ? 1 : 2 });
  return out;
})();

export type Skill = 'doubtful' | 'error' | 'blunder' | null;

export function skillOf(loss: number): Skill {
  if (loss > SKILL_THRESHOLDS.blunder) return 'blunder';
  if (loss > SKILL_THRESHOLDS.error) return 'error';
  if (loss > SKILL_THRESHOLDS.doubtful) return 'doubtful';
  return null;
}

/** gnubg's label of a mean error per decision. */
export function ratingLabel(errorPerDecision: number): string {
  const e = errorPerDecision;
  if (e < 0.002) return 'Supernatural';
  if (e < 0.005) return 'World class';
  if (e < 0.008) return 'Expert';
  if (e < 0.012) return 'Advanced';
  if (e < 0.018) return 'Intermediate';
  if (e < 0.026) return 'Casual player';
  if (e < 0.035) return 'Beginner';
  return 'Awful!';
}

export const round = (x: number, digits = 6): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** The cube and score a decision is taken at, seen from the side to act. */
export interface Situation {
  readonly kind: 'money' | 'match';
  readonly value: number;
  readonly owner: CubeOwner;
  readonly jacoby: boolean;
  readonly length: number;
  /** [side to act, opponent] */
  readonly score: readonly [number, number];
  readonly crawford: boolean;
}

export function cubeSituation(s: Situation): CubeSituation {
  if (s.kind === 'money') return { kind: 'money', value: s.value, owner: s.owner, jacoby: s.jacoby };
  return {
    kind: 'match',
    value: s.value,
    owner: s.owner,
    length: s.length,
    score: s.score,
    crawford: s.crawford,
  };
}

const OWNER_SEEN_BY_OPPONENT: Record<CubeOwner, CubeOwner> = {
  centre: 'centre',
  mover: 'opponent',
  opponent: 'mover',
};
const NEUTRAL: Probabilities = { win: 0.5, winMars: 0, winKoks: 0, loseMars: 0, loseKoks: 0 };

/** The other side's probabilities. */
function swapped(p: ProbabilitiesView): Probabilities {
  return {
    win: 1 - p.win,
    winMars: p.loseMars,
    winKoks: p.loseKoks,
    loseMars: p.winMars,
    loseKoks: p.winKoks,
  };
}

/**
 * The mover's cubeful equity after a play, from the probabilities after it
 * (the mover's): the opponent is on roll with the cube as it is and plays
 * his right cube action. Money: per unit of the cube (`values`: the
 * family's points of a single win, mars and koks). Match: the mover's EMG
 * at this cube. `efficiency`: the cube efficiency of the position after the
 * play, the opponent on roll (the contact one when not given).
 */
export function playEquity(
  p: ProbabilitiesView,
  s: Situation,
  values: OutcomeValues = STANDARD_VALUES,
  efficiency?: number,
): number {
  const opponent: Situation = {
    ...s,
    owner: OWNER_SEEN_BY_OPPONENT[s.owner],
    score: [s.score[1], s.score[0]],
  };
  const d = cubeDecision(swapped(p), cubeSituation(opponent), { values, efficiency });
  if (s.kind === 'money') return -d.equity;
  // EMG is linear in MWC, with each side's own single-game win and loss at this cube.
  const theirWin = d.matchWinningChances?.doublePass ?? 1;
  const myWin = cubeDecision(NEUTRAL, cubeSituation(s)).matchWinningChances?.doublePass ?? 1;
  const myLose = 1 - theirWin;
  const theirLose = 1 - myWin;
  const theirMwc = theirLose + ((d.equity + 1) / 2) * (theirWin - theirLose);
  const mine = 1 - theirMwc;
  return myWin - myLose > 1e-12 ? (2 * (mine - myLose)) / (myWin - myLose) - 1 : 0;
}

/**
 * The mover's cubeful equity when he acts again himself (a cascade stage,
 * a re-roll, the roll after paying a debt): his right cube action when he
 * may double first (`mayDouble`), else no double.
 */
export function ownEquity(
  p: ProbabilitiesView,
  s: Situation,
  mayDouble: boolean,
  values: OutcomeValues = STANDARD_VALUES,
): number {
  const d = cubeDecision({ ...p }, cubeSituation(s), { values });
  return mayDouble ? d.equity : d.noDouble;
}

export const ACTION_NAMES: Record<string, string> = {
  noDouble: 'no-double',
  doubleTake: 'double-take',
  doublePass: 'double-pass',
  tooGood: 'too-good',
  notAvailable: 'no-double',
};

export function cubeEquities(c: CubeDecisionView): Record<string, number> {
  return { noDouble: c.noDouble, doubleTake: c.doubleTake, doublePass: c.doublePass, optimal: c.equity };
}

/** A cube action judged against the cube decision of the doubler's position. */
export interface CubeJudgement {
  readonly played: string;
  readonly best: string;
  readonly loss: number;
  readonly close: boolean;
}

/**
 * gnubg's judgement of a cube action: not doubling (loss `optimal −
 * noDouble`; close when `optimal − min(doubleTake, 1) < 0.16`), doubling
 * (`optimal − min(doubleTake, doublePass)`), taking (`doubleTake −
 * doublePass` when passing was right) and dropping (the other way round).
 * `cube` is the doubler's decision; doubles, takes and drops are always close.
 */
export type CubeJudgementAction = 'no-double' | 'double' | 'take' | 'drop';

export function judgeCube(action: CubeJudgementAction, cube: CubeDecisionView): CubeJudgement {
  switch (action) {
    case 'no-double':
      return {
        played: action,
        best: ACTION_NAMES[cube.action],
        loss: Math.max(0, cube.equity - cube.noDouble),
        close: cube.equity - Math.min(cube.doubleTake, 1) < CLOSE_CUBE,
      };
    case 'double':
      return {
        played: action,
        best: ACTION_NAMES[cube.action],
        loss: Math.max(0, cube.equity - Math.min(cube.doubleTake, cube.doublePass)),
        close: true,
      };
    case 'take':
    case 'drop':
      return {
        played: action,
        best: cube.response === 'pass' ? 'drop' : 'take',
        loss:
          action === 'take'
            ? Math.max(0, cube.doubleTake - cube.doublePass)
            : Math.max(0, cube.doublePass - cube.doubleTake),
        close: true,
      };
  }
}

/** One player's decisions so far. */
export interface Tally {
  moves: number;
  unforced: number;
  chequerError: number;
  cubeDecisions: number;
  closeCube: number;
  cubeError: number;
  doubtful: number;
  errors: number;
  blunders: number;
  luck: number;
}

export const emptyTally = (): Tally => ({
  moves: 0,
  unforced: 0,
  chequerError: 0,
  cubeDecisions: 0,
  closeCube: 0,
  cubeError: 0,
  doubtful: 0,
  errors: 0,
  blunders: 0,
  luck: 0,
});

function mark(t: Tally, skill: Skill): void {
  if (skill === 'doubtful') t.doubtful++;
  else if (skill === 'error') t.errors++;
  else if (skill === 'blunder') t.blunders++;
}

/** Counts one cube decision and its loss; a close one counts in the error rate (gnubg's rule). */
export function tallyCube(t: Tally, loss: number, close: boolean): Skill {
  const skill = skillOf(loss);
  t.cubeDecisions++;
  t.cubeError += loss;
  if (close) t.closeCube++;
  mark(t, skill);
  return skill;
}

/** Counts one unforced chequer play and its loss. */
export function tallyPlay(t: Tally, loss: number): Skill {
  const skill = skillOf(loss);
  t.unforced++;
  t.chequerError += loss;
  mark(t, skill);
  return skill;
}

export function playerReport(t: Tally): PlayerReport {
  const decisions = t.unforced + t.closeCube;
  const total = t.chequerError + t.cubeError;
  const perDecision = decisions > 0 ? total / decisions : 0;
  return {
    decisions,
    errorRate: round(1000 * perDecision, 1),
    doubtful: t.doubtful,
    errors: t.errors,
    blunders: t.blunders,
    luck: round(t.luck, 4),
    rating: round(500 * perDecision, 1),
    ratingLabel: ratingLabel(perDecision),
    moves: t.moves,
    unforcedMoves: t.unforced,
    chequerErrorRate: round(t.unforced > 0 ? (1000 * t.chequerError) / t.unforced : 0, 1),
    chequerError: round(t.chequerError, 4),
    cubeDecisions: t.cubeDecisions,
    closeCubeDecisions: t.closeCube,
    cubeErrorRate: round(t.closeCube > 0 ? (1000 * t.cubeError) / t.closeCube : 0, 1),
    cubeError: round(t.cubeError, 4),
    luckRate: round(t.moves > 0 ? (1000 * t.luck) / t.moves : 0, 1),
  };
}

/**
 * Runs an analysis with an abort signal that follows `hooks.aborted()`
 * (polled every 100 ms), so that a cancelled job also stops the search in
 * progress.
 */
export async function withCancellation<T>(
  hooks: AnalysisHooks,
  work: (caller: AnalysisCaller) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const poll = setInterval(() => {
    if (hooks.aborted()) controller.abort();
  }, 100);
  poll.unref();
  try {
    return await work({ ...CALLER, signal: controller.signal });
  } finally {
    clearInterval(poll);
  }
}

/**
 * Luck of a roll (gnubg's): the mover's equity after the best play of the
 * roll he got minus its mean over `rolls`; `equityOf` values a roll. A
 * roll-off that either player could have won (`rivalOf`: the mover's equity
 * when the opponent wins it with a roll and plays it) is measured against the
 * mean over both ways it could have gone, as gnubg's first-roll luck is: the
 * luck of an opening roll includes that of winning the roll-off.
 */
export async function luckOver(
  rolls: readonly { dice: Dice; weight: number }[],
  actual: Dice,
  equityOf: (dice: Dice) => Promise<number>,
  rivalOf?: (dice: Dice) => Promise<number>,
): Promise<number> {
  let sum = 0;
  let weights = 0;
  let mine = 0;
  for (const roll of rolls) {
    const equity = await equityOf(roll.dice);
    sum += roll.weight * equity;
    weights += roll.weight;
    if (
      (roll.dice[0] === actual[0] && roll.dice[1] === actual[1]) ||
      (roll.dice[0] === actual[1] && roll.dice[1] === actual[0])
    )
      mine = equity;
    if (rivalOf) {
      sum += roll.weight * (await rivalOf(roll.dice));
      weights += roll.weight;
    }
  }
  return weights > 0 ? mine - sum / weights : 0;
}

/** The rolls a roll is drawn from: the 21 distinct rolls, or the 15 non-doubles of an opening roll. */
export function rollsOf(opening: boolean): readonly { dice: Dice; weight: number }[] {
  return opening ? ROLLS.filter((r) => r.dice[0] !== r.dice[1]) : ROLLS;
}

/** A ranked play list judged: the best play by the mover's equity, the play made, and its loss. */
export interface PlayJudgement<T> {
  readonly best: T;
  readonly played: T;
  readonly bestEquity: number;
  readonly playedEquity: number;
  readonly loss: number;
  /** 1 = the best. */
  readonly playedRank: number;
}

/**
 * Values each ranked play with `equityOf`, best first, and finds the play made (by its position ID after).
 * Plays searched deeper come first, as in the search's own ranking: a play its root filter left at a
 * shallower depth is not compared with the deeper ones on equal terms, so it never becomes the best by
 * the cubeful or match equity the search did not rank it by.
 */
export function judgePlay<T extends { readonly positionId: string; readonly plies?: number }>(
  turns: readonly T[],
  equityOf: (turn: T) => number,
  playedPositionIdAfter: string,
): PlayJudgement<T> {
  const valued = turns
    .map((turn) => ({ turn, equity: equityOf(turn) }))
    .sort((a, b) => (b.turn.plies ?? 0) - (a.turn.plies ?? 0) || b.equity - a.equity);
  const best = valued[0];
  const played = valued.find((v) => v.turn.positionId === playedPositionIdAfter);
  if (!best || !played) throw new Error('the ranked plays do not hold the play made');
  return {
    best: best.turn,
    played: played.turn,
    bestEquity: best.equity,
    playedEquity: played.equity,
    loss: Math.max(0, best.equity - played.equity),
    playedRank: valued.indexOf(played) + 1,
  };
}

/** The report fields of a play ranked among others (unforced), counted in `tally`; `plies` the ranking's depth. */
export function judgedPlayReport<T extends { readonly positionId: string; readonly notation: string }>(
  tally: Tally,
  j: PlayJudgement<T>,
  plies: number,
) {
  return {
    best: j.best.notation,
    equityLoss: round(j.loss),
    unforced: true,
    skill: tallyPlay(tally, j.loss),
    bestPositionIdAfter: j.best.positionId,
    bestEquity: round(j.bestEquity),
    playedEquity: round(j.playedEquity),
    playedRank: j.playedRank,
    plies,
  };
}

/** A cube action's report fields, counted in `tally`; `played` names a beaver judged as its take. */
export function cubeReport(
  tally: Tally,
  action: CubeJudgementAction,
  cube: CubeDecisionView,
  played: string = action,
) {
  const j = judgeCube(action, cube);
  const skill = tallyCube(tally, j.loss, j.close);
  return { played, best: j.best, equityLoss: round(j.loss), close: j.close, skill, cube: cubeEquities(cube) };
}

/** The cube decision of an evaluation asked with a cube. */
export function cubeDecisionOf(view: EvaluationView): CubeDecisionView {
  if (!view.cubeDecision) throw new Error('the evaluation of a cube decision came back without one');
  return view.cubeDecision;
}
