import { Request, Response, Router } from 'express';
import { MatchAnalysisRequest, RolloutJobRequest } from '../contract/requests';
import { fail } from '../service/errors';
import { CachedAnswer, valueOf } from '../service/cache';
import { exportSession } from '../service/matches/sessions';
import { listMoves, validateMove } from '../service/moves';
import { applyGameStateView, newGameStateView } from '../service/game-states';
import { ActionMeta, ActionName, Answer } from '../service/sessions/service';
import { cubeAction, scoreGame } from '../service/score';
import { listVariants } from '../service/variants';
import { EventStreams, gameMessages } from './events';
import { analysisCaller } from './callers';
import { jobRoutes } from './jobs';
import { diagramRoutes } from './diagram';
import { Metrics } from './observability';
import { Services } from '../service/services';
import { MatchFileFormat } from '../service/matches/types';


/** `Authorization: Bearer <token>`. */
function bearer(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : '';
}

/** `If-Match: "7"` (also 7 and W/"7"); `*` means any version. */
function ifMatch(req: Request): number | undefined {
  const header = req.get('if-match');
  if (header === undefined || header.trim() === '*') return undefined;
  const m = /^(?:W\/)?"?(\d{1,12})"?$/.exec(header.trim());
  if (!m) fail('INVALID_REQUEST', 'If-Match must be a version ETag such as "7"', { field: 'If-Match' });
  return Number(m[1]);
}

function meta(req: Request): ActionMeta {
  return { token: bearer(req), ifMatch: ifMatch(req), idempotencyKey: req.get('idempotency-key') };
}

function send<T>(res: Response, answer: Answer<T>): void {
  res.status(answer.status).set('ETag', `"${answer.version}"`);
  if (answer.replayed) res.set('Idempotent-Replayed', 'true');
  res.json(answer.body);
}

/** Sends a cached answer: its JSON text as it is, with `X-Cache`. */
function sendCached<T>(req: Request, res: Response, answer: CachedAnswer<T>): void {
  res.set('X-Cache', answer.cache === 'HIT' ? 'HIT' : 'MISS');
  // The JSON text is sent as it is (a cache hit is never parsed and re-serialised),
  // except when responses are checked against openapi.yaml, which inspects res.json.
  if (req.app.get('validateResponses')) res.json(valueOf(answer));
  else res.type('application/json').send(answer.json);
}

/** Thin REST routes: parse (JSON body, headers), call one service function, format. */
export function v1Routes(services: Services, metrics?: Metrics, streams: EventStreams = new EventStreams()): Router {
  const router = Router();
  router.get('/variants', (_req, res) => {
    res.json(listVariants());
  });
  router.post('/moves', async (req, res) => {
    const started = process.hrtime.bigint();
    const answer = await listMoves(req.body, services.cache);
    if (answer.value) {
      metrics?.movegen.observe({ variant: answer.value.variant }, Number(process.hrtime.bigint() - started) / 1e9);
    }
    sendCached(req, res, answer);
  });
  /** Observes the analysis time of answers computed now (not cache hits). */
  const timed = async <T>(operation: string, work: () => Promise<T> | T, computed: (answer: T) => boolean = () => true): Promise<T> => {
    const started = process.hrtime.bigint();
    const answer = await work();
    if (computed(answer)) {
      metrics?.evaluation.observe({ evaluator: services.analysis.kind, operation }, Number(process.hrtime.bigint() - started) / 1e9);
    }
    return answer;
  };
  const miss = (answer: CachedAnswer<unknown>): boolean => answer.cache !== 'HIT';
  router.post('/moves/best', async (req, res) => {
    sendCached(req, res, await timed('best', () => services.analysis.bestMoves(req.body, analysisCaller(req, res)), miss));
  });
  router.post('/evaluate', async (req, res) => {
    sendCached(req, res, await timed('evaluate', () => services.analysis.evaluate(req.body, analysisCaller(req, res)), miss));
  });
  router.post('/evaluate/batch', async (req, res) => {
    res.json(await timed('batch', () => services.analysis.evaluateBatch(req.body, analysisCaller(req, res))));
  });
  router.post('/rollout', async (req, res) => {
    res.json(await timed('rollout', () => services.analysis.rollout(req.body, analysisCaller(req, res))));
  });
  router.use('/rollouts', jobRoutes(services.jobs, streams, 'rollout', '/v1/rollouts', (input: RolloutJobRequest, caller) => services.jobs.submitRollout(input, caller)));
  if (services.jobs.matchAnalysis) {
    router.use('/analyses', jobRoutes(services.jobs, streams, 'match-analysis', '/v1/analyses', (input: MatchAnalysisRequest, caller) => services.jobs.submitMatchAnalysis(input, caller)));
  }
  router.use(diagramRoutes(services));
  router.post('/moves/validate', (req, res) => {
    res.json(validateMove(req.body));
  });

  router.post('/score', (req, res) => {
    res.json(scoreGame(req.body));
  });
  router.post('/cube', (req, res) => {
    res.json(cubeAction(req.body));
  });

  router.post('/game-states', (req, res) => {
    res.json(newGameStateView(req.body));
  });
  router.post('/game-states/apply', (req, res) => {
    res.json(applyGameStateView(req.body));
  });

  router.post('/games', async (req, res) => {
    send(res, await services.sessions.create(req.body, analysisCaller(req, res).client));
  });
  router.get('/games/:id', async (req, res) => {
    send(res, await services.sessions.get(req.params.id));
  });
  router.get('/games/:id/history', async (req, res) => {
    send(res, await services.sessions.history(req.params.id));
  });
  router.get('/games/:id/events', async (req, res) => {
    await streams.stream(req, res, gameMessages(await services.sessions.follow(req.params.id, EventStreams.lastEventId(req))));
  });
  router.get('/games/:id/export', async (req, res) => {
    // The file first: a refusal is sent by the error handler as JSON, which a type set beforehand would mislabel.
    const file = await exportSession(services.sessions, req.params.id, req.query.format as MatchFileFormat);
    res.type('text/plain').send(file);
  });
  router.get('/games/:id/fairness', async (req, res) => {
    send(res, await services.sessions.fairness(req.params.id));
  });
  router.post('/games/:id/:action', async (req, res) => {
    send(res, await services.sessions.act(req.params.id, req.params.action as ActionName, req.body, meta(req)));
  });
  return router;
}
