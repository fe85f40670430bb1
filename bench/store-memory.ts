import { spawn, spawnSync } from 'child_process';
import { createServer } from 'net';
import { HotCache } from '../src/service/cache';
import { listMoves } from '../src/service/moves';
import { RedisCache, RedisSessionStore, createRedisClient, whenReady } from '../src/service/store/redis';
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
 *
 * With `--redis [games]` it measures Redis instead (docs/operations.md,
 * "Redis sizing"): a redis-server of its own plays whole games through the
 * session service with an Idempotency-Key on every action, caches the legal
 * moves of every position met, and reports `MEMORY USAGE` per finished game
 * (record and history), per idempotency record and per cached position, and
 * `used_memory` per finished game with its records.
 *
 *   npm run bench:store-memory -- --redis 200
 */

const REDIS = process.argv[2] === '--redis';
const COUNT = Number((REDIS ? undefined : process.argv[2]) ?? 10_000);
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

async function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => ok(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

async function measureRedis(games: number): Promise<void> {
  const port = await freePort();
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  try {
    const redis = createRedisClient(`redis://127.0.0.1:${port}`);
    for (let i = 0; i < 50 && !(await whenReady(redis, 100)); i++);
    const store = new RedisSessionStore(redis, 'm');
    const cache = new HotCache(new RedisCache(redis, 'm', undefined, { maxBytes: 1 << 30 }), 3600);
    const sessions = new GameSessions({ store, seeds: deterministicSeeds('memory-redis'), ttlSeconds: 3600, idempotencyTtlSeconds: 3600, now: () => new Date() });
    const random = new SeededRandom(7);
    const usedBefore = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    let actions = 0;
    for (let g = 0; g < games; g++) {
      const created = (await sessions.create({ variant: 'long' })).body;
      let state = created.state;
      while (state.status === 'playing') {
        const seat = state.expects!.seat;
        const meta = { token: created.seats[seat].token, idempotencyKey: `k-${actions++}` };
        if (state.expects!.action === 'play') {
          await listMoves({ variant: 'long', positionId: state.positionId, dice: state.dice! } as Parameters<typeof listMoves>[0], cache);
          state = (await sessions.act(created.id, 'play', { steps: random.pick(state.legalTurns!).steps }, meta)).body;
        } else {
          state = (await sessions.act(created.id, state.expects!.action === 'respond' ? 'take' : (state.expects!.action as 'roll' | 'next-game'), {}, meta)).body;
        }
      }
    }
    const usedAfter = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    const usage = async (pattern: string): Promise<number[]> => {
      const keys = await redis.keys(pattern);
      return Promise.all(keys.map(async (k) => Number(await redis.call('MEMORY', 'USAGE', k, 'SAMPLES', '0'))));
    };
    const recordKeys = await redis.keys('m:game:{*}');
    const size = (k: string) => redis.call('MEMORY', 'USAGE', k, 'SAMPLES', '0').then(Number);
    const records = await Promise.all(recordKeys.map(size));
    const histories = await Promise.all(recordKeys.map((k) => size(`${k}:history`)));
    const idem = await usage('m:game:{*}:idem:*');
    const cached = await usage('m:cache:*');
    const perGame = records.map((r, i) => r + (histories[i] ?? 0));
    console.log(`redis-server ${spawnSync('redis-server', ['--version']).stdout.toString().split(' ')[2]}, long nardy, ${games} whole games, ${actions} actions each with an Idempotency-Key`);
    console.log(`finished game (record + history): mean ${(mean(perGame) / 1024).toFixed(1)} KiB, p50 ${(percentile(perGame, 50) / 1024).toFixed(1)}, p99 ${(percentile(perGame, 99) / 1024).toFixed(1)} KiB (record ${(mean(records) / 1024).toFixed(1)}, history ${(mean(histories) / 1024).toFixed(1)} KiB)`);
    console.log(`idempotency record: mean ${mean(idem).toFixed(0)} bytes, p99 ${percentile(idem, 99)} bytes (${idem.length} records, ${(idem.length / games).toFixed(0)} per game)`);
    console.log(`cached position (legal moves): mean ${(mean(cached) / 1024).toFixed(1)} KiB, p50 ${(percentile(cached, 50) / 1024).toFixed(1)}, p99 ${(percentile(cached, 99) / 1024).toFixed(1)} KiB (${cached.length} entries)`);
    console.log(`used_memory: +${((usedAfter - usedBefore) / 1024 / games).toFixed(1)} KiB per finished game with its idempotency records and cached positions`);
    redis.disconnect();
  } finally {
    server.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  if (REDIS) {
    await measureRedis(Number(process.argv[3] ?? 200));
    return;
  }
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
