import { Router } from 'express';
import { AnalysisJobs } from '../service/jobs/service';
import { FINISHED, JobKind, JobView } from '../service/jobs/types';
import { EventStreams, SseMessage, SseSource } from './events';

/**
 * A job as server-sent events: a `progress` message (status and progress,
 * no result) now and at every change, then one `done`, `failed` or
 * `cancelled` message with the whole job, and the end. Ids count the
 * messages of the stream.
 */
async function jobMessages(jobs: AnalysisJobs, kind: JobKind, id: string): Promise<SseSource> {
  const pending: SseMessage[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  let sequence = 0;
  const stop = await jobs.follow(kind, id, (view: JobView) => {
    sequence++;
    if (FINISHED.has(view.status)) {
      pending.push({ id: sequence, event: view.status, data: view });
      ended = true;
    } else {
      pending.push({ id: sequence, event: 'progress', data: { id: view.id, kind: view.kind, status: view.status, progress: view.progress } });
    }
    wake?.();
  });
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (pending.length > 0) yield pending.shift()!;
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    },
    close() {
      ended = true;
      stop();
      wake?.();
    },
  };
}

/**
 * The job routes of one kind (`/v1/analyses`, `/v1/rollouts`): submit
 * (`202` with `Location`, or `200` with the job that already answers the
 * same request), read, follow as server-sent events, cancel.
 */
export function jobRoutes(
  jobs: AnalysisJobs,
  streams: EventStreams,
  kind: JobKind,
  base: string,
  submit: (input: unknown) => Promise<{ view: JobView; created: boolean }>,
): Router {
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
  router.get('/:id/events', async (req, res) => {
    // A job that does not exist is a plain 404 answer, before any stream opens.
    await streams.stream(req, res, await jobMessages(jobs, kind, req.params.id));
  });
  return router;
}
