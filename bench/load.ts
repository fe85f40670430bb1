import { ChildProcess, spawn, spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import { connect, createServer } from 'net';
import { cpus, totalmem } from 'os';
import { resolve } from 'path';
import autocannon from 'autocannon';

/*
 * Load instrument: a mixed workload against the real server on loopback.
 *
 *   npx tsx bench/load.ts [--duration=20] [--connections=24] [--session-connections=8]
 *                         [--redis=spawn|redis://host:port] [--server=dist|tsx] [--no-build]
 *                         [--log-level=info]
 *
 * The server runs in a child process (built dist/main.js, compiled first unless
 * --no-build; or src/main.ts under tsx), with NODE_ENV=production and the rate
 * limiter off (the generator is one client). --redis keeps sessions and the
 * cache in Redis: `spawn` starts a private, empty redis-server for the run
 * (maxmemory 256mb, volatile-ttl, no persistence) and stops it after; a URL
 * uses that Redis (a cache left warm by an earlier run counts as hits).
 * Two autocannon instances run at
 * once in this process:
 *   stateless — POST /v1/moves (long, crazy and backgammon positions reached by
 *               random play, every dice roll), POST /v1/moves/validate (legal and
 *               illegal turns), POST /v1/score, and POST /v1/evaluate when the
 *               server has it (404: skipped, and said so);
 *   sessions  — a pool of games: each request takes a free game, rolls or plays
 *               its first legal turn with the seat's bearer token, and gives it
 *               back; a finished game is replaced by a new one (POST /v1/games).
 * Prints req/s, p50/p99 latency, errors and non-2xx per instance, the
 * hot-position cache hit ratio, and the server's RSS (VmRSS; VmHWM = peak)
 * before and after.
 */

interface Options {
  duration: number;
  connections: number;
  sessionConnections: number;
  redis: string | null;
  server: 'dist' | 'tsx';
  build: boolean;
  logLevel: string;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    duration: 20,
    connections: 24,
    sessionConnections: 8,
    redis: null,
    server: 'dist',
    build: true,
    logLevel: 'info',
  };
  for (const arg of argv) {
    const [k, v] = arg.replace(/^--/, '').split('=', 2);
    if (k === 'duration') o.duration = Number(v);
    else if (k === 'connections') o.connections = Number(v);
    else if (k === 'session-connections') o.sessionConnections = Number(v);
    else if (k === 'redis') o.redis = v;
    else if (k === 'server' && (v === 'dist' || v === 'tsx')) o.server = v;
    else if (k === 'no-build') o.build = false;
    else if (k === 'log-level') o.logLevel = v;
    else throw new Error(`unknown argument ${arg} (see the comment at the top of bench/load.ts)`);
  }
  return o;
}

