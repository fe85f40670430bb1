import { Request, Response } from 'express';
import { fail } from '../service/errors';
import { GameFeed } from '../service/sessions/feed';

/** One server-sent event: `event` names it (none: a plain message), `id` lets a client resume after it. */
export interface SseMessage {
  readonly id?: number | string;
  readonly event?: string;
  readonly data: unknown;
}

/** What a stream sends: its messages in order, and how to let go of them when the stream ends early. */
export interface SseSource extends AsyncIterable<SseMessage> {
  close(): Promise<unknown> | void;
}

/**
 * A game's history as messages: each event with its number as id, then
 * `end` when the session is over — and only then: a feed interrupted by the
 * store throws, and the stream closes without `end`.
 */
export function gameMessages(feed: GameFeed): SseSource {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const event of feed) yield { id: event.n, data: event };
      yield { event: 'end', data: { last: feed.last } };
    },
    close: () => feed.return(),
  };
}

/**
 * Server-sent event streams: of games (`GET /v1/games/{id}/events`: each
 * history event as one SSE message whose id is the event number, so a
 * client that reconnects with `Last-Event-ID` resumes where it stopped; a
 * final `end` event says the session is over, as an EventSource would
 * otherwise reconnect) and of jobs (`…/{id}/events`); comment lines keep
 * idle streams alive through proxies.
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

  /** Streams the source as server-sent events until it ends, the client leaves or `closeAll`. */
  async stream(req: Request, res: Response, source: SseSource): Promise<void> {
    if (this.closed) {
      await source.close();
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
      void source.close();
      if (!res.writableEnded) res.end();
    };
    this.open.add(stop);
    req.on('close', stop);
    try {
      for await (const message of source) {
        if (finished) break;
        const id = message.id !== undefined ? `id: ${message.id}\n` : '';
        const event = message.event !== undefined ? `event: ${message.event}\n` : '';
        res.write(`${id}${event}data: ${JSON.stringify(message.data)}\n\n`);
      }
    } catch {
      // The source was interrupted (its store did not answer), not finished: the connection closes
      // without an `end` message, so the client reconnects with its Last-Event-ID.
      if (!finished && !res.writableEnded) res.write(': interrupted; reconnect with Last-Event-ID\n\n');
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
