import { Router } from 'express';
import { AnalysisCaller } from '../service/analysis/service';
import { AnalysisJobs } from '../service/jobs/service';
import { FINISHED, JobKind, JobView } from '../service/jobs/types';
import { analysisCaller } from './callers';
import { EventStreams, SseSource } from './events';

/**
 * A job as server-sent events: a `progress` message (status and progress,
 * no result) now and at every change, then one `done`, `failed` or
 * `cancelled` message with the whole job, and the end. Ids count the
 * messages of the stream.
 */
async function jobMessages(jobs: AnalysisJobs, kind: JobKind, id: string): Promise<SseSource> {
  const updates = await jobs.updates(kind, id);
  return {
    async *[Symbol.asyncIterator]() {
      let sequence = 0;
      for await (const view of updates) {
        sequence++;
        if (FINISHED.has(view.status)) yield { id: sequence, event: view.status, data: view };
        else yield { id: sequence, event: 'progress', data: { id: view.id, kind: view.kind, status: view.status, progress: view.progress } };
      }
    },
    close: () => updates.return?.(),
  };
}

/**
 * The job routes of one kind (`/v1/analyses`, `/v1/rollouts`): submit
 * (`202` with `Location`, or `200` with the job that already answers the
 * same request), read, follow as server-sent events, cancel.
 */
export function jobRoutes<R>(
  jobs: AnalysisJobs,
  streams: EventStreams,
  kind: JobKind,
  base: string,
  submit: (input: R, caller: AnalysisCaller) => Promise<{ view: JobView; created: boolean }>,
): Router {
  const router = Router();
  router.post('/', async (req, res) => {
    // The body passed the operation's request schema (validation.ts).
    const { view, created } = await submit(req.body as R, analysisCaller(req, res));
    res.status(created ? 202 : 200).set('Location', `${base}/${view.id}`).json(view);
  });
  router.get('/:id', async (req, res) => {
    res.json(await jobs.get(kind, req.params.id));
  });
  router.delete('/:id', async (req, res) => {
    res.json(await jobs.cancel(kind, req.params.id));
  });
  router.get('/:id/events', async (req, res) => {
    // A job that does not exist is a plain 404 answer, before any stream opens.
    await streams.stream(req, res, await jobMessages(jobs, kind, req.params.id));
  });
  return router;
}
