import { LongRules, LongScoring } from '../long/rules';
import { Result, err, ok } from '../result';
import { Side, isSide, otherSide } from '../side';
import { CubeError, cubeError } from './cube-errors';
import { CHECKERS_PER_SIDE, LoserCheckers, checkLoser } from './loser';
import { lossCounts, lossKind } from './loss';
import { FamilyScorer, offReason, rung, scoreAcceptedResignation, scoreFinishedGame } from './ladder';
import { Resignation, ResignationLevelInfo, resignationLevelList } from './resign';
import {
  GameScore,
  NO_CUBE,
  Rung,
  Stake,
  checkStake,
  checkWinner,
  drawScore,
  scoreRung,
  sideName,
} from './score';

/**
 * The part of `LongRules` that scoring reads: the scoring table
 * (LN-SCORE-3/4), the cube switch (LN-SCORE-5), the last roll (LN-SCORE-6),
 * and what identifies Fevga / Giul (FV-6, CUBE-7) and cascade or re-roll
 * variants (LN-SCORE-6). Every `LongRules` is one.
 */
export type LongScoringRules = Pick<
  LongRules,
  'scoring' | 'cube' | 'lastRoll' | 'sixBlock' | 'headLimitPerTurn' | 'doubles'
>;

/** FV-6: tavli tradition, 1 for a single game and 2 when nothing was borne off; no triple. */
export const FEVGA_SCORING: Readonly<LongScoring> = Object.freeze({
  mode: 'oinMars',
  koks: 'none',
  homeMars: 'asMars',
});

/**
 * Fevga and Giul (§3.6, §3.7): the presets that play Fevga's runner and
 * prime rules instead of the classic head and block rules.
 */
export function isFevgaFamily(rules: Pick<LongRules, 'sixBlock' | 'headLimitPerTurn'>): boolean {
  return rules.sixBlock === 'fevgaRules' || rules.headLimitPerTurn === 'fevgaRunner';
}

/**
 * The scoring table in force. Fevga and Giul always score 1 / 2 (FV-6, no
 * triple), whatever `scoring` says; every other preset uses its options.
 */
export function effectiveLongScoring(
  rules: Pick<LongRules, 'scoring' | 'sixBlock' | 'headLimitPerTurn'>,
): Readonly<LongScoring> {
  return isFevgaFamily(rules) ? FEVGA_SCORING : rules.scoring;
}

/** LN-SCORE-5 / CUBE-7: the cube is used only when switched on, and never in Fevga or Giul. */
export function longCubeAllowed(rules: Pick<LongRules, 'cube' | 'sixBlock' | 'headLimitPerTurn'>): boolean {
  return rules.cube && !isFevgaFamily(rules);
}

/** Does a turn hold more than one roll's stages (cascade or re-roll, COM-9)? LN-SCORE-6 is not defined there. */
export function hasChainedDoubles(rules: Pick<LongRules, 'doubles'>): boolean {
  return rules.doubles !== 'standard';
}

function tripleRung(
  scoring: Readonly<LongScoring>,
  loser: LoserCheckers,
  loserName: string,
): { result: 'koks' | 'home-mars'; reason: string } | null {
  const counts = lossCounts(loser);
  // LN-SCORE-3 K1 / K2: all fifteen home, none off.
  if (scoring.homeMars === 'triple' && lossKind(counts, 'allHome') === 3) {
    return { result: 'home-mars', reason: `${loserName} has all his checkers home but bore off none` };
  }
  // K3: none off and a checker still in the loser's starting quarter (own 19..24).
  if (scoring.koks === 'startQuarter' && lossKind(counts, 'startQuarter') === 3) {
    return {
      result: 'koks',
      reason: `${loserName} bore off none and still has a checker in his starting quarter`,
    };
  }
  // K4: none off and not a single checker has reached home (own 1..6).
  if (scoring.koks === 'noneInHome' && lossKind(counts, 'noneInHome') === 3) {
    return { result: 'koks', reason: `${loserName} bore off none and has no checker home` };
  }
  return null;
}

/**
 * The loser's position → its rung of the long family's ladder, before the
 * cube. LN-SCORE-4: with more than one definition enabled the highest
 * multiplier is evaluated first; the K1/K2 home mars and the K3/K4 koks
 * conditions exclude each other (all home vs. some not home), so only the
 * Soviet-like 4 ever outranks a triple.
 */
function longRung(rules: LongScoringRules, loser: LoserCheckers, loserName: string): Rung {
  const scoring = effectiveLongScoring(rules);
  switch (scoring.mode) {
    case 'oinMars':
      return oinMarsRung(scoring, loser, loserName, isFevgaFamily(rules));
    case 'sovietLike':
      return sovietRung(scoring, loser, loserName);
    case 'perChecker':
      return perCheckerRung(scoring, loser, loserName);
  }
}

