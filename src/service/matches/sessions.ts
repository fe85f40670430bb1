import {
  MatchPlayer,
  MatchRecord,
  RecordedAction,
  RecordedGame,
  RecordedResult,
  ReplayedMatch,
  replayMatch,
} from '../../engine/short/match-record';
import { Side } from '../../engine/side';
import { fail } from '../errors';
import { HistoryEvent, SessionRecord } from '../sessions/record';
import { GameSessions } from '../sessions/service';
import { makeSessionLog } from './long';
import { exportMatchFile } from './files';
import { MatchFileFormat } from './types';

const playerOf = (side: Side | null): MatchPlayer => (side === 'black' ? 1 : 0);

/**
 * A session (`/v1/games/{id}`, a single game or a whole match) as a match
 * record, read from its history: White is player 0, Black player 1. The
 * game in progress, if any, is the last game, without a result. Only the
 * short family (backgammon) has this record; a long-family session is
 * written in the long-nardy dialect (long.ts).
 */
export async function sessionMatch(sessions: GameSessions, id: string): Promise<ReplayedMatch> {
  const { record, events } = await sessions.source(id);
  const { match } = SESSION_FILES[record.family];
  if (!match) {
    fail(
      'INVALID_REQUEST',
      `${record.variant} is of the ${record.family} family: its match file is the long-nardy .mat dialect (longMatchReader reads it)`,
      { field: 'id' },
    );
  }
  return match(record, events);
}

function matchOfSession(record: SessionRecord, events: readonly HistoryEvent[]): ReplayedMatch {
  const games: RecordedGame[] = [];
  const score: [number, number] = [0, 0];
  let actions: RecordedAction[] = [];
  let result: RecordedResult | null = null;
  let resigned = false;
  let current = 0;
  let moves = 0;
  const close = (): void => {
    if (current === 0) return;
    games.push({ number: current, score: [score[0], score[1]], actions, result });
    if (result) score[result.winner] += result.points;
  };
  for (const e of events) {
    if (e.game !== current) {
      close();
      current = e.game;
      actions = [];
      result = null;
      resigned = false;
      moves = 0;
    }
    const player = playerOf(e.seat);
    switch (e.type) {
      case 'play':
      case 'no-play':
        if (!e.dice) fail('INTERNAL', 'a stored play without its dice');
        actions.push({
          kind: 'move',
          player,
          dice: [e.dice[0], e.dice[1]],
          steps: e.steps ?? [],
          moveNumber: ++moves,
        });
        break;
      case 'double':
      case 'take':
      case 'drop':
        actions.push({ kind: e.type, player, moveNumber: ++moves });
        break;
      case 'beaver':
      case 'raccoon':
        fail('INVALID_REQUEST', `this game has a ${e.type}, which .mat and SGF files cannot hold`, {
          field: 'id',
          rule: 'CUBE-5',
        });
        break;
      case 'resign':
        resigned = true;
        break;
      case 'game-over':
        if (e.result && e.result.winner)
          result = {
            winner: playerOf(e.result.winner),
            points: e.result.points,
            ...(resigned ? { resigned: true } : {}),
          };
        break;
      default:
        break; // roll-off, roll, next-game: the dice come with the play
    }
  }
  close();
  const rules = record.rules as { jacoby?: boolean };
  const money = record.match === null;
  const match: MatchRecord = {
    // CUBE-5: a money session says its Jacoby rule, which a .mat file without the tag would read as gnubg's default.
    tags: [{ name: 'Variation', value: record.variant }, ...(money ? [{ name: 'Jacoby', value: rules.jacoby ? 'On' : 'Off' }] : [])],
    length: record.match?.length ?? 0,
    players: ['White', 'Black'],
    games,
    ...(money && rules.jacoby ? { jacoby: true } : {}),
  };
  const replayed = replayMatch(match);
  if (!replayed.ok) fail('INTERNAL', `the stored game does not replay: ${replayed.error.message}`);
  return replayed.value;
}

/** How a session of each family is written: its backgammon match record, where it has one, and its match file. */
interface SessionFiles {
  readonly match?: (record: SessionRecord, events: readonly HistoryEvent[]) => ReplayedMatch;
  file(record: SessionRecord, events: readonly HistoryEvent[], format: MatchFileFormat): string;
}

const SESSION_FILES: Record<SessionRecord['family'], SessionFiles> = {
  long: {
    file(record, events, format) {
      if (format !== 'mat') fail('INVALID_REQUEST', 'a long-family game is written only in the .mat dialect (format=mat)', { field: 'format' });
      return makeSessionLog(record, events);
    },
  },
  short: {
    match: matchOfSession,
    file: (record, events, format) => exportMatchFile(matchOfSession(record, events), format),
  },
};

/** `GET /v1/games/{id}/export?format=mat|sgf`: the session as a match file. */
export async function exportSession(sessions: GameSessions, id: string, format: MatchFileFormat): Promise<string> {
  const { record, events } = await sessions.source(id);
  return SESSION_FILES[record.family].file(record, events, format);
}
