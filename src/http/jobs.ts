import { Request, Response, Router } from 'express';
import { AnalysisJobs } from '../service/jobs/service';
import { FINISHED, JobKind, JobView } from '../service/jobs/types';
import { openEventStream } from './sse';

/**
 * The job routes of one kind (`/v1/analyses`, `/v1/rollouts`): submit
 * (`202` with `Location`, or `200` with the job that already answers the
 * same request), read, follow as server-sent events, cancel.
 */
export function jobRoutes(jobs: AnalysisJobs, kind: JobKind, base: string, submit: (input: unknown) => Promise<{ view: JobView; created: boolean }>): Router {
  const router = Router();
  router.post('/', async (req, res) => {
    const { view, created } = await submit(req.body);
    res.status(created ? 202 : 200).set('Location', `${base}/${view.id}`).json(view);
  });
  router.get('/:id', async (req, res) => {
    res.json(await jobs.get(kind, req.params.id));
  });
  router.delete('/:id', async (req, res) => {
    res.json(await jobs.cancel(kind, req.params.id));
  });
  router.get('/:id/events', async (req: Request<{ id: string }>, res: Response) => {
    const id = req.params.id;
    // The job must exist before the stream opens (a 404 is a plain error answer).
    await jobs.get(kind, id);
    const { stream, closed } = openEventStream(req, res);
    let sequence = 0;
    const stop = await jobs.follow(kind, id, (view) => {
      sequence++;
      if (FINISHED.has(view.status)) {
        stream.send(view.status, view, sequence);
        stream.end();
        return;
      }
      // Progress events carry no result (it comes with the last event).
      stream.send('progress', { id: view.id, kind: view.kind, status: view.status, progress: view.progress }, sequence);
    });
    await closed;
    stop();
  });
  return router;
}