/** LN-SCORE-1…3, FV-6: an oin, a mars, or (K1–K4) a triple. */
function oinMarsRung(scoring: Readonly<LongScoring>, loser: LoserCheckers, loserName: string, fevga: boolean): Rung {
  const off = loser.off;
  if (lossKind(lossCounts(loser), 'none') === 1) return rung('oin', 1, fevga ? 'FV-6' : 'LN-SCORE-1', 'an oin', offReason(loserName, off));
  const triple = fevga ? null : tripleRung(scoring, loser, loserName);
  if (triple) return rung(triple.result, 3, 'LN-SCORE-3', tripleName(triple), triple.reason);
  return rung('mars', 2, fevga ? 'FV-6' : 'LN-SCORE-2', 'a mars', `${loserName} bore off no checkers`);
}

function tripleName(triple: { result: 'koks' | 'home-mars' }): string {
  return triple.result === 'koks' ? 'a koks' : 'a home mars';
}

/** LN-SCORE-4 (K5): a Soviet-style 1, 2 or 4, or a home mars when configured. */
function sovietRung(scoring: Readonly<LongScoring>, loser: LoserCheckers, loserName: string): Rung {
  const off = loser.off;
  // LN-SCORE-3 K5: 1 / 2 / 4, where 4 = none off and not all home; no bar, so no 8.
  const kind = lossKind(lossCounts(loser), 'notAllHome');
  if (kind === 1) {
    return rung('soviet-1', 1, 'LN-SCORE-4', 'a single game (Soviet-style 1)', offReason(loserName, off));
  }
  if (kind === 3) {
    const reason = `${loserName} bore off none and still has checkers outside his home`;
    return rung('soviet-4', 4, 'LN-SCORE-4', 'a Soviet-style 4', reason);
  }
  const allHome = `${loserName} has all his checkers home but bore off none`;
  if (scoring.homeMars === 'triple') return rung('home-mars', 3, 'LN-SCORE-3', 'a home mars', allHome);
  return rung('soviet-2', 2, 'LN-SCORE-4', 'a Soviet-style 2', allHome);
}

/** KH-4 (K6): a stake per checker not borne off, tripled per checker by a configured K1–K4 mars. */
function perCheckerRung(scoring: Readonly<LongScoring>, loser: LoserCheckers, loserName: string): Rung {
  const off = loser.off;
  const left = CHECKERS_PER_SIDE - off;
  // KH-4 / K6: one stake per checker not borne off, no mars multiplier unless
  // configured — the configured ones are the K1–K4 triples, applied per checker.
  const triple = off === 0 ? tripleRung(scoring, loser, loserName) : null;
  if (triple) {
    const name = `${tripleName(triple)} on ${left} checkers (3 per checker)`;
    return { ...rung(triple.result, 3 * left, 'LN-SCORE-3', name, triple.reason, true), checkersLeft: left, jacobyMultiplier: left };
  }
  const name = `a stake for each checker not borne off (${left})`;
  return { ...rung('per-checker', left, 'KH-4', name, `${loserName} bore off ${off} of 15`, false), checkersLeft: left };
}

function checkLongStake(rules: LongScoringRules, stake: Stake): Result<Stake, CubeError> {
  const checked = checkStake(stake);
  if (!checked.ok) return checked;
  if (!longCubeAllowed(rules) && (stake.cubeValue !== 1 || stake.cubeTurned || stake.jacoby)) {
    return err(
      cubeError(
        'CUBE_DISABLED',
        isFevgaFamily(rules)
          ? 'Fevga and Giul are never played with the doubling cube'
          : 'the doubling cube is off for these rules (long.cube)',
        { field: 'stake', rule: isFevgaFamily(rules) ? 'CUBE-7' : 'LN-SCORE-5' },
      ),
    );
  }
  return ok(stake);
}

/**
 * Scores a long-family game that ended when `winner` bore off his 15th
 * checker (LN-END-1): oin / mars (LN-SCORE-1/2), the K1–K5 options of
 * LN-SCORE-3/4, per checker for Khachapuri (KH-4), 1 / 2 for Fevga and Giul
 * (FV-6), all × the cube (LN-SCORE-5) and with the Jacoby rule when `stake`
 * says it is in force (CUBE-5).
 *
 * With `lastRoll=drawIfCompletes` and the first mover finishing, call
 * `lastRollRoller` first: the game is then scored by `scoreLastRoll` after
 * the second mover's roll (LN-SCORE-6).
 *
 * @param loser the other side's checkers, in his own numbering, `bar: 0`.
 * @param stake the cube; `NO_CUBE` by default.
 */
export const scoreLongGame: FamilyScorer<LongScoringRules, LoserCheckers> = (rules, winner, loser, stake = NO_CUBE) => {
  const checkStakeFor = (st: Stake) => checkLongStake(rules, st);
  return scoreFinishedGame('long', winner, loser, stake, checkStakeFor, (l, name) => longRung(rules, l, name));
};

/**
 * The resignation levels the scoring in use can produce, with their stakes
 * before the cube (docs/scoring.md, "Resignation"):
 * - oin / mars (K0, Fevga): `single` 1, `mars` 2; `koks` 3 only when a
 *   triple is configured (K1–K4) — never in Fevga (FV-6);
 * - Soviet-like (K5): `single` 1, `mars` 2, `koks` 3 only with
 *   `homeMars=triple`, `soviet-4` 4;
 * - per checker (KH-4): `per-checker` (one stake per checker not borne off)
 *   and, when a triple is configured, `koks` (three per checker).
 */
