/**
 * The warm-up of a freshly started process, before it reports ready: a few
 * rounds of representative requests sent through its own listener, so the
 * first clients find the networks read, the request and answer validators
 * compiled, the analysis threads started and the hot paths (move
 * generation, evaluation, serialization) compiled by the JIT. Nothing is
 * written: no game is created (a read of a game that does not exist still
 * exercises the store).
 */
const REQUESTS: readonly { readonly method: 'GET' | 'POST'; readonly path: string; readonly body?: unknown }[] = [
  { method: 'GET', path: '/v1/variants' },
  { method: 'POST', path: '/v1/moves', body: { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5] } },
  { method: 'POST', path: '/v1/moves', body: { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', dice: [3, 1] } },
  { method: 'POST', path: '/v1/moves/validate', body: { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5], notation: '24/18/13' } },
  { method: 'POST', path: '/v1/evaluate', body: { variant: 'long', positionId: 'GAAA8_fAAAg__DA', plies: 1 } },
  { method: 'POST', path: '/v1/evaluate', body: { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', plies: 1 } },
  { method: 'POST', path: '/v1/moves/best', body: { variant: 'long', positionId: 'GAAA8_fAAAg__DA', dice: [6, 5], plies: 1 } },
  { method: 'POST', path: '/v1/moves/best', body: { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', dice: [4, 2], plies: 1 } },
  { method: 'GET', path: '/v1/games/warm-up-no-such-game' },
  { method: 'POST', path: '/graphql', body: { query: '{ variants { name } }' } },
];

export interface WarmUpOutcome {
  readonly rounds: number;
  readonly requests: number;
  /** Answers other than the expected (2xx, and the 404 of the missing game). */
  readonly unexpected: number;
  readonly ms: number;
}

/** Sends `rounds` rounds of the warm-up requests to `base` (`http://127.0.0.1:<port>`), stopping at `budgetMs`. */
export async function warmUp(base: string, rounds: number, budgetMs: number): Promise<WarmUpOutcome> {
  const started = Date.now();
  let requests = 0;
  let unexpected = 0;
  let round = 0;
  for (; round < rounds && Date.now() - started < budgetMs; round++) {
    await Promise.all(
      REQUESTS.map(async ({ method, path, body }) => {
        requests++;
        try {
          const res = await fetch(`${base}${path}`, {
            method,
            // Closed after each answer: an idle keep-alive connection of the process to itself would hold up its
            // stop on SIGTERM (the listener closes, open connections end on their own) for fetch's keep-alive time.
            headers: { 'content-type': 'application/json', 'x-request-id': 'warm-up', connection: 'close' },
            body: body === undefined ? undefined : JSON.stringify(body),
            signal: AbortSignal.timeout(Math.max(1, budgetMs - (Date.now() - started))),
          });
          await res.arrayBuffer();
          if (!res.ok && res.status !== 404) unexpected++;
        } catch {
          unexpected++;
        }
      }),
    );
  }
  return { rounds: round, requests, unexpected, ms: Date.now() - started };
}
