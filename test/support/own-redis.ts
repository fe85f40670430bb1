import { ChildProcess, spawn, spawnSync } from 'child_process';
import Redis from 'ioredis';
import { connect } from 'net';
import { createRedisClient, whenReady } from '../../src/service/store/redis';
import { freePort } from './processes';

/**
 * A redis-server of a test's own, on a free port, that the test may stop,
 * start again and pause: fault tests never touch the shared Redis. No
 * persistence unless `args` asks for it; `stop` kills it (SIGKILL: no
 * goodbye), `start` brings it back on the same port.
 */
export class OwnRedis {
  private process: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly args: readonly string[],
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(args: readonly string[] = []): Promise<OwnRedis> {
    if (spawnSync('redis-server', ['--version']).error) throw new Error('redis-server is needed for the fault tests (apt-get install -y redis-server)');
    const redis = new OwnRedis(await freePort(), args);
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    if (this.process) return;
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...this.args], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await pings(this.port, 100)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the test redis-server on port ${this.port} did not start`);
  }

  /** A fail-fast client of this server (the caller disconnects it). */
  client(): Redis {
    return createRedisClient(this.url);
  }

  /** Holds every client's writes (or all commands) for `ms`, as `CLIENT PAUSE` does. */
  async pause(ms: number, mode: 'WRITE' | 'ALL' = 'WRITE'): Promise<void> {
    const client = this.client();
    try {
      await whenReady(client, 1000);
      await client.call('CLIENT', 'PAUSE', String(ms), mode);
    } finally {
      client.disconnect();
    }
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child) return;
    this.process = null;
    if (child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

/**
 * Whether the Redis on `port` answers PING within `ms` (not while it loads its data: that answer is an
 * error). A bare socket, destroyed at once: a client disconnected while it still connects keeps a 2 s
 * timer of its own, which outlives the test and holds up the exit of its Jest worker.
 */
function pings(port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (answer: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once('error', () => done(false));
    socket.once('data', (data: Buffer) => done(data.toString('latin1').startsWith('+PONG')));
    socket.write('PING\r\n');
  });
}
