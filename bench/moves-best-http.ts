import { AddressInfo } from 'net';
import { createApp } from '../src/http/app';
import { buildServices } from '../src/app';
import { isShortRace } from '../src/eval/race';
import { searchSettings } from '../src/eval/search-options';
import { ShortSearch } from '../src/eval/short/search';
import { net } from './nets';
import { load, quantile } from './search-positions';
import { loadShortCorpus } from './short-movegen';

/**
 * `POST /v1/moves/best` with `plies: 2` over HTTP, on the 200 backgammon
 * positions of bench/search.ts (gnubg oracle cases with contact and more
 * than one legal play): the app runs in this process with its defaults
 * (service evaluators, `ANALYSIS_BUDGET_MS` 2000, no worker pool), the
 * requests go one at a time over loopback. Prints how many answers came
 * at 2 plies (the others fell back to fewer within the budget), wall-clock
 * latency median and p90, and the process CPU per request (the server's
 * work plus this in-process client's, which is small).
 *
 *   npm run bench:moves-best             (npx tsx bench/moves-best-http.ts)
 *   HTTP_POSITIONS=50 HTTP_PLIES=1 npx tsx bench/moves-best-http.ts
 */
interface BestAnswer {
  readonly evaluator: { readonly plies: number; readonly requestedPlies: number; readonly version: string };
}

async function main(): Promise<void> {
  const count = Number(process.env.HTTP_POSITIONS ?? 200);
  const plies = Number(process.env.HTTP_PLIES ?? 2);
  const corpus = loadShortCorpus();
  const probe = new ShortSearch(net('backgammon'));
  const chosen: number[] = [];
  for (let i = 0; i < corpus.boards.length && chosen.length < count; i++) {
    if (isShortRace(corpus.boards[i])) continue;
    if (probe.rankTurns(corpus.boards[i], corpus.dice[i], searchSettings(0)).length > 1) chosen.push(i);
  }

  const app = await createApp({ services: buildServices() });
  const server = app.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/moves/best`;
  const post = async (i: number): Promise<{ status: number; body: BestAnswer }> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'backgammon', positionId: corpus.positionIds[i], dice: corpus.dice[i], plies, limit: 1 }),
    });
    return { status: res.status, body: (await res.json()) as BestAnswer };
  };
  try {
    // Warm-up: the networks and the bear-off database load on first use (a 0-ply request, never cached for the run's positions at `plies`).
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'backgammon', positionId: corpus.positionIds[chosen[0]], dice: corpus.dice[chosen[0]], plies: 0 }),
    });
    console.log(`node ${process.version}; POST /v1/moves/best, plies ${plies}, ${chosen.length} backgammon positions, one at a time; load average ${load()}`);
    const wall: number[] = [];
    const cpu: number[] = [];
    const reached = new Map<number, number>();
    let failed = 0;
    let version = '';
    for (const i of chosen) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const { status, body } = await post(i);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (status !== 200) {
        failed++;
        continue;
      }
      version = body.evaluator.version;
      reached.set(body.evaluator.plies, (reached.get(body.evaluator.plies) ?? 0) + 1);
    }
    const w = [...wall].sort((a, b) => a - b);
    const p = [...cpu].sort((a, b) => a - b);
    console.log(`evaluator version                 : ${version}`);
    console.log(
      `answered at ${plies} plies                : ${reached.get(plies) ?? 0} of ${chosen.length}` +
        [...reached.entries()]
          .filter(([k]) => k !== plies)
          .map(([k, n]) => `, ${n} at ${k}`)
          .join('') +
        (failed ? `, ${failed} failed` : ''),
    );
    console.log(`latency (wall)                    : median ${quantile(w, 0.5).toFixed(1)} ms, p90 ${quantile(w, 0.9).toFixed(1)} ms, max ${w[w.length - 1].toFixed(1)} ms`);
    console.log(
      `process CPU per request           : median ${quantile(p, 0.5).toFixed(1)} ms, p90 ${quantile(p, 0.9).toFixed(1)} ms, mean ${(p.reduce((s, x) => s + x, 0) / p.length).toFixed(1)} ms`,
    );
    console.log(`load average after                : ${load()}`);
  } finally {
    server.close();
    await app.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
