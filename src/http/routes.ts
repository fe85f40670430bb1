import { Router } from 'express';
import { listMoves, validateMove } from '../service/moves';
import { listVariants } from '../service/variants';

/** Thin REST routes: parse (JSON body), call one service function, format. */
export function v1Routes(): Router {
  const router = Router();
  router.get('/variants', (_req, res) => {
    res.json(listVariants());
  });
  router.post('/moves', (req, res) => {
    res.json(listMoves(req.body));
  });
  router.post('/moves/validate', (req, res) => {
    res.json(validateMove(req.body));
  });
  return router;
}
