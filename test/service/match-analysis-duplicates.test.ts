import { buildServices } from '../../src/app';
import { planMatchAnalysis } from '../../src/service/matches/analysis';
import { PlanMatchAnalysis } from '../../src/service/matches/types';
import { readOracleText } from '../support/oracles';

/*
 * An identical match-analysis submission answers the job that stands
 * without reading and planning the file again (the replay of every move is
 * the expensive part of a submission); a cancelled one is planned anew.
 */

describe('a duplicate match-analysis submission', () => {
  it('returns the standing job without planning the file again', async () => {
    let planned = 0;
    const counting: PlanMatchAnalysis = (file, options, analysis) => {
      planned++;
      return planMatchAnalysis(file, options, analysis);
    };
    // Nobody works the queue: the job stands queued.
    const services = buildServices({ jobs: { work: false, planMatch: counting } });
    try {
      const request = { format: 'mat' as const, text: readOracleText('gnubg-matches/matches/m09-7pt.mat'), plies: 0 };
      let started = performance.now();
      const first = await services.jobs.submitMatchAnalysis(request);
      const firstMs = performance.now() - started;
      expect(first.created).toBe(true);
      expect(planned).toBe(1);
      started = performance.now();
      const again = await services.jobs.submitMatchAnalysis(request);
      console.log(`a ${request.text.length}-character match file: first submission ${firstMs.toFixed(0)} ms, identical one ${(performance.now() - started).toFixed(1)} ms`);
      expect(again).toMatchObject({ created: false, view: { id: first.view.id, status: 'queued' } });
      expect(planned).toBe(1);
      await services.jobs.cancel('match-analysis', first.view.id);
      const anew = await services.jobs.submitMatchAnalysis(request);
      expect(anew.created).toBe(true);
      expect(planned).toBe(2);
    } finally {
      await services.jobQueue.close();
    }
  });
});