const ROOT = resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((ok, ko) => {
    const s = createServer();
    s.once('error', ko);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** VmRSS and VmHWM of a process in MiB (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function post(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

// ---- the workload ------------------------------------------------------------------

const DICE: [number, number][] = [];
for (let a = 1; a <= 6; a++) for (let b = a; b <= 6; b++) DICE.push([b, a]);

interface Turn {
  notation: string;
  positionId: string;
}

/** Positions reached by random play from the start, for variety (the server itself plays). */
async function positions(
  base: string,
  variant: string,
  start: object,
  plies: number,
  seed: number,
): Promise<object[]> {
  let random = seed;
  const next = (n: number) => {
    random = (random * 1103515245 + 12345) % 2147483648;
    return random % n;
  };
  const out: object[] = [start];
  let position: object = start;
  for (let i = 0; i < plies; i++) {
    const dice = DICE[next(DICE.length)];
    const res = await post(base, '/v1/moves', { variant, ...position, dice });
    if (res.status !== 200) break;
    const turns = res.body.turns as Turn[];
    const nextPosition = turns[next(turns.length)];
    const answerNext = (nextPosition as unknown as { next: { kind: string } }).next;
    if (answerNext.kind !== 'turn') break; // a pending stage or the game's end: start again from here is not needed
    position = { positionId: nextPosition.positionId };
    out.push(position);
  }
  return out;
}

type Request = autocannon.Request;
type Headers = Record<string, string | string[] | undefined> | undefined;

async function statelessRequests(
  base: string,
  cacheCount: { hit: number; miss: number },
): Promise<{ requests: Request[]; notes: string[] }> {
  const notes: string[] = [];
  const json = { 'content-type': 'application/json' };
  const countCache = (_s: number, _b: string, _c: object, headers: Headers) => {
    const v = headers?.['x-cache'] ?? headers?.['X-Cache'];
    if (v === 'HIT') cacheCount.hit++;
    else if (v === 'MISS') cacheCount.miss++;
  };
  const longStart = { positionId: 'GAAA8_fAAAg__DA' };
  const bgStart = {
    position: {
      turn: 'white',
      white: { points: { '6': 5, '8': 3, '13': 5, '24': 2 } },
      black: { points: { '6': 5, '8': 3, '13': 5, '24': 2 } },
    },
  };
  const sets: [string, object[]][] = [
    ['long', await positions(base, 'long', longStart, 30, 7)],
    ['crazy', await positions(base, 'crazy', longStart, 12, 11)],
    ['backgammon', await positions(base, 'backgammon', bgStart, 30, 13)],
  ];
  const moves: Request[] = [];
  const validates: Request[] = [];
  for (const [variant, list] of sets) {
    for (const [i, position] of list.entries()) {
      for (const [j, dice] of DICE.entries()) {
        if ((i + j) % 3 !== 0) continue; // a third of the position × dice grid: ~330 distinct queries
        moves.push({
          method: 'POST',
          path: '/v1/moves',
          headers: json,
          body: JSON.stringify({ variant, ...position, dice }),
          onResponse: countCache,
        });
      }
      // Validation: one legal turn and one made for other dice (usually illegal).
      const dice = DICE[(i * 5) % DICE.length];
      const other = DICE[(i * 5 + 7) % DICE.length];
      const legal = await post(base, '/v1/moves', { variant, ...position, dice });
      const wrong = await post(base, '/v1/moves', { variant, ...position, dice: other });
      const legalTurn = (legal.body.turns as Turn[] | undefined)?.[0];
      const wrongTurn = (wrong.body.turns as Turn[] | undefined)?.[0];
      for (const [turn, note] of [
        [legalTurn, 'legal'],
        [wrongTurn, 'other dice'],
      ] as const) {
        if (turn && turn.notation) {
          validates.push({
            method: 'POST',
            path: '/v1/moves/validate',
            headers: json,
            body: JSON.stringify({ variant, ...position, dice, notation: turn.notation }),
          });
        } else if (!turn) notes.push(`no ${note} turn for a ${variant} validation body`);
      }
    }
  }
  const score: Request = {
    method: 'POST',
    path: '/v1/score',
    headers: json,
    body: JSON.stringify({
      variant: 'long',
      position: {
        turn: 'black',
        white: { points: {}, off: 15 },
        black: { points: { '1': 5, '2': 5, '3': 5 }, off: 0 },
      },
      cube: { value: 2, owner: 'black', turned: true },
      match: { length: 7, score: { white: 2, black: 1 } },
    }),
  };
  // The mix, interleaved: per 10 requests ~6 moves, 3 validations, 1 score (+1 evaluation when served).
  const evaluateBody = { variant: 'long', positionId: 'GAAA8_fAAAg__DA' };
  const probe = await post(base, '/v1/evaluate', evaluateBody).catch(() => ({ status: 0, body: {} }));
  let evaluate: Request | null = null;
  if (probe.status === 404)
    notes.push('POST /v1/evaluate answers 404: not served by this build, left out of the mix');
  else if (probe.status !== 200)
    notes.push(
      `POST /v1/evaluate answers ${probe.status} to ${JSON.stringify(evaluateBody)}: left out of the mix`,
    );
  else {
    evaluate = { method: 'POST', path: '/v1/evaluate', headers: json, body: JSON.stringify(evaluateBody) };
    notes.push('POST /v1/evaluate is in the mix (1 in 11)');
  }
  // The mix: per 10 requests ~6 moves, 3 validations, 1 score (+1 evaluation when served). Each
  // request is drawn at random from it, so the connections do not walk the list in lockstep
  // (which would turn every first query into 24 simultaneous misses).
  const mix: Request[] = [];
  let m = 0;
  let v = 0;
  while (m < moves.length) {
    for (let k = 0; k < 6 && m < moves.length; k++) mix.push(moves[m++]);
    for (let k = 0; k < 3; k++) mix.push(validates[v++ % validates.length]);
    mix.push(score);
    if (evaluate) mix.push(evaluate);
  }
  let seed = 42;
  const pick = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return mix[seed % mix.length];
  };
  const requests: Request[] = [
    {
      setupRequest: (req: Request): Request => ({ ...req, ...pick() }),
      onResponse: countCache,
    },
  ];
  notes.push(
    `stateless mix: ${moves.length} distinct move queries, ${validates.length} validations, score${evaluate ? ', evaluate' : ''}; each request drawn at random from ${mix.length}`,
  );
  return { requests, notes };
}

interface Game {
  id: string;
  tokens: { white: string; black: string };
  state: {
    status: string;
    expects: { seat: 'white' | 'black'; action: string } | null;
    legalTurns?: { notation: string }[];
  };
  busy: boolean;
  stale: boolean;
}

/** The session workload: each request takes a free game from the pool, acts on it, gives it back. */
function sessionRequests(pool: Game[], target: number, counts: Record<string, number>): Request[] {
  const json = { 'content-type': 'application/json' };
  interface Ctx {
    game?: Game;
    creating?: boolean;
  }
  const step: Request = {
    method: 'POST',
    path: '/v1/games',
    setupRequest: (req: Request, context: object): Request => {
      const ctx = context as Ctx;
      // Finished games leave the pool; new ones keep it at its size.
      const game =
        pool.length < target
          ? undefined
          : pool.find((g) => !g.busy && g.state.status === 'playing' && g.state.expects);
      if (!game) {
        ctx.creating = true;
        counts.create++;
        return {
          ...req,
          method: 'POST',
          path: '/v1/games',
          headers: json,
          body: JSON.stringify({ variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } }),
        };
      }
      game.busy = true;
      ctx.game = game;
      const auth = { authorization: `Bearer ${game.tokens[game.state.expects!.seat]}` };
      if (game.stale) {
        counts.refresh++;
        return { ...req, method: 'GET', path: `/v1/games/${game.id}`, headers: {}, body: undefined };
      }
      if (game.state.expects!.action === 'play') {
        counts.play++;
        const notation = game.state.legalTurns?.[0]?.notation ?? '';
        return {
          ...req,
          method: 'POST',
          path: `/v1/games/${game.id}/play`,
          headers: { ...json, ...auth },
          body: JSON.stringify({ notation }),
        };
      }
      counts.roll++;
      return {
        ...req,
        method: 'POST',
        path: `/v1/games/${game.id}/roll`,
        headers: { ...json, ...auth },
        body: '{}',
      };
    },
    onResponse: (status: number, body: string, context: object) => {
      const ctx = context as Ctx;
      if (ctx.creating) {
        if (status === 201) {
          const created = JSON.parse(body) as {
            id: string;
            seats: { white: { token: string }; black: { token: string } };
            state: Game['state'];
          };
          pool.push({
            id: created.id,
            tokens: { white: created.seats.white.token, black: created.seats.black.token },
            state: created.state,
            busy: false,
            stale: false,
          });
        }
        return;
      }
      const game = ctx.game;
      if (!game) return;
      game.busy = false;
      if (status === 200) {
        game.state = JSON.parse(body);
        game.stale = false;
        if (
          game.state.status !== 'playing' ||
          !game.state.expects ||
          !['roll', 'play'].includes(game.state.expects.action)
        ) {
          pool.splice(pool.indexOf(game), 1); // finished (or waiting for a cube answer): a new game replaces it
          counts.finished++;
        }
      } else game.stale = true;
    },
  };
  return [step];
}

async function createPool(base: string, size: number): Promise<Game[]> {
  const pool: Game[] = [];
  for (let i = 0; i < size; i++) {
    const res = await post(base, '/v1/games', { variant: 'long', rules: { openingRoll: 'fixedFirstSeat' } });
    if (res.status !== 201)
      throw new Error(`POST /v1/games answered ${res.status}: ${JSON.stringify(res.body)}`);
    const seats = res.body.seats as unknown as { white: { token: string }; black: { token: string } };
    pool.push({
      id: res.body.id as unknown as string,
      tokens: { white: seats.white.token, black: seats.black.token },
      state: res.body.state as unknown as Game['state'],
      busy: false,
      stale: false,
    });
  }
  return pool;
}

// ---- running -----------------------------------------------------------------------

interface Figures {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

function figures(r: autocannon.Result): Figures {
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
  };
}

/** A private redis-server on a free port, for --redis=spawn. */
async function startRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--maxmemory',
    '256mb',
    '--maxmemory-policy',
    'volatile-ttl',
  ];
  const proc = spawn('redis-server', args, { stdio: 'ignore' });
  proc.on('error', () => undefined);
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) break;
    const up = await new Promise<boolean>((ok) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        ok(true);
      });
      socket.on('error', () => ok(false));
    });
    if (up) return { url: `redis://127.0.0.1:${port}`, proc };
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error('redis-server did not start (apt-get install -y redis-server)');
}

