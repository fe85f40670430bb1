import { playLongGame, winnerOf } from '../../../src/engine/long/game';
import { makeLongPositionJson } from '../../../src/engine/long/position';
import { LONG_PRESETS, LongPresetName } from '../../../src/engine/long/rules';
import { pendingAllowed } from '../../../src/engine/long/state';
import { LongState } from '../../../src/engine/long/turn';
import { SeededRandom } from '../../../src/engine/random';
import { runs } from '../../support/runs';

/*
 * For each preset, 500 complete seeded random games (fewer outside CI, see runs()), checking the
 * invariants after every stage: 15 checkers a side, no point shared, pending
 * stages well-formed, and every game ends with a winner.
 *
 * Why 500: it is where this test's branch coverage of src/engine stops growing
 * (measured with jest --coverage: 50 games a preset reach every line that
 * 2,000 reach, 500 every branch; 2,000 reach none more). A quarter of it
 * outside CI misses one branch — a pair step refused under sixBlockTiming
 * everyStep (long/stage.ts) — that the oracle differential test takes 202 times.
 */

const GAMES = runs(500);
const PRESETS = Object.keys(LONG_PRESETS) as LongPresetName[];

function invariantsHold(preset: LongPresetName, state: LongState): string | null {
  const rules = LONG_PRESETS[preset];
  const json = makeLongPositionJson(state.position);
  for (const side of ['white', 'black'] as const) {
    const total = Object.values(json[side].points).reduce((a, b) => a + b, 0) + (json[side].off ?? 0);
    if (total !== 15) return `${side} has ${total} checkers`;
  }
  for (const p of Object.keys(json.white.points)) {
    const q = Number(p) <= 12 ? Number(p) + 12 : Number(p) - 12;
    if (json.black.points[String(q)]) return `point W${p} shared`;
  }
  for (const stage of state.pending) {
    if (stage.actor !== state.position.turn) return 'pending stage not owned by the side to move';
    if (!pendingAllowed(rules, stage)) return `pending ${stage.origin} impossible under ${preset}`;
    if (stage.origin === 'reroll' ? stage.units !== undefined : !stage.units || stage.units.length < 1 || stage.units.length > 4) {
      return 'malformed pending units';
    }
    if (stage.units && stage.units.some((u) => u !== stage.units?.[0] || u < 1 || u > 6)) return 'pending units not one die value';
  }
  if (state.pending.length > 0 && winnerOf(state)) return 'pending stages after the game ended';
  return null;
}

describe('seeded self-play, every preset', () => {
  const report: string[] = [];
  afterAll(() => console.log(`self-play: ${report.join('; ')}`));

  for (const preset of PRESETS) {
    it(`${preset}: ${GAMES} random games end with a winner and keep the invariants after every stage`, () => {
      const random = new SeededRandom(1000 + PRESETS.indexOf(preset));
      let stages = 0;
      let cascades = 0;
      let debts = 0;
      let rerolls = 0;
      const problems: string[] = [];
      for (let g = 0; g < GAMES; g++) {
        const winner = playLongGame(LONG_PRESETS[preset], random, (step) => {
          stages++;
          const kind = step.chosen.next.kind;
          if (kind === 'cascade') cascades++;
          else if (kind === 'reroll') rerolls++;
          else if (kind === 'debt') debts++;
          const why = invariantsHold(preset, step.chosen.state);
          if (why && problems.length < 5) problems.push(`game ${g}: ${why}`);
        });
        if (!winner && problems.length < 5) problems.push(`game ${g} did not end`);
      }
      report.push(`${preset} ${GAMES} games, ${stages} stages (${cascades} cascade, ${rerolls} re-roll, ${debts} debt)`);
      expect(problems).toEqual([]);
    });
  }
});
