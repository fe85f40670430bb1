import { existsSync } from 'fs';
import { resolve } from 'path';
import express, { Router } from 'express';
import { fail } from '../service/errors';

/**
 * Where the built analysis board lives (`npm run build` writes dist/board):
 * beside dist/http when running the compiled service, under the package root
 * when running from src (dev, tests).
 */
export function boardDirectory(): string | null {
  for (const candidate of [resolve(__dirname, '../board'), resolve(__dirname, '../../dist/board')]) {
    if (existsSync(resolve(candidate, 'index.html'))) return candidate;
  }
  return null;
}

/** `/board`: the analysis board page, static files that use only the public API. */
export function boardPage(): Router {
  const router = Router();
  let serve: ReturnType<typeof express.static> | null = null;
  router.use((req, res, next) => {
    if (!serve) {
      const directory = boardDirectory();
      if (!directory) fail('NOT_FOUND', 'the board page is not built: run npm run build');
      serve = express.static(directory, { index: 'index.html', maxAge: '1h', redirect: true });
    }
    serve(req, res, next);
  });
  return router;
}
