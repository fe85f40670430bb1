import { AddressInfo, Server, Socket, createServer, connect } from 'net';
import request from 'supertest';
import { buildServices } from '../../src/app';
import { createFakeEvaluator } from '../../src/eval/fake';
import { App } from '../../src/http/app';
import { BullJobQueue, jobQueueConnection } from '../../src/service/jobs/bullmq';
import { STORE_TIMEOUT_MS } from '../../src/service/store/redis';
import { testApp } from '../support/app';
import { OwnRedis } from '../support/own-redis';

/*
 * A job queue whose Redis answers late just as the queue connects — what a
 * process starting under load sees when its event loop is busy past the
 * store timeout, or what a Redis that stalls at that moment does — works
 * once Redis answers again: the job endpoints answer as usual, not 503
 * STORE_UNAVAILABLE for as long as the process lives. (A cold API process
 * of the cluster benchmark answered every job request 503 for the rest of
 * its life so.)
 */

/** Longer than the store timeout: whatever the queue sends then fails. */
const STALL_MS = STORE_TIMEOUT_MS + 1500;

/**
 * A TCP proxy to Redis that, on each connection, passes the first reply
 * (the client's ready check) and then holds every later reply for `STALL_MS`.
 */
class StallingProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  /** Replies held so far, and stalls over. */
  stalls = 0;
  released = 0;

  constructor(private readonly redisPort: number) {
    this.server = createServer((client) => this.pipe(client));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private pipe(client: Socket): void {
    const upstream = connect(this.redisPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    // The ready check's INFO (ioredis sends it once HELLO is answered): its reply passes, later ones wait.
    let readyCheck = false;
    client.on('data', (chunk: Buffer) => {
      if (!readyCheck && /\r\ninfo\r\n/i.test(chunk.toString('latin1'))) readyCheck = true;
      upstream.write(chunk);
    });
    // 'before': until the ready check is answered; 'held': replies wait; 'open': replies pass.
    let phase: 'before' | 'held' | 'open' = 'before';
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      if (phase === 'open' || (phase === 'before' && !readyCheck)) {
        client.write(chunk);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      if (phase === 'held') return;
      const end = bulkReplyEnd(pending);
      if (end < 0) return;
      client.write(pending.subarray(0, end));
      pending = pending.subarray(end);
      phase = 'held';
      this.stalls++;
      setTimeout(() => {
        client.write(pending);
        phase = 'open';
        this.released++;
      }, STALL_MS);
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Where the first bulk (or verbatim) reply in `data` ends, past any one-line
 * replies before it (answers to commands sent before the ready check), or -1
 * when it has not all come.
 */
function bulkReplyEnd(data: Buffer): number {
  let at = 0;
  for (;;) {
    const line = data.indexOf('\r\n', at);
    if (line < 0) return -1;
    const type = String.fromCharCode(data[at]);
    if (type !== '$' && type !== '=') {
      at = line + 2;
      continue;
    }
    const end = line + 2 + Number(data.subarray(at + 1, line).toString()) + 2;
    return data.length >= end ? end : -1;
  }
}

let redis: OwnRedis;
let proxy: StallingProxy;
let app: App;

beforeAll(async () => {
  redis = await OwnRedis.start();
  proxy = new StallingProxy(redis.port);
  const stalled = await proxy.listen();
  // The connections a client waits on (the queue's and the markers') go through the stalling proxy.
  const queue = new BullJobQueue({
    connect: (role) => jobQueueConnection({ url: role === 'commands' ? stalled : redis.url }, role),
    ttlSeconds: 60,
    lockMs: 5000,
    prefix: 'faults-queue-start',
  });
  app = await testApp({
    services: buildServices({
      evaluators: { kind: 'fake', short: () => createFakeEvaluator({ family: 'short' }), long: () => createFakeEvaluator({ family: 'long' }) },
      jobs: { queue, work: false },
    }),
  });
});

afterAll(async () => {
  await app?.close();
  await proxy?.close();
  await redis?.stop();
});

describe('a job queue whose Redis answered late as it connected', () => {
  it('answers the job endpoints once Redis answers again', async () => {
    // Until every stall is over (each ends STALL_MS after its connection's ready check).
    const deadline = Date.now() + 30_000;
    while ((proxy.stalls === 0 || proxy.released < proxy.stalls) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(proxy.stalls).toBeGreaterThan(0);
    expect(proxy.released).toBe(proxy.stalls);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await request(app.app).get('/v1/rollouts/ro_000000000000000000000000');
      statuses.push(res.status);
      if (res.status !== 503) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    console.log(`job queue after ${proxy.stalls} stalled connections at its start: GET answered ${statuses.join(', ')}`);
    expect(statuses[statuses.length - 1]).toBe(404);
    const submitted = await request(app.app).post('/v1/rollouts').send({ variant: 'backgammon', positionId: '4HPwATDgc/ABMA', trials: 36, truncateAfter: 4, seed: 1 });
    expect(submitted.status).toBe(202);
    const read = await request(app.app).get(`/v1/rollouts/${submitted.body.id as string}`);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('queued');
  }, 60_000);
});
