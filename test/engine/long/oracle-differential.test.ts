import { Dice } from '../../../src/engine/dice';
import { parseLongOverrides } from '../../../src/engine/long/options';
import { flipBoard } from '../../../src/engine/long/board';
import { parseLongPosition } from '../../../src/engine/long/position';
import { LONG_PRESETS, LongPresetName } from '../../../src/engine/long/rules';
import { PendingStage } from '../../../src/engine/long/stages';
import { LongPosition } from '../../../src/engine/long/position';
import { LongTurn, legalLongTurns } from '../../../src/engine/long/turn';
import { LONG_ORACLE_PRESETS, readOracleCases } from '../../support/oracles';

/*
 * Differential test against the independent reference implementation of
 * the spec (../shared/oracles/longnardy, README there): for every case the
 * set of resulting positions, the units used, the head allowance and — for
 * the variants — what comes next (cascade, re-roll, debt, game over) must
 * agree.
 */

interface OracleSide {
  points: Record<string, number>;
  off: number;
}
interface OracleResult {
  position: { white: OracleSide; black: OracleSide };
  steps: [number, number][];
  next?: { actor: string; units: number[] | null; origin: string; extra?: boolean }[];
  debt?: number[][];
  gameOver?: boolean;
}
interface OracleCase {
  id: string;
  preset: string;
  config: Record<string, unknown>;
  position: { white: OracleSide; black: OracleSide };
  turn: 'white' | 'black';
  firstTurn: { white: boolean; black: boolean };
  dice?: [number, number];
  units?: number[];
  origin?: 'cascade' | 'reroll' | 'debt';
  debtRest?: number[][];
  extraStage?: boolean;
  expected: {
    count: number;
    unitsUsed: number;
    headAllowance: number | string;
    results: OracleResult[];
    next?: OracleResult['next'];
    debt?: number[][];
  };
}

const PRESET = LONG_ORACLE_PRESETS as Readonly<Record<string, LongPresetName>>;

/**
 * Both sides' checkers and borne-off counts, whoever is to move: the board
 * seen from White (board.ts). Cheaper than the JSON of the position, which
 * was most of this file's time.
 */
function physicalKey(p: LongPosition): string {
  return (p.turn === 'white' ? p.board : flipBoard(p.board)).join(',');
}

function nextOf(turn: LongTurn, mover: string): { next: unknown[]; debt: unknown[]; gameOver: boolean } {
  const n = turn.next;
  if (n.kind === 'cascade') {
    const extra = turn.state.pending[0]?.last ? { extra: true } : {};
    return { next: [{ actor: n.actor, units: n.units, origin: 'cascade', ...extra }], debt: [], gameOver: false };
  }
  if (n.kind === 'reroll') return { next: [{ actor: n.actor, units: null, origin: 'reroll' }], debt: [], gameOver: false };
  if (n.kind === 'debt' && n.actor === mover) {
    return { next: (n.stages ?? []).map((u) => ({ actor: n.actor, units: u, origin: 'debt' })), debt: [], gameOver: false };
  }
  if (n.kind === 'debt') return { next: [], debt: (n.stages ?? []).map((u) => [...u]), gameOver: false };
  return { next: [], debt: [], gameOver: n.kind === 'gameOver' };
}

/** Compares one case; returns a description of the first disagreement, or null. */
function disagreement(c: OracleCase): string | null {
  const preset = LONG_PRESETS[PRESET[c.preset]];
  const rules = parseLongOverrides(preset, c.config);
  if (!rules.ok) return `config rejected: ${rules.error.message}`;
  const parsed = parseLongPosition({ ...c.position, turn: c.turn, firstTurn: c.firstTurn }, rules.value.initialPosition);
  if (!parsed.ok) return `position rejected: ${parsed.error.message}`;
  let pending: PendingStage[] = [];
  let dice: Dice | undefined = c.dice;
  if (c.units) {
    if (c.origin === 'reroll') {
      pending = [{ actor: c.turn, origin: 'reroll' }];
      dice = [c.units[0], c.units[1]];
    } else {
      const origin = c.origin ?? 'cascade';
      pending = [c.extraStage ? { actor: c.turn, origin, units: c.units, last: true } : { actor: c.turn, origin, units: c.units }];
      for (const u of c.debtRest ?? []) pending.push({ actor: c.turn, origin: 'debt', units: u });
      dice = undefined;
    }
  }
  const answer = legalLongTurns(rules.value, { position: parsed.value, pending }, dice);
  if (!answer.ok) return `error ${answer.error.code}`;
  const { turns, unitsUsed, stage } = answer.value;
  if (stage.headAllowance !== c.expected.headAllowance) return `head allowance ${stage.headAllowance} vs ${c.expected.headAllowance}`;
  const ours = new Map(turns.map((t) => [physicalKey(t.state.position), t]));
  if (c.expected.results.length === 0) {
    if (turns.length !== 1 || turns[0].steps.length !== 0) return `expected no legal play, got ${turns.length} plays`;
    if (c.expected.next !== undefined) {
      const got = nextOf(turns[0], c.turn);
      const want = { next: c.expected.next, debt: c.expected.debt ?? [], gameOver: false };
      if (JSON.stringify(got) !== JSON.stringify(want)) return `next ${JSON.stringify(got)} vs ${JSON.stringify(want)}`;
    }
    return null;
  }
  if (ours.size !== c.expected.results.length) return `${ours.size} results vs ${c.expected.results.length}`;
  const gameEnding = c.expected.results.some((r) => r.gameOver);
  if (!gameEnding && unitsUsed !== c.expected.unitsUsed) return `units used ${unitsUsed} vs ${c.expected.unitsUsed}`;
  for (const r of c.expected.results) {
    const p = parseLongPosition({ ...r.position, turn: c.turn }, rules.value.initialPosition);
    if (!p.ok) return `oracle result rejected: ${p.error.message}`;
    const turn = ours.get(physicalKey(p.value));
    if (!turn) return `missing result ${JSON.stringify(r.position)}`;
    if (r.next !== undefined) {
      const got = nextOf(turn, c.turn);
      const want = { next: r.next, debt: r.debt ?? [], gameOver: r.gameOver ?? false };
      if (JSON.stringify(got) !== JSON.stringify(want)) return `next ${JSON.stringify(got)} vs ${JSON.stringify(want)}`;
    }
  }
  return null;
}

describe('differential: long nardy oracle (../shared/oracles/longnardy)', () => {
  const summary: string[] = [];
  afterAll(() => {
    // Printed so the count is visible in `npm test` output.
    console.log(`long-nardy oracle agreement: ${summary.join(', ')}`);
  });

  for (const file of Object.keys(PRESET)) {
    it(`every ${file} case agrees with the reference implementation`, () => {
      const cases = readOracleCases<OracleCase>(`longnardy/cases-${file}.jsonl`);
      expect(cases.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const c of cases) {
        const why = disagreement(c);
        if (why) failures.push(`${c.id}: ${why}`);
      }
      summary.push(`${file} ${cases.length - failures.length}/${cases.length}`);
      expect(failures.slice(0, 10)).toEqual([]);
    });
  }
});
