import { EvaluateRequest } from '../../src/contract/requests';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { AnalysisService } from '../../src/service/analysis/service';
import { Analyzers } from '../../src/service/analysis/evaluators';
import { DEFAULT_DATA_DIR, evaluatorsOf, neuralEvaluators } from '../../src/service/analysis/data';
import { EvaluationView } from '../../src/service/analysis/views';

/*
 * The production evaluators read the committed files of data/: the trained
 * networks and the one-sided bear-off databases. Races where both sides are
 * home are exact, whichever contact evaluator is configured (EVALUATOR).
 */

async function evaluate(service: AnalysisService, input: EvaluateRequest): Promise<EvaluationView> {
  const answer = await service.evaluate(input);
  return answer.value!;
}

describe.each(['neural', 'heuristic'] as const)('EVALUATOR=%s', (kind) => {
  const service = new AnalysisService(new Analyzers(evaluatorsOf(kind)));

  it('backgammon: one checker left on the 1-point wins at once (bear-off database)', async () => {
    const position: EvaluateRequest['position'] = {
      turn: 'white',
      white: { points: { '1': 1 }, off: 14 },
      black: { points: { '6': 15 } },
    };
    const e = await evaluate(service, { variant: 'backgammon', position });
    expect(e.race).toBe(true);
    expect(e.probabilities).toEqual({ win: 1, winMars: 1, winKoks: 0, loseMars: 0, loseKoks: 0 });
    expect(e.evaluator.name).toBe(kind === 'neural' ? 'neural-short' : 'short-heuristic');
  });

  it('long nardy: two checkers on the 1-point against a long way home: a sure win (exact race)', async () => {
    const position: EvaluateRequest['position'] = {
      turn: 'white',
      white: { points: { '1': 2 }, off: 13 },
      black: { points: { '6': 5, '5': 5, '4': 5 } },
    };
    const e = await evaluate(service, { variant: 'long', position });
    expect(e.race).toBe(true);
    expect(e.probabilities.win).toBe(1);
    expect(e.probabilities.winMars).toBe(1);
  });

  it('contact positions get probabilities in order for every long preset', async () => {
    for (const variant of [
      'long',
      'nardgammon',
      'crazy',
      'gulbar',
      'crazy-gulbar',
      'khachapuri',
      'fevga',
      'giul',
    ]) {
      const best = await service.bestMoves({ variant, positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] });
      for (const t of best.value!.turns) {
        const p = t.probabilities;
        expect(p.winKoks).toBeLessThanOrEqual(p.winMars);
        expect(p.winMars).toBeLessThanOrEqual(p.win);
        expect(p.loseKoks).toBeLessThanOrEqual(p.loseMars);
        expect(p.loseMars).toBeLessThanOrEqual(1 - p.win + 1e-9);
      }
    }
  });
});

describe('data files', () => {
  it('the committed data: khachapuri is evaluated by its own network, the other long presets by the classic one', async () => {
    const service = new AnalysisService(new Analyzers(neuralEvaluators()));
    const names: Record<string, string> = {};
    for (const variant of ['crazy', 'crazy-gulbar', 'fevga', 'khachapuri', 'giul', 'long']) {
      names[variant] = (await evaluate(service, { variant, positionId: 'GAAA8_fAAAg__DA' })).evaluator.name;
    }
    expect(names).toEqual({
      crazy: 'neural-long',
      'crazy-gulbar': 'neural-long',
      fevga: 'neural-long',
      khachapuri: 'neural-long-khachapuri',
      giul: 'neural-long',
      long: 'neural-long',
    });
  });

  it('a preset with its own network (data/nets/<preset>.bin) is evaluated by it; the others by the classic one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nardy-data-'));
    try {
      mkdirSync(join(dir, 'nets'));
      for (const f of ['bearoff-standard.bin.gz', 'bearoff-exact-only.bin.gz'])
        copyFileSync(join(DEFAULT_DATA_DIR, f), join(dir, f));
      for (const f of ['backgammon.bin', 'backgammon.json', 'long.bin', 'long.json'])
        copyFileSync(join(DEFAULT_DATA_DIR, 'nets', f), join(dir, 'nets', f));
      // The classic weights under another name stand in for a preset's own network.
      copyFileSync(join(DEFAULT_DATA_DIR, 'nets', 'long.bin'), join(dir, 'nets', 'giul.bin'));
      const manifest = JSON.parse(
        readFileSync(join(DEFAULT_DATA_DIR, 'nets', 'long.json'), 'utf8'),
      ) as Record<string, unknown>;
      writeFileSync(
        join(dir, 'nets', 'giul.json'),
        JSON.stringify({ ...manifest, name: 'neural-giul', file: 'giul.bin' }),
      );
      const set = neuralEvaluators(dir);
      set.preload?.();
      const service = new AnalysisService(new Analyzers(set));
      expect(
        (await evaluate(service, { variant: 'giul', positionId: 'GAAA8_fAAAg__DA' })).evaluator.name,
      ).toBe('neural-giul');
      expect(
        (await evaluate(service, { variant: 'crazy', positionId: 'GAAA8_fAAAg__DA' })).evaluator.name,
      ).toBe('neural-long');
      expect(
        (await evaluate(service, { variant: 'long', positionId: 'GAAA8_fAAAg__DA' })).evaluator.name,
      ).toBe('neural-long');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a missing network stops the start with its path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nardy-data-'));
    try {
      const set = neuralEvaluators(dir);
      expect(() => set.preload?.()).toThrow(join(dir, 'nets', 'backgammon.bin'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
