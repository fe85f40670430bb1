import { effectiveCubeConfig } from '../../engine/scoring/cube';
import { GameScore } from '../../engine/scoring/score';
import { GnubgGameState } from '../../engine/short/gnubg-id';
import { TurnView } from '../views';
import { AllowedActions, Working, allowedActions } from './flow';
import { Expects, HistoryEvent, RollRecord, SessionRecord } from './record';

/** The state of a session as clients see it: no tokens, no unrevealed seed. */
export interface GameView {
  id: string;
  variant: string;
  family: string;
  status: 'playing' | 'finished';
  version: number;
  game: number;
  position: object;
  positionId: string;
  dice: number[] | null;
  cube: { value: number; owner: string; offeredBy?: string; enabled: boolean } | null;
  match: { length: number; crawford: boolean; score: { white: number; black: number }; crawfordGame: boolean; winner?: string } | null;
  expects: Expects | null;
  /** What each seat may do now. */
  allowed: AllowedActions;
  /** Short nardy: the position and match as gnubg writes them. */
  gnubg?: GnubgView;
  legalTurns?: TurnView[];
  result?: ScoreView;
  fairness: { commitment: string };
}

export interface GnubgView {
  /** The gnubg Position ID, seen from the player on roll. */
  positionId: string;
  /** The gnubg Match ID: cube, player on roll, who decides, dice, match length and score. */
  matchId: string;
  /** `PositionID:MatchID`, as gnubg's `set gnubgid` reads it. */
  id: string;
}

export interface ScoreView {
  winner: string | null;
  result: string;
  multiplier: number;
  cubeValue: number;
  points: number;
  rule: string;
  explanation: string;
  checkersLeft?: number;
}

export function scoreView(score: GameScore): ScoreView {
  const view: ScoreView = {
    winner: score.winner,
    result: score.result,
    multiplier: score.multiplier,
    cubeValue: score.cubeValue,
    points: score.points,
    rule: score.rule,
    explanation: score.explanation,
  };
  if (score.checkersLeft !== undefined) view.checkersLeft = score.checkersLeft;
  return view;
}

export function gameView(w: Working<unknown, unknown>, version: number): GameView {
  const { record, family, rules, state } = w;
  const game = record.game;
  const view: GameView = {
    id: record.id,
    variant: record.variant,
    family: record.family,
    status: record.status,
    version,
    game: game.number,
    position: family.positionView(state),
    positionId: family.positionId(state),
    dice: game.dice ? [game.dice[0], game.dice[1]] : null,
    cube: game.cube
      ? {
          value: game.cube.value,
          owner: game.cube.owner,
          enabled: true,
          ...(game.cube.offered ? { offeredBy: game.cube.offered.by } : {}),
        }
      : null,
    match: record.match
      ? {
          length: record.match.length,
          crawford: record.match.crawford,
          score: { white: record.match.score.white, black: record.match.score.black },
          crawfordGame: record.match.nextGameIsCrawford,
          ...(record.match.winner ? { winner: record.match.winner } : {}),
        }
      : null,
    expects: record.expects ? { ...record.expects } : null,
    allowed: allowedActions(w),
    fairness: { commitment: game.commitment },
  };
  if (record.expects?.action === 'play') {
    const legal = family.legal(rules, state, game.dice ?? undefined, { lastRoll: game.lastRoll });
    if (legal.ok) view.legalTurns = legal.value.turns.map((t) => t.view);
  }
  if (game.result) view.result = scoreView(game.result);
  const gnubg = gnubgView(w);
  if (gnubg) view.gnubg = gnubg;
  return view;
}

function gnubgGameState(result: GameScore | null): GnubgGameState {
  if (!result) return 'playing';
  if (result.result === 'dropped-cube') return 'dropped';
  return result.result.startsWith('resign-') ? 'resigned' : 'over';
}

/** The session of a backgammon game as gnubg's Position ID and Match ID (white is gnubg's player 0); none where the family has no gnubg IDs. */
function gnubgView(w: Working<unknown, unknown>): GnubgView | undefined {
  const { record, family, state } = w;
  if (!family.gnubgId) return undefined;
  const game = record.game;
  const onRoll = family.sideToAct(state);
  const cube = game.cube;
  const match = record.match;
  const id = family.gnubgId(state, {
    cubeValue: cube?.value ?? 1,
    cubeOwner: cube && cube.owner !== 'center' ? cube.owner : null,
    onRoll,
    turn: record.expects && record.expects.action !== 'next-game' ? record.expects.seat : onRoll,
    crawford: match?.nextGameIsCrawford ?? false,
    gameState: gnubgGameState(game.result),
    doubleOffered: cube?.offered !== undefined,
    resignation: 'none',
    dice: game.dice,
    matchLength: match?.length ?? 0,
    score: { white: match?.score.white ?? 0, black: match?.score.black ?? 0 },
    jacoby: effectiveCubeConfig(record.cubeConfig, match).jacoby,
  });
  const [positionId, matchId] = id.split(':');
  return { positionId, matchId, id };
}

export function historyView(record: SessionRecord, events: HistoryEvent[]): { id: string; events: HistoryEvent[] } {
  return { id: record.id, events };
}

export interface FairnessGameView {
  number: number;
  commitment: string;
  /** Revealed once the game is over; null while it is being played. */
  seed: string | null;
  rolls: RollRecord[];
}

/** `GET /v1/games/{id}/fairness`: everything needed to recompute every roll of finished games. */
export function fairnessView(record: SessionRecord): { id: string; scheme: string; games: FairnessGameView[] } {
  const games: FairnessGameView[] = record.finishedGames.map((g) => ({
    number: g.number,
    commitment: g.commitment,
    seed: g.seed,
    rolls: g.rolls,
  }));
  const current = record.game;
  games.push({
    number: current.number,
    commitment: current.commitment,
    seed: current.result ? current.seed : null,
    rolls: current.rolls,
  });
  return {
    id: record.id,
    scheme:
      'commitment = SHA-256(seed); roll i = HMAC-SHA256(seed, "roll:" + i), bytes >= 252 skipped, die = byte mod 6 + 1 (docs/fairness.md)',
    games,
  };
}