export function longResignationLevels(rules: LongScoringRules): readonly ResignationLevelInfo[] {
  const scoring = effectiveLongScoring(rules);
  if (isFevgaFamily(rules)) {
    return resignationLevelList([
      ['single', 1, 'FV-6'],
      ['mars', 2, 'FV-6'],
    ]);
  }
  const triple = scoring.koks !== 'none' || scoring.homeMars === 'triple';
  switch (scoring.mode) {
    case 'oinMars':
      return resignationLevelList([
        ['single', 1, 'LN-SCORE-1'],
        ['mars', 2, 'LN-SCORE-2'],
        ...(triple ? ([['koks', 3, 'LN-SCORE-3']] as const) : []),
      ]);
    case 'sovietLike':
      return resignationLevelList([
        ['single', 1, 'LN-SCORE-4'],
        ['mars', 2, 'LN-SCORE-4'],
        ...(scoring.homeMars === 'triple' ? ([['koks', 3, 'LN-SCORE-3']] as const) : []),
        ['soviet-4', 4, 'LN-SCORE-4'],
      ]);
    case 'perChecker':
      return resignationLevelList([
        ['per-checker', 1, 'KH-4', true],
        ...(triple ? ([['koks', 3, 'LN-SCORE-3', true]] as const) : []),
      ]);
  }
}

/**
 * Scores an accepted resignation in the long family: the resigner concedes
 * the level's stake × the cube (CUBE-4), Jacoby applying to levels above
 * single (CUBE-5). Levels per scoring: `longResignationLevels`; a
 * `per-checker` (or per-checker `koks`) resignation must say how many
 * checkers the resigner has borne off.
 */
export const scoreLongResignation: FamilyScorer<LongScoringRules, Resignation> = (rules, resigner, resignation, stake = NO_CUBE) => {
  const checkStakeFor = (st: Stake) => checkLongStake(rules, st);
  return scoreAcceptedResignation(() => longResignationLevels(rules), resigner, resignation, stake, checkStakeFor);
};

/**
 * LN-SCORE-6: after `finisher` bore off his 15th checker, does the other side
 * get one last roll? Only with `lastRoll=drawIfCompletes` and only when the
 * first mover finished; the result is the side that rolls, or `null` when
 * the game is over at once (always so with `lastRoll=none`). The option is
 * not defined for cascade or re-roll variants: `LAST_ROLL_UNDEFINED`.
 */
export function lastRollRoller(
  rules: Pick<LongRules, 'lastRoll' | 'doubles'>,
  firstMover: Side,
  finisher: Side,
): Result<Side | null, CubeError> {
  if (!isSide(firstMover) || !isSide(finisher)) {
    return err(
      cubeError('INVALID_LOSER', 'firstMover and finisher must be "white" or "black"', {
        field: 'firstMover',
      }),
    );
  }
  if (rules.lastRoll === 'none') return ok(null);
  if (hasChainedDoubles(rules)) return err(lastRollUndefined());
  return ok(finisher === firstMover ? otherSide(firstMover) : null);
}

function lastRollUndefined(): CubeError {
  return cubeError(
    'LAST_ROLL_UNDEFINED',
    'the last-roll option is not defined for variants whose doubles cascade or re-roll',
    { field: 'rules.lastRoll', rule: 'LN-SCORE-6' },
  );
}

/**
 * LN-SCORE-6 outcome: the first mover finished and the second mover has
 * played his last roll. A draw worth 0 if he has now borne off all 15,
 * otherwise the first mover wins what the second mover's position *after*
 * the roll is worth (oin, mars, koks… as `scoreLongGame`).
 *
 * @param secondMover the second mover's checkers after the last roll (off may be 15).
 */
export function scoreLastRoll(
  rules: LongScoringRules,
  firstMover: Side,
  secondMover: LoserCheckers,
  stake: Stake = NO_CUBE,
): Result<GameScore, CubeError> {
  if (rules.lastRoll !== 'drawIfCompletes') {
    return err(
      cubeError('LAST_ROLL_UNDEFINED', 'no last roll is played: lastRoll is "none"', {
        field: 'rules.lastRoll',
        rule: 'LN-SCORE-6',
      }),
    );
  }
  if (hasChainedDoubles(rules)) return err(lastRollUndefined());
  const w = checkWinner(firstMover, 'firstMover');
  if (!w.ok) return w;
  const l = checkLoser(secondMover, 'long', { allowAllOff: true, field: 'secondMover' });
  if (!l.ok) return l;
  const s = checkLongStake(rules, stake);
  if (!s.ok) return s;
  if (secondMover.off === CHECKERS_PER_SIDE) return ok(drawScore(stake.cubeValue));
  return ok(scoreRung(firstMover, longRung(rules, secondMover, sideName(otherSide(firstMover))), stake));
}
