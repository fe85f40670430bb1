import { spawnSync } from 'child_process';
import { SeededRandom } from '../src/engine/random';
import { deterministicSeeds } from '../src/service/sessions/fairness';
import { GameSessions } from '../src/service/sessions/service';
import { GameView } from '../src/service/sessions/views';
import { MemorySessionStore } from '../src/service/store/memory';

/*
 * Memory of the embedded session store per 10,000 games, for MAX_GAMES
 * (docs/operations.md, "Memory"): the resident set size and the JS heap
 * after a full GC, before and after storing the games, for games as a
 * flood leaves them (created, never played), games a few turns in, and
 * whole finished games. Each kind is measured in a fresh process (memory
 * freed by one kind would otherwise be reused by the next).
 *
 *   npm run bench:store-memory                 (10,000 games of each kind)
 *   npm run bench:store-memory -- 10000 2000   (10,000, but 2,000 whole games: they take minutes)
 */

const COUNT = Number(process.argv[2] ?? 10_000);
const FINISHED = Number(process.argv[3] ?? COUNT);
const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:store-memory does)');

function sample(): { rss: number; heap: number } {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

/** Plays `actions` actions of the game (or to its end with Infinity), choosing turns with a seeded generator. */
async function play(sessions: GameSessions, created: { id: string; seats: Record<'white' | 'black', { token: string }>; state: GameView }, actions: number, random: SeededRandom) {
  let state = created.state;
  for (let i = 0; i < actions && state.status === 'playing'; i++) {
    const seat = state.expects!.seat;
    const token = created.seats[seat].token;
    if (state.expects!.action === 'play') {
      state = (await sessions.act(created.id, 'play', { steps: random.pick(state.legalTurns!).steps }, { token })).body;
    } else {
      state = (await sessions.act(created.id, state.expects!.action === 'respond' ? 'take' : (state.expects!.action as 'roll' | 'next-game'), {}, { token })).body;
    }
  }
}

async function measure(kind: string, actions: number, count = COUNT): Promise<void> {
  const store = new MemorySessionStore(Date.now, { maxGames: count + 1 });
  const sessions = new GameSessions({ store, seeds: deterministicSeeds(`memory-${kind}`), ttlSeconds: 3600, idempotencyTtlSeconds: 3600, now: () => new Date() });
  const random = new SeededRandom(7);
  const before = sample();
  for (let i = 0; i < count; i++) {
    const created = (await sessions.create({ variant: 'long' })).body;
    if (actions > 0) await play(sessions, created, actions, random);
  }
  const after = sample();
  const counts = store.counts();
  const perGame = (after.rss - before.rss) / count;
  console.log(
    `${kind.padEnd(24)} ${count} games (${counts.unstarted} unstarted, ${counts.live} live, ${counts.finished} finished): ` +
      `RSS +${((after.rss - before.rss) / MiB).toFixed(1)} MiB, heap +${((after.heap - before.heap) / MiB).toFixed(1)} MiB, ` +
      `${(perGame / 1024).toFixed(1)} KiB per game (RSS), ${((perGame * 10_000) / MiB).toFixed(1)} MiB per 10,000`,
  );
  await store.close();
}

const KINDS: Record<string, [string, number, number]> = {
  unstarted: ['created, never played', 0, COUNT],
  started: ['10 actions in', 10, COUNT],
  finished: ['finished (whole game)', Infinity, FINISHED],
};

async function main(): Promise<void> {
  const kind = process.argv[4];
  if (kind) {
    const [label, actions, count] = KINDS[kind];
    await measure(label, actions, count);
    return;
  }
  console.log(`node ${process.version}, long nardy, in-memory store; RSS at start ${(sample().rss / MiB).toFixed(1)} MiB`);
  for (const name of Object.keys(KINDS)) {
    const run = spawnSync(process.execPath, [...process.execArgv, process.argv[1], String(COUNT), String(FINISHED), name], { stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
}

void main();
