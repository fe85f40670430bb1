import { RedisClient, STORE_TIMEOUT_MS } from '../service/store/redis';
import { SessionStore } from '../service/store/types';

/**
 * Readiness from local state, so `/ready` answers in microseconds however
 * busy Redis or the event loop's queue is: the store is pinged in the
 * background (every `intervalMs`, each ping held to the store timeout) and
 * the last answer is kept; a Redis connection that is not ready counts as
 * down at once. A process that must warm up first is not ready until it
 * says so, nor while it drains.
 */
export class Readiness {
  /** The last ping's answer; unknown (not ready) until the first one. */
  private storeAnswered: boolean | null = null;
  private probing = false;
  private warm: boolean;
  private draining = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: SessionStore,
    private readonly redis: RedisClient | null,
    options: { intervalMs?: number; awaitWarmUp?: boolean } = {},
  ) {
    this.warm = !options.awaitWarmUp;
    this.timer = setInterval(() => void this.probe(), options.intervalMs ?? 1000);
    this.timer.unref();
    void this.probe();
  }

  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    let timeout: NodeJS.Timeout | undefined;
    try {
      this.storeAnswered = await Promise.race([
        this.store.ping().catch(() => false),
        new Promise<boolean>((resolve) => (timeout = setTimeout(() => resolve(false), STORE_TIMEOUT_MS))),
      ]);
    } finally {
      clearTimeout(timeout);
      this.probing = false;
    }
  }

  get storeUp(): boolean {
    if (this.redis && this.redis.status !== 'ready') return false;
    return this.storeAnswered === true;
  }

  /** The warm-up is done (or failed: the process serves cold rather than never). */
  warmedUp(): void {
    this.warm = true;
  }

  drain(): void {
    this.draining = true;
  }

  view(): { ready: boolean; body: { status: 'ready' | 'not ready'; store: 'up' | 'down'; draining: boolean; warmedUp: boolean } } {
    const store = this.storeUp;
    const ready = store && this.warm && !this.draining;
    return { ready, body: { status: ready ? 'ready' : 'not ready', store: store ? 'up' : 'down', draining: this.draining, warmedUp: this.warm } };
  }

  close(): void {
    clearInterval(this.timer);
  }
}
