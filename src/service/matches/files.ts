import { makeMat, parseMat } from '../../engine/short/mat';
import { MatchFileError, MatchRecord, ReplayedMatch, replayMatch } from '../../engine/short/match-record';
import { makeSgf, parseSgf } from '../../engine/short/sgf';
import { Result } from '../../engine/result';
import { ServiceError } from '../errors';
import { MatchFileFormat } from './types';

export const MATCH_FILE_FORMATS: readonly MatchFileFormat[] = ['mat', 'sgf'];

export function isMatchFileFormat(value: unknown): value is MatchFileFormat {
  return typeof value === 'string' && (MATCH_FILE_FORMATS as readonly string[]).includes(value);
}

function orFail<T>(r: Result<T, MatchFileError>): T {
  if (!r.ok) throw new ServiceError({ ...r.error });
  return r.value;
}

/**
 * Reads a match file and replays every move through the rules core. A file
 * that cannot be read, or holds an illegal move, is a 400 INVALID_MATCH_FILE
 * naming the game and the move (`game`, `move`, `reason`); nothing of it is
 * kept. `jacoby`: a money session's Jacoby rule instead of the file's
 * (CUBE-5; a `.mat` file without a `Jacoby` tag is read with gnubg's
 * default, on).
 */
export function importMatchFile(
  file: { readonly format: MatchFileFormat; readonly text: string },
  options: { readonly jacoby?: boolean } = {},
): ReplayedMatch {
  const record: MatchRecord = orFail(file.format === 'mat' ? parseMat(file.text) : parseSgf(file.text));
  const withRules =
    options.jacoby !== undefined && record.length === 0 ? { ...record, jacoby: options.jacoby } : record;
  return orFail(replayMatch(withRules));
}

/** A replayed match written in `format` (byte-stable: importing the text and writing it again gives the same text). */
export function exportMatchFile(match: ReplayedMatch, format: MatchFileFormat): string {
  if (format === 'mat') return makeMat(match.record);
  return makeSgf(match.record, new Set(match.games.filter((g) => g.crawford).map((g) => g.number)));
}
