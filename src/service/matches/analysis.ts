import { Dice } from '../../engine/dice';
import { makeGnubgNotation } from '../../engine/short/gnubg-notation';
import { makeMatchId } from '../../engine/short/gnubg-id';
import {
  MatchPlayer,
  ReplayedDecision,
  ReplayedGame,
  ReplayedMatch,
  matchPlayerSide,
} from '../../engine/short/match-record';
import { Side } from '../../engine/side';
import { CubeOwner, CubeSituation, cubeDecision } from '../../eval/cube/decision';
import { Probabilities } from '../../eval/probabilities';
import { AnalysisCaller, AnalysisService } from '../analysis/service';
import { BestMovesView, CubeDecisionView, EvaluationView, ProbabilitiesView } from '../analysis/views';
import { valueOf } from '../cache';
import { fail } from '../errors';
import { importMatchFile } from './files';
import {
  AnalysisHooks,
  DecisionReport,
  MatchAnalysisOptions,
  MatchAnalysisPlan,
  MatchReport,
  PlanMatchAnalysis,
  PlayerReport,
} from './types';

/*
 * Whole-match analysis of a backgammon match, decision by decision, in
 * gnubg's terms (see docs/match-files.md, "Analysis"):
 * - a chequer play: every legal play ranked at the requested plies, each
 *   valued as the mover's cubeful equity after it (money: per unit of the
 *   cube; match: EMG, the match winning chances rescaled so that losing /
 *   winning a single game at the current cube is −1 / +1, through our match
 *   equity table); the loss is best − played;
 * - a cube decision (every roll where the player could double, every double,
 *   take and drop): the cube decision of the doubler's position, and the
 *   loss of the action taken against the right one;
 * - luck: the mover's equity after the best play of the roll he got, minus
 *   its average over the 36 rolls (0 plies, as gnubg);
 * - per player: gnubg's error rate (mEMG per unforced move or close cube
 *   decision), doubtful / error / blunder counts (gnubg's 0.03 / 0.06 / 0.12),
 *   luck, and an XG-style performance rating (500 × the mean error).
 * Every search goes through the public AnalysisService, so it runs in the
 * worker pool with its cost model and budgets.
 */

/** gnubg's skill thresholds (normalised equity). */
export const SKILL_THRESHOLDS = Object.freeze({ doubtful: 0.03, error: 0.06, blunder: 0.12 });
/** gnubg's "close or actual" cube decision: the best action is within this of a double / take. */
const CLOSE_CUBE = 0.16;

/** The per-decision calls are priced when the job is submitted, not again. */
const CALLER: AnalysisCaller = { client: 'match-analysis', budget: 0 };
const VARIANT = 'backgammon';
const ROLLS: readonly { dice: Dice; weight: number }[] = (() => {
  const out: { dice: Dice; weight: number }[] = [];
  for (let a = 1; a <= 6; a++)
    for (let b = a; b <= 6; b++) out.push({ dice: [b, a], weight: a === b ? 1 : 2 });
  return out;
})();

type Skill = 'doubtful' | 'error' | 'blunder' | null;

