import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { COLUMNS, lossesByDecision, pairedDifference, scoreCell, scoreChoices } from '../../../src/eval/long/benchmark';
import { readBenchmark, readSubmission } from '../../../src/service/analysis/data';

/*
 * The README's "For outside engines" example: its submission is read and
 * scored against the committed yardstick as `npm run benchmark:long --
 * --submission` does, and gives the row the README prints.
 */
const readme = readFileSync(resolve(__dirname, '../../../README.md'), 'utf8');
const section = (readme.split('## For outside engines')[1] ?? '').split('\n## ')[0];
const submission = /```jsonl\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';
const printed = /```text\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';
const decisions = readBenchmark(resolve(__dirname, '../../../data/benchmarks/long-classic.jsonl'));

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchmark-submission-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function submit(text: string): Map<number, string> {
  const file = join(dir, 'choices.jsonl');
  writeFileSync(file, text);
  return readSubmission(file);
}

describe('long-nardy yardstick: scoring an outside submission', () => {
  it('scores the README example as the README prints', () => {
    expect(submission.split('\n')).toHaveLength(2);
    const choices = submit(submission);
    const scores = scoreChoices(decisions, (d) => choices.get(d.id) ?? null);
    expect(`| my-engine | ${COLUMNS.map((c) => scoreCell(scores[c])).join(' | ')} |`).toBe(printed);
    // Given decision 0's best candidate and one of decision 1 that is not, Then the mean loss is half of the latter's.
    const d1 = decisions[1];
    const loss = 1000 * (Math.max(...d1.candidates.map((c) => c.equity)) - (d1.candidates.find((c) => c.board === choices.get(1))?.equity ?? NaN));
    expect(scores.all.decisions).toBe(2);
    expect(scores.all.loss).toBeCloseTo(loss / 2, 9);
    expect(scores.opening.loss).toBe(0);
    expect(scores.all.bestShare).toBe(0.5);
  });

  it('counts an illegal board and a legal play outside the candidates apart from the scored ones', () => {
    const d = decisions[1];
    // Given decision 1's start board unchanged (no legal play leaves it as it was) and its legal plays not rolled out.
    const legal = new Set<string>();
    const scores = scoreChoices([d], (decision, boards) => {
      boards.forEach((b) => legal.add(b));
      return decision.board;
    });
    expect(scores.all).toMatchObject({ decisions: 0, illegal: 1, unscored: 0, missing: 0 });
    const outside = [...legal].find((b) => !d.candidates.some((c) => c.board === b));
    expect(outside).toBeDefined();
    expect(scoreChoices([d], () => outside as string).all).toMatchObject({ decisions: 0, illegal: 0, unscored: 1 });
  });

  it('gives a standard error over the decisions of a phase', () => {
    // Given every decision played by its worst candidate, Then each phase has a mean loss and a finite standard error.
    const scores = scoreChoices(decisions, (d) => d.candidates.reduce((w, c) => (c.equity < w.equity ? c : w)).board);
    for (const c of COLUMNS) {
      expect(scores[c].decisions).toBeGreaterThan(1);
      expect(scores[c].lossSe).toBeGreaterThan(0);
      expect(scores[c].lossSe).toBeLessThan(scores[c].loss);
    }
  });

  it('pairs two players decision by decision: the mean difference of their losses and its standard error', () => {
    const best = (d: (typeof decisions)[number]): string => d.candidates.reduce((b, c) => (c.equity > b.equity ? c : b)).board;
    const worst = (d: (typeof decisions)[number]): string => d.candidates.reduce((w, c) => (c.equity < w.equity ? c : w)).board;
    const sample = decisions.slice(0, 20);
    // Given a player that always plays the rollout-best candidate, Then it loses nothing anywhere.
    const perfect = lossesByDecision(sample, best);
    expect([...perfect.values()]).toEqual(sample.map(() => 0));
    // Given one that does so only on even ids and is unscored (a legal play outside the candidates) elsewhere.
    const half = lossesByDecision(sample, (d, legal) =>
      d.id % 2 === 0 ? worst(d) : (legal.find((b) => !d.candidates.some((c) => c.board === b)) ?? worst(d)),
    );
    const worstLosses = lossesByDecision(sample, worst);
    const shared = [...half.keys()].filter((id) => perfect.has(id));
    const diffs = shared.map((id) => (half.get(id) as number) - 0);
    const mean = diffs.reduce((s, x) => s + x, 0) / diffs.length;
    const sd = Math.sqrt(diffs.reduce((s, x) => s + (x - mean) ** 2, 0) / (diffs.length - 1));
    const d = pairedDifference(half, perfect);
    // Then only the decisions both are scored on count, and the difference is the mean of the per-decision differences.
    expect(d.decisions).toBe(shared.length);
    expect(d.decisions).toBeLessThan(sample.length);
    expect(d.mean).toBeCloseTo(mean, 9);
    expect(d.se).toBeCloseTo(sd / Math.sqrt(diffs.length), 9);
    // And a player against itself differs by exactly nothing; the order of the pair flips the sign.
    expect(pairedDifference(worstLosses, worstLosses)).toMatchObject({ decisions: sample.length, mean: 0, se: 0 });
    expect(pairedDifference(perfect, half).mean).toBeCloseTo(-mean, 9);
  });

  it('rejects a line without an id or a board, with its line number', () => {
    expect(() => submit('{"id": 0, "board": "0,0"}\n{"board": "1"}\n')).toThrow(/choices\.jsonl:2:/);
    expect(() => submit('{"id": 0, "board": "0"}\n{"id": 0, "board": "1"}\n')).toThrow(/submitted twice/);
  });
});
