import { Result, err, ok } from '../result';
import { Side } from '../side';
import { CubeError, cubeError } from './cube-errors';
import { CHECKERS_PER_SIDE } from './loser';
import { RESIGN_LEVELS, ResignLevel, Rung, sideName } from './score';

/**
 * A resignation offered by the side to lose. `off` (the resigner's
 * borne-off count) is needed only for levels charged per checker (KH-4).
 */
export interface Resignation {
  readonly level: ResignLevel;
  readonly off?: number;
}

/** One level a scoring admits, for clients that offer a choice. */
export interface ResignationLevelInfo {
  readonly level: ResignLevel;
  /** Stakes before the cube; per checker not borne off when `perChecker`. */
  readonly multiplier: number;
  readonly perChecker: boolean;
  /** The rule whose result the level concedes. */
  readonly rule: string;
}

/** Builds a level list from `[level, multiplier, rule, perChecker?]` rows. */
export function resignationLevelList(
  rows: readonly (readonly [ResignLevel, number, string, boolean?])[],
): readonly ResignationLevelInfo[] {
  return rows.map(([level, multiplier, rule, perChecker]) => ({
    level,
    multiplier,
    rule,
    perChecker: perChecker ?? false,
  }));
}

const LEVEL_NAME: Readonly<Record<ResignLevel, string>> = {
  single: 'single',
  mars: 'mars',
  koks: 'koks',
  'soviet-4': 'Soviet 4',
  'soviet-8': 'Soviet 8',
  'per-checker': 'per-checker',
};

/**
 * The rung an accepted resignation is worth under a scoring whose levels are
 * `levels`. Every level above `single` / plain per-checker is gammon-like:
 * the Jacoby rule reduces it like the board result it stands for (CUBE-5).
 */
export function resignationRung(
  levels: readonly ResignationLevelInfo[],
  resigner: Side,
  resignation: Resignation,
): Result<Rung, CubeError> {
  if (typeof resignation !== 'object' || resignation === null || !RESIGN_LEVELS.includes(resignation.level)) {
    return err(
      cubeError('INVALID_RESIGNATION', `the resignation level must be one of ${RESIGN_LEVELS.join(', ')}`, {
        field: 'resignation.level',
      }),
    );
  }
  const info = levels.find((l) => l.level === resignation.level);
  if (!info) {
    return err(
      cubeError(
        'RESIGN_LEVEL_UNAVAILABLE',
        `this scoring has no ${resignation.level} result; available: ${levels.map((l) => l.level).join(', ')}`,
        { field: 'resignation.level', rule: levels[0]?.rule },
      ),
    );
  }
  const name = `a resignation at ${LEVEL_NAME[info.level]} level`;
  if (!info.perChecker) {
    return ok({
      result: `resign-${info.level}`,
      multiplier: info.multiplier,
      rule: info.rule,
      name,
      reason: `${sideName(resigner)} resigned conceding a ${LEVEL_NAME[info.level]} result`,
      gammonLike: info.multiplier > 1,
    });
  }
  const off = resignation.off;
  if (!Number.isInteger(off) || (off as number) < 0 || (off as number) >= CHECKERS_PER_SIDE) {
    return err(
      cubeError('INVALID_RESIGNATION', 'a per-checker resignation needs off, the checkers borne off, 0..14', {
        field: 'resignation.off',
        rule: 'KH-4',
      }),
    );
  }
  const left = CHECKERS_PER_SIDE - (off as number);
  return ok({
    result: `resign-${info.level}`,
    multiplier: info.multiplier * left,
    rule: info.rule,
    name,
    reason: `${sideName(resigner)} resigned with ${left} checker${left === 1 ? '' : 's'} not borne off`,
    gammonLike: info.multiplier > 1,
    checkersLeft: left,
    jacobyMultiplier: left,
  });
}
