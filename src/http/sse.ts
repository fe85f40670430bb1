import { Request, Response } from 'express';

/**
 * A server-sent event stream: `text/event-stream`, a comment every
 * `heartbeatMs` so proxies keep an idle stream open, and `stop` called when
 * the client goes away or the stream ends.
 */
export interface EventStream {
  send(event: string, data: unknown, id?: string | number): void;
  end(): void;
}

export function openEventStream(req: Request, res: Response, heartbeatMs = 15_000): { stream: EventStream; closed: Promise<void> } {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx and similar proxies buffer answers unless told not to.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), heartbeatMs);
  heartbeat.unref();
  let done = false;
  const closed = new Promise<void>((resolve) => {
    const finish = (): void => {
      if (done) return;
      done = true;
      clearInterval(heartbeat);
      resolve();
    };
    req.once('close', finish);
    res.once('close', finish);
  });
  const stream: EventStream = {
    send(event, data, id) {
      if (done) return;
      res.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!done) res.end();
    },
  };
  return { stream, closed };
}