async function startServer(o: Options, port: number): Promise<ChildProcess> {
  if (o.server === 'dist' && o.build) {
    process.stdout.write('building dist/ (tsc -p tsconfig.json) … ');
    const t = Date.now();
    const r = spawnSync(
      process.execPath,
      [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      { cwd: ROOT, stdio: 'inherit' },
    );
    if (r.status !== 0) throw new Error('the build failed');
    console.log(`${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: o.logLevel,
    RATE_LIMIT_MAX: '0',
    GAME_TTL_SECONDS: '900',
  };
  delete env.REDIS_CLUSTER_NODES;
  if (o.redis) env.REDIS_URL = o.redis;
  else delete env.REDIS_URL;
  const args =
    o.server === 'dist' ? [resolve(ROOT, 'dist/main.js')] : ['--import', 'tsx', resolve(ROOT, 'src/main.ts')];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/ready`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return child;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not become ready in 30 s: ${stderr}`);
}

function stopServer(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((ok) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      ok(code);
    });
    child.kill('SIGTERM');
  });
}

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const redis = o.redis === 'spawn' ? await startRedis() : null;
  if (redis) o.redis = redis.url;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess;
  try {
    server = await startServer(o, port);
  } catch (e) {
    redis?.proc.kill('SIGKILL');
    throw e;
  }
  const pid = server.pid!;
  let exitCode: number | null = null;
  try {
    const idle = memory(pid);
    const cacheCount = { hit: 0, miss: 0 };
    const { requests, notes } = await statelessRequests(base, cacheCount);
    const pool = await createPool(base, o.sessionConnections * 2);
    const counts = { roll: 0, play: 0, create: 0, refresh: 0, finished: 0 };
    const before = memory(pid);
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node.js ${process.version}`,
    );
    console.log(
      `server: ${o.server === 'dist' ? 'node dist/main.js' : 'tsx src/main.ts'}, NODE_ENV=production, LOG_LEVEL=${o.logLevel}, rate limit off, store: ${redis ? `a private redis-server (${redis.url})` : o.redis ? `Redis ${o.redis}` : 'in-process'}`,
    );
    console.log(
      `load: ${o.duration} s; stateless ${o.connections} connections + sessions ${o.sessionConnections} connections (pool of ${pool.length} games), same machine, loopback`,
    );
    for (const n of notes) console.log(`  - ${n}`);
    cacheCount.hit = 0;
    cacheCount.miss = 0;
    const [stateless, sessions] = await Promise.all([
      autocannon({ url: base, connections: o.connections, duration: o.duration, requests }),
      autocannon({
        url: base,
        connections: o.sessionConnections,
        duration: o.duration,
        requests: sessionRequests(pool, pool.length, counts),
      }),
    ]);
    const after = memory(pid);
    const rows: [string, Figures][] = [
      ['stateless', figures(stateless)],
      ['sessions', figures(sessions)],
    ];
    console.log('');
    console.log('| workload | req/s | requests | p50 | p99 | errors | timeouts | non-2xx |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [name, f] of rows) {
      console.log(
        `| ${name} | ${f.rps.toFixed(0)} | ${f.total} | ${ms(f.p50)} | ${ms(f.p99)} | ${f.errors} | ${f.timeouts} | ${f.non2xx} |`,
      );
    }
    const total = rows.reduce((a, [, f]) => a + f.rps, 0);
    console.log(
      `| **total** | **${total.toFixed(0)}** | ${rows.reduce((a, [, f]) => a + f.total, 0)} | | | | | |`,
    );
    console.log('');
    const lookups = cacheCount.hit + cacheCount.miss;
    console.log(
      `hot-position cache (X-Cache of the stateless answers): ${lookups ? ((100 * cacheCount.hit) / lookups).toFixed(1) : '0'}% hits of ${lookups}`,
    );
    console.log(
      `session actions: ${counts.roll} rolls, ${counts.play} plays, ${counts.create} games created, ${counts.finished} finished, ${counts.refresh} refreshes after a non-200`,
    );
    console.log(
      `server RSS: ${idle.rss.toFixed(0)} MiB idle, ${before.rss.toFixed(0)} MiB before the load, ${after.rss.toFixed(0)} MiB after; peak (VmHWM) ${after.peak.toFixed(0)} MiB`,
    );
  } finally {
    exitCode = await stopServer(server);
    redis?.proc.kill('SIGTERM');
  }
  console.log(`server stopped with SIGTERM: exit ${exitCode}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
