import { Dice } from '../../engine/dice';
import { EvaluateRequest } from '../../contract/requests';
import { BestMovesQuery } from '../analysis/engine';
import { makeGnubgNotation } from '../../engine/short/gnubg-notation';
import { flipBoard } from '../../engine/short/board';
import { makeGnubgPositionId, makeMatchId, parseGnubgPositionId } from '../../engine/short/gnubg-id';
import { MatchPlayer, ReplayedDecision, ReplayedGame, ReplayedMatch, matchPlayerSide } from '../../engine/short/match-record';
import { Side, otherSide } from '../../engine/side';
import { shortCubeEfficiency } from '../../eval/analysis';
import { CubeOwner } from '../../eval/cube/decision';
import { STANDARD_VALUES } from '../../eval/equity';
import { RankedTurnView } from '../analysis/views';
import { MatchDecision, MatchReader } from './pipeline';
import { Situation, playEquity } from './report';

/*
 * The backgammon reader of match analysis (pipeline.ts), in gnubg's terms
 * (see docs/match-files.md, "Analysis"): a `.mat` or SGF file replayed by
 * the rules core (engine/short/match-record.ts) gives every chequer play,
 * double, take and drop; before a roll where the mover could double with a
 * cube that still matters, his choice not to double is a decision of its
 * own. A play is valued as the mover's cubeful equity after it (money: per
 * unit of the cube; match: EMG, the match winning chances rescaled so that
 * losing / winning a single game at the current cube is −1 / +1, through
 * our match equity table); luck over the 36 rolls (an opening's 30 non-doubles).
 */

const VARIANT = 'backgammon';

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

/** The cube decision an evaluation request needs: position, dice-less match ID, cube and score. */
function cubeRequest(d: ReplayedDecision, match: ReplayedMatch, plies: number): EvaluateRequest {
  const length = match.record.length;
  const score = { white: d.match.score.white, black: d.match.score.black };
  const atMatchPoint = length > 0 && (score.white === length - 1 || score.black === length - 1);
  const side: Side = matchPlayerSide(d.player);
  return {
    variant: VARIANT,
    positionId: d.positionId,
    matchId: makeMatchId({ ...d.match, dice: null, onRoll: side, turn: side, doubleOffered: false }),
    plies,
    cube: { value: d.cube.value, owner: d.cube.owner === null ? 'center' : matchPlayerSide(d.cube.owner) },
    ...(length > 0
      ? { match: { length, score, nextGameIsCrawford: d.match.crawford, crawfordPlayed: atMatchPoint && !d.match.crawford } }
      : match.record.jacoby
        ? { rules: { jacoby: true } }
        : {}),
  };
}

function bestRequest(d: ReplayedDecision, plies: number, dice?: Dice, limit?: number, keep?: string): BestMovesQuery {
  const matchId = dice ? makeMatchId({ ...d.match, dice }) : d.matchId;
  return { variant: VARIANT, positionId: d.positionId, matchId, plies, ...(limit ? { limit } : {}), ...(keep ? { keep } : {}) };
}

/** The mover's cubeful equity after a play, with the cube efficiency of the position it leaves (the opponent on roll). */
function equityAfter(t: RankedTurnView, situation: Situation): number {
  const after = parseGnubgPositionId(t.positionId, 'white');
  return playEquity(t.probabilities, situation, STANDARD_VALUES, after.ok ? shortCubeEfficiency(after.value.board) : undefined);
}

/** The opening with the other player on roll, as if he had won the roll-off (SH-START-1) with the same dice. */
function rollOffRival(d: ReplayedDecision): ReplayedDecision {
  const side = otherSide(d.position.turn);
  const position = { turn: side, board: flipBoard(d.position.board) };
  const match = { ...d.match, onRoll: side, turn: side };
  return { ...d, player: d.player === 0 ? 1 : 0, position, positionId: makeGnubgPositionId(position), match, matchId: makeMatchId(match) };
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

function fieldsOf(d: ReplayedDecision) {
  return {
    moveNumber: d.moveNumber,
    dice: d.dice ? ([d.dice[0], d.dice[1]] as const) : null,
    positionId: d.positionId,
    matchId: d.matchId,
    game: d.game,
    index: d.index,
  };
}

/** A record's decisions: a move (after the no-double before its roll, when that was a decision), a double, a take or a drop. */
function decisionsOf(d: ReplayedDecision, game: ReplayedGame, match: ReplayedMatch): MatchDecision<ReplayedDecision>[] {
  const common = { game: d.game, player: d.player, source: d };
  if (d.action !== 'move') return [{ ...common, kind: d.action, fields: fieldsOf(d) }];
  const turn = d.turn;
  if (!turn || !d.dice) throw new Error('a replayed move without its turn');
  const out: MatchDecision<ReplayedDecision>[] = [];
  // The cube decision before the roll is judged without the dice he then rolled.
  if (cubeOpenBeforeRoll(d, game, match))
    out.push({ ...common, kind: 'no-double', fields: { ...fieldsOf(d), dice: null, matchId: makeMatchId({ ...d.match, dice: null }) } });
  // The opening roll of a game is never a double (SH-START-1).
  const opening = d.index === 0 || game.decisions.slice(0, d.index).every((x) => x.action !== 'move');
  const legalPlays = d.legalPlays ?? 1;
  out.push({
    ...common,
    kind: 'play',
    fields: fieldsOf(d),
    play: {
      played: makeGnubgNotation(turn.steps, turn.hits),
      positionIdAfter: d.positionIdAfter ?? '',
      ranked: legalPlays > 1,
      legalPlays,
      luck: { dice: d.dice, opening },
      lead: {},
      trail: { playedPositionIdAfter: d.positionIdAfter, legalPlays: d.legalPlays },
    },
  });
  return out;
}

/** A backgammon match, replayed, as the reader of the analysis pipeline. */
export function shortMatchReader(match: ReplayedMatch): MatchReader<ReplayedDecision> {
  const money = match.record.length === 0;
  return {
    players: match.record.players,
    decisions: match.games.flatMap((game) => game.decisions.flatMap((d) => decisionsOf(d, game, match))),
    games: match.games.map((g) => ({
      number: g.number,
      winner: g.winner,
      lead: { score: g.score, crawford: g.crawford },
      trail: { points: g.points, resigned: g.resigned },
    })),
    meta: { matchLength: match.record.length, finalScore: match.finalScore },
    units: money ? 'money equity per unit of the cube' : 'EMG (match winning chances rescaled to a single game at the cube)',
    best: (d, plies, dice, limit, keep) => bestRequest(d, plies, dice, limit, keep),
    cube: (d, plies) => cubeRequest(d, match, plies),
    equityAfter: (d, t) => equityAfter(t, situationOf(d, match, d.player)),
    rankedFields: (ranking) => ({ cubelessBestPositionIdAfter: ranking.turns[0]?.positionId }),
    rollOffRival,
  };
}
