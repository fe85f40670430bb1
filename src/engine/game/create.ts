import { bindByName, withCubeOption, withFamily } from '../family';
import { Result, err, ok } from '../result';
import { MatchState, newMatch } from '../scoring/match';
import { newGameState } from './reducer';
import { Applied, GameError } from './types';

/** What a new game is made of: a variant (COM-1), rule overrides, the cube option and a match. */
export interface GameOptions {
  readonly variant: unknown;
  /** Rule options that differ from the variant's preset. */
  readonly rules?: unknown;
  /** The cube option (LN-SCORE-5); the variant's own setting when absent. */
  readonly cube?: boolean;
  /** A match to `length` points, Crawford rule on unless switched off (CUBE-6). */
  readonly match?: { readonly length: unknown; readonly crawford?: boolean };
}

/**
 * A new game or match, with the roll-off awaited unless the rules name the
 * first mover — or the option that cannot be played, naming its field.
 */
export function createGameState(options: GameOptions): Result<Applied, GameError> {
  const requested = bindByName(options.variant, options.rules);
  if (!requested.ok) return err({ by: 'rules', ...requested.error });
  // `cube: true|false` is the rules' cube option (LN-SCORE-5, §5.8).
  const bound = options.cube === undefined ? requested.value : withCubeOption(requested.value, options.cube);
  let match: MatchState | null = null;
  if (options.match !== undefined) {
    const m = newMatch(options.match.length as number, { crawford: options.match.crawford });
    if (!m.ok) return err({ by: 'cube', ...m.error, field: 'match.length' });
    match = m.value;
  }
  const cube = withFamily(bound, (b) => b.family.cubeConfig(b.rules, options.cube));
  if (!cube.ok) return err({ by: 'cube', ...cube.error, field: 'cube' });
  if (options.cube === true && !cube.value.enabled) {
    return err({ by: 'rules', code: 'INVALID_RULES', message: `${bound.variant.name} is never played with the doubling cube`, field: 'cube', rule: 'CUBE-7' });
  }
  return ok(newGameState(bound, { cubeConfig: cube.value, match }));
}
