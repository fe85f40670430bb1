import { Layout } from './model';

export const SHORT_LAYOUT: Layout = {
  moverOff: 0,
  opponentOff: 27,
  moverBar: 25,
  opponentBar: 26,
  other: (p) => 25 - p,
};

/**
 * Short nardy: no contact — every checker of the side to move (the bar
 * counting as point 25) is past every opponent checker (his bar counting
 * as the mover's point 0), so no hit or block can happen again. `base`:
 * the board starts there (a board among others in one array).
 */
export function isShortRace(board: Int8Array, base = 0): boolean {
  if (board[base + 25] > 0 || board[base + 26] > 0) return false;
  let rearMine = 0;
  for (let p = 24; p >= 1; p--) {
    if (board[base + p] > 0) {
      rearMine = p;
      break;
    }
  }
  for (let p = 1; p <= 24; p++) {
    if (board[base + p] < 0) return p > rearMine;
  }
  return true;
}

/**
 * Short nardy: both sides bearing off — every checker of each side in its
 * own home (the mover's points 1…6, the opponent's 19…24), none on the bar.
 */
export function isShortBearoff(board: Int8Array): boolean {
  if (board[25] > 0 || board[26] > 0) return false;
  for (let p = 7; p <= 24; p++) if (board[p] > 0) return false;
  for (let p = 1; p <= 18; p++) if (board[p] < 0) return false;
  return true;
}

/**
 * Backgammon first-roll bear-off search (`firstRollOffChance`). A race has
 * no blocking, so the moves of a roll commute except that bearing off needs
 * every checker home: the search first spends dice on the checkers still
 * outside (own 7..25), then, with all home, tries to bear one off, moving
 * checkers inside home first where a spare die allows it.
 */
function bearsOff(pos: Int8Array, outside: number, dice: Int8Array, n: number): boolean {
  // With checkers outside, every one of them needs a die of its own, and then one must go off.
  let from = 25;
  let lowest = 7;
  if (outside === 0) {
    if (n === 0) return false;
    let high = 0;
    for (let p = 6; p >= 1; p--) {
      if (pos[p] > 0) {
        high = p;
        break;
      }
    }
    if (high === 0) return true;
    for (let i = 0; i < n; i++) {
      const die = dice[i];
      if (pos[die] > 0 || die > high) return true;
    }
    if (n === 1) return false;
    from = high;
  } else if (outside > n) return false;
  let tried = 0;
  for (let i = 0; i < n; i++) {
    const die = dice[i];
    if (tried & (1 << die)) continue;
    tried |= 1 << die;
    dice[i] = dice[n - 1];
    dice[n - 1] = die;
    // All home: move a checker inside home with this die (one that lands on a point), then try again.
    if (outside === 0) lowest = die + 1;
    let ok = false;
    for (let p = from; p >= lowest && !ok; p--) {
      if (pos[p] === 0) continue;
      const q = p - die;
      pos[p]--;
      pos[q]++;
      ok = bearsOff(pos, outside > 0 && q <= 6 ? outside - 1 : outside, dice, n - 1);
      pos[q]--;
      pos[p]++;
    }
    dice[n - 1] = dice[i];
    dice[i] = die;
    if (ok) return true;
  }
  return false;
}

/** The 15 non-double rolls. */
const NON_DOUBLES: readonly (readonly [number, number])[] = (() => {
  const rolls: [number, number][] = [];
  for (let a = 2; a <= 6; a++) for (let b = 1; b < a; b++) rolls.push([a, b]);
  return rolls;
})();


/**
 * Exact chance that a backgammon side with none off bears its first checker
 * off with its next roll: every checker outside home must come in and one
 * go off, all with that roll's dice. `own` holds the side's counts by own
 * point, [25] = bar.
 */
export function firstRollOffChance(own: Int8Array): number {
  let outside = 0;
  for (let p = 7; p <= 25; p++) outside += own[p];
  if (outside > 4) return 0;
  // Scratch of the search: the side's counts and the dice of one roll.
  const searchBoard = new Int8Array(26);
  const searchDice = new Int8Array(4);
  let chance = 0;
  for (let d = 1; d <= 6; d++) {
    searchDice.fill(d);
    searchBoard.set(own);
    if (bearsOff(searchBoard, outside, searchDice, 4)) chance += 1 / 36;
  }
  if (outside > 2) return chance;
  for (const [a, b] of NON_DOUBLES) {
    searchDice[0] = a;
    searchDice[1] = b;
    searchBoard.set(own);
    if (bearsOff(searchBoard, outside, searchDice, 2)) chance += 2 / 36;
  }
  return chance;
}
