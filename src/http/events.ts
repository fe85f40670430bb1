import { Request, Response } from 'express';
import { fail } from '../service/errors';
import { GameFeed } from '../service/sessions/feed';

/**
 * Server-sent event streams of games (`GET /v1/games/{id}/events`): each
 * history event as one SSE message whose id is the event number, so a
 * client that reconnects with `Last-Event-ID` resumes where it stopped;
 * comment lines keep idle streams alive through proxies; a final `end`
 * event says the session is over (an EventSource would otherwise reconnect).
 *
 * The open streams are kept here so that shutdown can end them: a stream
 * never finishes by itself while its game goes on, and the HTTP server only
 * closes once every response has ended.
 */
export class EventStreams {
  private readonly open = new Set<() => void>();
  private closed = false;

  constructor(private readonly heartbeatMs = 15_000) {}

  /** `Last-Event-ID` (the number of the last event the client has), or 0 for the whole history. */
  static lastEventId(req: Request): number {
    const header = req.get('last-event-id');
    if (header === undefined || header.trim() === '') return 0;
    if (!/^\d{1,15}$/.test(header.trim())) {
      fail('INVALID_REQUEST', 'Last-Event-ID must be the number of an event', { field: 'Last-Event-ID' });
    }
    return Number(header.trim());
  }

  get size(): number {
    return this.open.size;
  }

  /** Streams the feed as server-sent events until the feed ends, the client leaves or `closeAll`. */
  async stream(req: Request, res: Response, feed: GameFeed): Promise<void> {
    if (this.closed) {
      await feed.return();
      fail('SHUTTING_DOWN', 'this replica is shutting down; reconnect (to another replica) with Last-Event-ID');
    }
    res.status(200).set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    res.write('retry: 2000\n\n');
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), this.heartbeatMs);
    heartbeat.unref();
    let finished = false;
    const stop = () => {
      if (finished) return;
      finished = true;
      clearInterval(heartbeat);
      this.open.delete(stop);
      void feed.return();
      if (!res.writableEnded) res.end();
    };
    this.open.add(stop);
    req.on('close', stop);
    try {
      for await (const event of feed) {
        if (finished) break;
        res.write(`id: ${event.n}\ndata: ${JSON.stringify(event)}\n\n`);
      }
      if (!finished) res.write(`event: end\ndata: ${JSON.stringify({ last: feed.last })}\n\n`);
    } finally {
      stop();
    }
  }

  /** Ends every open stream (shutdown); clients reconnect elsewhere with their Last-Event-ID. */
  closeAll(): void {
    this.closed = true;
    for (const stop of [...this.open]) stop();
  }
}