function skillOf(loss: number): Skill {
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

const round = (x: number, digits = 6): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** The cube and score a decision is taken at, seen from the side to act. */
interface Situation {
  readonly kind: 'money' | 'match';
  readonly value: number;
  readonly owner: CubeOwner;
  readonly jacoby: boolean;
  readonly length: number;
  /** [side to act, opponent] */
  readonly score: readonly [number, number];
  readonly crawford: boolean;
}

function situationOf(d: ReplayedDecision, match: ReplayedMatch, actor: MatchPlayer): Situation {
  const other: MatchPlayer = actor === 0 ? 1 : 0;
  const score = [d.match.score[matchPlayerSide(actor)], d.match.score[matchPlayerSide(other)]] as const;
  const owner: CubeOwner = d.cube.owner === null ? 'centre' : d.cube.owner === actor ? 'mover' : 'opponent';
  return {
    kind: match.record.length === 0 ? 'money' : 'match',
    value: d.cube.value,
    owner,
    jacoby: match.record.jacoby === true,
    length: match.record.length,
    score,
    crawford: d.match.crawford,
  };
}

function cubeSituation(s: Situation): CubeSituation {
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

/**
 * The mover's cubeful equity after a play, from the probabilities after it
 * (the mover's): the opponent is on roll with the cube as it is and plays
 * his right cube action. Money: per unit of the cube. Match: the mover's
 * EMG at this cube.
 */
export function playEquity(p: ProbabilitiesView, s: Situation): number {
  const theirs: Probabilities = {
    win: 1 - p.win,
    winMars: p.loseMars,
    winKoks: p.loseKoks,
    loseMars: p.winMars,
    loseKoks: p.winKoks,
  };
  const opponent: Situation = {
    ...s,
    owner: OWNER_SEEN_BY_OPPONENT[s.owner],
    score: [s.score[1], s.score[0]],
  };
  const d = cubeDecision(theirs, cubeSituation(opponent));
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

/** The cube decision an evaluation request needs: position, dice-less match ID, cube and score. */
function cubeRequest(
  d: ReplayedDecision,
  match: ReplayedMatch,
  doubler: MatchPlayer,
  plies: number,
): Record<string, unknown> {
  const length = match.record.length;
  const score = { white: d.match.score.white, black: d.match.score.black };
  const atMatchPoint = length > 0 && (score.white === length - 1 || score.black === length - 1);
  const side: Side = matchPlayerSide(doubler);
  return {
    variant: VARIANT,
    positionId: d.positionId,
    matchId: makeMatchId({ ...d.match, dice: null, onRoll: side, turn: side, doubleOffered: false }),
    plies,
    cube: { value: d.cube.value, owner: d.cube.owner === null ? 'center' : matchPlayerSide(d.cube.owner) },
    ...(length > 0
      ? {
          match: {
            length,
            score,
            nextGameIsCrawford: d.match.crawford,
            crawfordPlayed: atMatchPoint && !d.match.crawford,
          },
        }
      : match.record.jacoby
        ? { rules: { jacoby: true } }
        : {}),
  };
}

function bestRequest(
  d: ReplayedDecision,
  plies: number,
  dice?: Dice,
  limit?: number,
): Record<string, unknown> {
  const matchId = dice ? makeMatchId({ ...d.match, dice }) : d.matchId;
  return { variant: VARIANT, positionId: d.positionId, matchId, plies, ...(limit ? { limit } : {}) };
}

/** Can the mover double before this roll, with a cube that still matters (gnubg analyses only those)? */
function cubeOpenBeforeRoll(d: ReplayedDecision, game: ReplayedGame, match: ReplayedMatch): boolean {
  if (d.index === 0 || d.match.crawford) return false;
  if (d.cube.owner !== null && d.cube.owner !== d.player) return false;
  if (match.record.length > 0) {
    const away = match.record.length - d.match.score[matchPlayerSide(d.player)];
    if (away <= d.cube.value) return false;
  }
  // The move right after his own double and the take: the double was the decision.
  const previous = game.decisions[d.index - 1];
  return !(previous && previous.action === 'take');
}

const ACTION_NAMES: Record<string, string> = {
  noDouble: 'no-double',
  doubleTake: 'double-take',
  doublePass: 'double-pass',
  tooGood: 'too-good',
  notAvailable: 'no-double',
};

interface Tally {
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

const emptyTally = (): Tally => ({
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
function tallyCube(t: Tally, loss: number, close: boolean): Skill {
  const skill = skillOf(loss);
  t.cubeDecisions++;
  t.cubeError += loss;
  if (close) t.closeCube++;
  mark(t, skill);
  return skill;
}

function playerReport(t: Tally): PlayerReport {
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

/** What one record adds to the report: its entries (a move record may carry a cube decision before the roll). */
interface Step {
  readonly game: ReplayedGame;
  readonly decision: ReplayedDecision;
  readonly cubeBeforeRoll: boolean;
}

function playerNames(match: ReplayedMatch): [string, string] {
  const [a, b] = match.record.players;
  return a === b ? [`${a} (0)`, `${b} (1)`] : [a, b];
}

/**
 * Reads a match file, checks every move (400 INVALID_MATCH_FILE naming the
 * game and the move), and plans its analysis: the entries the report will
 * hold and the estimated network evaluations of the whole run.
 */
export const planMatchAnalysis: PlanMatchAnalysis = (file, options, analysis) => {
  const match = importMatchFile(file);
  return planReplayedMatch(match, options, analysis);
};

/** `planMatchAnalysis` of a match already read (a session's, or a file's). */
export function planReplayedMatch(
  match: ReplayedMatch,
  options: MatchAnalysisOptions,
  analysis: AnalysisService,
): MatchAnalysisPlan {
  const plies = options.plies;
  if (!Number.isInteger(plies) || plies < 0 || plies > 2)
    fail('INVALID_REQUEST', 'plies must be an integer 0..2', { field: 'plies' });
  const steps: Step[] = [];
  let entries = 0;
  let cost = 0;
  for (const game of match.games) {
    for (const decision of game.decisions) {
      const cubeBeforeRoll = decision.action === 'move' && cubeOpenBeforeRoll(decision, game, match);
      steps.push({ game, decision, cubeBeforeRoll });
      if (decision.action === 'move') {
        entries += cubeBeforeRoll ? 2 : 1;
        const legal = decision.legalPlays ?? 1;
        if (legal > 1) cost += analysis.cost('best', bestRequest(decision, plies));
        cost += ROLLS.length * Math.max(1, legal); // luck: every roll at 0 plies
        if (cubeBeforeRoll)
          cost += analysis.cost('evaluate', cubeRequest(decision, match, decision.player, plies));
      } else {
        entries++;
        if (decision.action === 'double')
          cost += analysis.cost('evaluate', cubeRequest(decision, match, decision.player, plies));
      }
    }
  }
  return {
    decisions: entries,
    cost,
    run: (hooks) => runAnalysis(match, steps, entries, plies, analysis, hooks),
  };
}

/** Runs the analysis; a cancelled job also stops the search in progress (polled every 100 ms). */
async function runAnalysis(
  match: ReplayedMatch,
  steps: readonly Step[],
  total: number,
  plies: number,
  analysis: AnalysisService,
  hooks: AnalysisHooks,
): Promise<MatchReport> {
  const controller = new AbortController();
  const poll = setInterval(() => {
    if (hooks.aborted()) controller.abort();
  }, 100);
  poll.unref();
  try {
    return await analyseSteps(match, steps, total, plies, analysis, hooks, {
      ...CALLER,
      signal: controller.signal,
    });
  } finally {
    clearInterval(poll);
  }
}

/** What every decision of one match analysis is analysed with. */
interface Analyst {
  readonly match: ReplayedMatch;
  readonly names: [string, string];
  readonly plies: number;
  readonly analysis: AnalysisService;
  readonly caller: AnalysisCaller;
}

async function analyseSteps(
  match: ReplayedMatch,
  steps: readonly Step[],
  total: number,
  plies: number,
  analysis: AnalysisService,
  hooks: AnalysisHooks,
  caller: AnalysisCaller,
): Promise<MatchReport> {
  const a: Analyst = { match, names: playerNames(match), plies, analysis, caller };
  const tallies: [Tally, Tally] = [emptyTally(), emptyTally()];
  const games = new Map<number, DecisionReport[]>(match.games.map((g) => [g.number, []]));
  let done = 0;
  let lastDouble: CubeDecisionView | null = null;
  const checkAborted = (): void => {
    if (hooks.aborted()) fail('ANALYSIS_CANCELLED', 'the match analysis was cancelled');
  };
  for (const step of steps) {
    checkAborted();
    const d = step.decision;
    const tally = tallies[d.player];
    const list = games.get(d.game) as DecisionReport[];
    if (d.action === 'move') {
      if (step.cubeBeforeRoll) {
        list.push(reportNoDouble(a, d, tally, await evaluateCube(a, d)));
        hooks.progress(++done, total);
        checkAborted();
      }
      list.push(await reportMove(a, step, tally));
    } else if (d.action === 'double') {
      lastDouble = await evaluateCube(a, d);
      list.push(reportDouble(a, d, tally, lastDouble));
    } else {
      if (!lastDouble) throw new Error('a take or drop with no double before it');
      list.push(reportAnswer(a, d, tally, lastDouble));
    }
    hooks.progress(++done, total);
  }
  return matchReport(a, tallies, games);
}

/** The fields every report of a decision starts with. */
function reportBase(a: Analyst, d: ReplayedDecision, kind: 'move' | 'cube') {
  return {
    kind,
    player: a.names[d.player],
    moveNumber: d.moveNumber,
    dice: d.dice ? ([d.dice[0], d.dice[1]] as const) : null,
    positionId: d.positionId,
    matchId: d.matchId,
    game: d.game,
    index: d.index,
  };
}

async function evaluateCube(a: Analyst, d: ReplayedDecision): Promise<CubeDecisionView> {
  const answer = await a.analysis.evaluate(cubeRequest(d, a.match, d.player, a.plies), a.caller);
  const view: EvaluationView = valueOf(answer);
  if (!view.cubeDecision) throw new Error('the evaluation of a cube decision came back without one');
  return view.cubeDecision;
}

/** The player rolled without doubling: the loss against the best cube action, a close call if a double was near. */
function reportNoDouble(a: Analyst, d: ReplayedDecision, tally: Tally, cube: CubeDecisionView): DecisionReport {
  const loss = Math.max(0, cube.equity - cube.noDouble);
  const close = cube.equity - Math.min(cube.doubleTake, 1) < CLOSE_CUBE;
  const skill = tallyCube(tally, loss, close);
  return {
    ...reportBase(a, d, 'cube'),
    dice: null,
    matchId: makeMatchId({ ...d.match, dice: null }),
    played: 'no-double',
    best: ACTION_NAMES[cube.action],
    equityLoss: round(loss),
    close,
    skill,
    cube: cubeEquities(cube),
  };
}

function reportDouble(a: Analyst, d: ReplayedDecision, tally: Tally, cube: CubeDecisionView): DecisionReport {
  const loss = Math.max(0, cube.equity - Math.min(cube.doubleTake, cube.doublePass));
  const skill = tallyCube(tally, loss, true);
  return {
    ...reportBase(a, d, 'cube'),
    played: 'double',
    best: ACTION_NAMES[cube.action],
    equityLoss: round(loss),
    close: true,
    skill,
    cube: cubeEquities(cube),
  };
}

/** A take or a drop, judged by the evaluation of the double it answers. */
function reportAnswer(a: Analyst, d: ReplayedDecision, tally: Tally, cube: CubeDecisionView): DecisionReport {
  const right = cube.response === 'pass' ? 'drop' : 'take';
  const loss =
    d.action === 'take'
      ? Math.max(0, cube.doubleTake - cube.doublePass)
      : Math.max(0, cube.doublePass - cube.doubleTake);
  const skill = tallyCube(tally, loss, true);
  return {
    ...reportBase(a, d, 'cube'),
    played: d.action,
    best: right,
    equityLoss: round(loss),
    close: true,
    skill,
    cube: cubeEquities(cube),
  };
}

/** A play: ranked against every legal play when there was a choice, with the luck of its roll. */
async function reportMove(a: Analyst, step: Step, tally: Tally): Promise<DecisionReport> {
  const d = step.decision;
  const situation = situationOf(d, a.match, d.player);
  const turn = d.turn;
  if (!turn || !d.dice) throw new Error('a replayed move without its turn');
  const playedText = makeGnubgNotation(turn.steps, turn.hits);
  tally.moves++;
  const report: DecisionReport =
    (d.legalPlays ?? 1) > 1
      ? await reportChoice(a, d, tally, situation, playedText)
      : {
          ...reportBase(a, d, 'move'),
          played: playedText,
          best: playedText,
          equityLoss: 0,
          unforced: false,
          skill: null,
          playedPositionIdAfter: d.positionIdAfter,
          legalPlays: d.legalPlays,
        };
  const luck = await luckOf(d, step.game, situation, a.analysis, a.caller);
  tally.luck += luck;
  return { ...report, luck: round(luck) };
}

/** An unforced play: its equity against the best play's, by the match situation. */
async function reportChoice(a: Analyst, d: ReplayedDecision, tally: Tally, situation: Situation, playedText: string): Promise<DecisionReport> {
  const ranked: BestMovesView = valueOf(await a.analysis.bestMoves(bestRequest(d, a.plies), a.caller));
  const valued = ranked.turns
    .map((t) => ({ turn: t, equity: playEquity(t.probabilities, situation) }))
    .sort((x, y) => y.equity - x.equity);
  const best = valued[0];
  const played = valued.find((v) => v.turn.positionId === d.positionIdAfter);
  if (!best || !played) throw new Error('the ranked plays do not hold the play made');
  const loss = Math.max(0, best.equity - played.equity);
  const skill = skillOf(loss);
  tally.unforced++;
  tally.chequerError += loss;
  mark(tally, skill);
  return {
    ...reportBase(a, d, 'move'),
    played: playedText,
    best: best.turn.notation,
    equityLoss: round(loss),
    unforced: true,
    skill,
    playedPositionIdAfter: d.positionIdAfter,
    bestPositionIdAfter: best.turn.positionId,
    bestEquity: round(best.equity),
    cubelessBestPositionIdAfter: ranked.turns[0]?.positionId,
    playedEquity: round(played.equity),
    playedRank: valued.indexOf(played) + 1,
    legalPlays: d.legalPlays,
    plies: ranked.evaluator.plies,
  };
}

function matchReport(a: Analyst, tallies: [Tally, Tally], games: Map<number, DecisionReport[]>): MatchReport {
  const { match, names } = a;
  return {
    players: { [names[0]]: playerReport(tallies[0]), [names[1]]: playerReport(tallies[1]) },
    games: match.games.map((g) => ({
      number: g.number,
      score: g.score,
      crawford: g.crawford,
      winner: g.winner === null ? null : names[g.winner],
      points: g.points,
      resigned: g.resigned,
      decisions: games.get(g.number) ?? [],
    })),
    matchLength: match.record.length,
    finalScore: match.finalScore,
    plies: a.plies,
    evaluator: a.analysis.kind,
    units:
      match.record.length === 0
        ? 'money equity per unit of the cube'
        : 'EMG (match winning chances rescaled to a single game at the cube)',
  };
}

function cubeEquities(c: CubeDecisionView): Record<string, number> {
  return { noDouble: c.noDouble, doubleTake: c.doubleTake, doublePass: c.doublePass, optimal: c.equity };
}

/**
 * Luck of the roll (gnubg's, at 0 plies): the mover's equity after the best
 * play of his roll minus its mean over every roll (the opening roll of a
 * game is never a double, SH-START-1).
 */
async function luckOf(
  d: ReplayedDecision,
  game: ReplayedGame,
  situation: Situation,
  analysis: AnalysisService,
  caller: AnalysisCaller,
): Promise<number> {
  const dice = d.dice as Dice;
  const opening = d.index === 0 || game.decisions.slice(0, d.index).every((x) => x.action !== 'move');
  let sum = 0;
  let weights = 0;
  let actual = 0;
  for (const roll of ROLLS) {
    if (opening && roll.dice[0] === roll.dice[1]) continue;
    const ranked = valueOf(await analysis.bestMoves(bestRequest(d, 0, roll.dice, 1), caller));
    const top = ranked.turns[0];
    const equity = top ? playEquity(top.probabilities, situation) : 0;
    sum += roll.weight * equity;
    weights += roll.weight;
    if (
      (roll.dice[0] === dice[0] && roll.dice[1] === dice[1]) ||
      (roll.dice[0] === dice[1] && roll.dice[1] === dice[0])
    )
      actual = equity;
  }
  return actual - sum / weights;
}
