import { existsSync } from 'fs';
import { resolve } from 'path';
import express, { RequestHandler, Router } from 'express';
import { fail } from '../service/errors';

/** The built web pages: the analysis board and the GraphQL IDE (scripts/build/board.ts). */
type PageName = 'board' | 'graphiql';

/**
 * Where a built page lives (`npm run build` writes dist/board and
 * dist/graphiql): beside dist/http when running the compiled service, under
 * the package root when running from src (dev, tests).
 */
export function pageDirectory(name: PageName): string | null {
  for (const candidate of [resolve(__dirname, '..', name), resolve(__dirname, '../../dist', name)]) {
    if (existsSync(resolve(candidate, 'index.html'))) return candidate;
  }
  return null;
}

/** The static files of a built page, found on the first request (a missing build is a 404 that says how to build it). */
function staticFiles(name: PageName, options: { index: string | false }): RequestHandler {
  let serve: ReturnType<typeof express.static> | null = null;
  return (req, res, next) => {
    if (!serve) {
      const directory = pageDirectory(name);
      if (!directory) fail('NOT_FOUND', `the ${name} page is not built: run npm run build`);
      serve = express.static(directory, { ...options, maxAge: '1h', redirect: true });
    }
    serve(req, res, next);
  };
}

/** `/board`: the analysis board page, static files that use only the public API. */
export function boardPage(): Router {
  return Router().use(staticFiles('board', { index: 'index.html' }));
}

/**
 * The GraphQL IDE (GraphiQL) for browsers: `GET /graphql` asking for HTML
 * (and sending no `query`) gets the page, whose scripts and styles are under
 * `/graphql/ide/` — all from 'self', so the page runs under the same
 * Content-Security-Policy as every answer. Every other `/graphql` request
 * goes on to the GraphQL server.
 */
export function graphqlIde(): Router {
  const router = Router();
  router.use('/graphql/ide', staticFiles('graphiql', { index: false }));
  router.get('/graphql', (req, res, next) => {
    if (req.query.query !== undefined || req.accepts(['application/json', 'text/html']) !== 'text/html') {
      next();
      return;
    }
    const directory = pageDirectory('graphiql');
    if (!directory) fail('NOT_FOUND', 'the graphiql page is not built: run npm run build');
    res.set('Cache-Control', 'no-cache').sendFile(resolve(directory, 'index.html'));
  });
  return router;
}
