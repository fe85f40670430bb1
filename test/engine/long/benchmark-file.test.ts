import { resolve } from 'path';
import { CLASSIC } from '../../../src/engine/long/rules';
import { legalLongTurns } from '../../../src/engine/long/turn';
import { winnerOf } from '../../../src/engine/long/game';
import { PHASES, decisionState, phaseOf } from '../../../src/eval/long/benchmark';
import { readBenchmark } from '../../../src/service/analysis/data';

/*
 * The committed long-nardy yardstick (data/benchmarks/long-classic.jsonl)
 * read as an outside engine reads it: every decision is a legal classic
 * position and roll of its phase, every candidate a legal play of it, and
 * a play that ends the game is worth what the game pays (LN-SCORE-1, LN-SCORE-2:
 * oin 1, mars 2), whichever side the finished position leaves to move.
 */
const decisions = readBenchmark(resolve(__dirname, '../../../data/benchmarks/long-classic.jsonl'));

describe('long-nardy yardstick file', () => {
  it('holds distinct decisions of every phase, each a legal roll whose candidates are legal plays, a game-ending one worth its result (LN-END-1, LN-SCORE-1, LN-SCORE-2)', () => {
    expect(new Set(decisions.map((d) => d.id)).size).toBe(decisions.length);
    for (const p of PHASES) expect(decisions.filter((d) => d.phase === p).length).toBeGreaterThan(0);
    for (const d of decisions) {
      const state = decisionState(d);
      expect(phaseOf(state.position.board)).toBe(d.phase);
      const answer = legalLongTurns(CLASSIC, state, d.dice);
      if (!answer.ok) throw new Error(`decision ${d.id}: ${answer.error.message}`);
      const legal = new Map(answer.value.turns.map((t) => [Array.from(t.board).join(','), t]));
      expect(legal.size).toBe(d.plays);
      expect(d.candidates.length).toBeGreaterThanOrEqual(2);
      expect(new Set(d.candidates.map((c) => c.board)).size).toBe(d.candidates.length);
      for (const c of d.candidates) {
        const turn = legal.get(c.board);
        if (!turn) throw new Error(`decision ${d.id}: candidate ${c.board} is no legal play of ${d.dice.join('-')}`);
        if (winnerOf(turn.state) !== null) {
          // The mover bore off his last checker (LN-END-1): oin 1, mars 2 when the opponent has borne off none (LN-SCORE-1, LN-SCORE-2).
          expect({ id: d.id, equity: c.equity, se: c.se }).toEqual({ id: d.id, equity: turn.board[25] === 0 ? 2 : 1, se: 0 });
        }
        if (d.phase === 'bearoff') expect(c.se).toBe(0);
      }
    }
  });
});
