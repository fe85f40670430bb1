import { Request, Router } from 'express';
import { DiagramQuery } from '../contract/requests';
import { DiagramFormat, diagram } from '../service/diagram';
import { fail } from '../service/errors';
import { rasterisePng } from '../service/diagram-png';
import { Services } from '../service/services';

/** The query of `GET /v1/diagram` as validated against openapi.yaml (src/http/validation.ts). */
type DiagramRequest = Request<Record<string, string>, unknown, unknown, DiagramQuery & { format?: DiagramFormat }>;

/** `format=svg|png` wins; otherwise the Accept header (SVG unless PNG is preferred). */
function formatOf(req: DiagramRequest): DiagramFormat {
  const format = req.query.format;
  if (format !== undefined) {
    if (format !== 'svg' && format !== 'png') fail('INVALID_REQUEST', 'format must be svg or png', { field: 'format' });
    return format;
  }
  return req.accepts(['image/svg+xml', 'image/png']) === 'image/png' ? 'png' : 'svg';
}

/** `If-None-Match: "…"` (a list, or `*`) names this ETag. */
function notModified(req: Pick<Request, 'get'>, etag: string): boolean {
  const header = req.get('if-none-match');
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** `GET /v1/diagram`: parse the query, call the service, send the image with its content-hash ETag. */
export function diagramRoutes(services: Services): Router {
  const router = Router();
  router.get('/diagram', async (req: DiagramRequest, res) => {
    const format = formatOf(req);
    const { format: _format, ...query } = req.query;
    // gnubg IDs use `+`, which an unencoded query string turns into a space (never part of an ID).
    for (const field of ['positionId', 'matchId'] as const) {
      const id = query[field];
      if (id !== undefined) query[field] = id.replace(/ /g, '+');
    }
    const answer = await diagram(query, format, services.cache, rasterisePng);
    res.set({
      ETag: answer.etag,
      'Cache-Control': 'public, max-age=3600',
      Vary: 'Accept',
      'X-Cache': answer.cache === 'HIT' ? 'HIT' : 'MISS',
      // Diagrams are meant to be embedded by other sites (forums, teaching pages).
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    if (notModified(req, answer.etag)) {
      res.status(304).end();
      return;
    }
    res.type(format === 'svg' ? 'image/svg+xml; charset=utf-8' : 'image/png').send(answer.body);
  });
  return router;
}
