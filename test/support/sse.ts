import { IncomingMessage, get } from 'http';

/** One server-sent event as the stream carried it. */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/**
 * A minimal server-sent events client for tests: collects the messages of
 * `GET url` (with `Last-Event-ID` if given), counts keep-alive comments, and
 * lets a test wait for a condition on what has arrived.
 */
export class SseClient {
  readonly messages: SseMessage[] = [];
  comments = 0;
  status = 0;
  headers: IncomingMessage['headers'] = {};
  ended = false;
  body = '';
  private response: IncomingMessage | null = null;
  private readonly waiters: (() => void)[] = [];

  static open(url: string, lastEventId?: number): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      // A connection of its own, closed with the stream: a pooled keep-alive socket left idle after the
      // stream ends would hold up the stop of a service process (it lets open connections end on their own).
      const req = get(url, { agent: false, headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) } }, (res) => {
        client.response = res;
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          client.body += chunk;
          buffer += chunk;
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            client.parse(buffer.slice(0, cut));
            buffer = buffer.slice(cut + 2);
          }
          client.wake();
        });
        res.on('end', () => {
          client.ended = true;
          client.wake();
        });
        res.on('close', () => {
          client.ended = true;
          client.wake();
        });
        resolve(client);
      });
      req.on('error', reject);
    });
  }

  private parse(block: string): void {
    const message: SseMessage = { event: 'message', data: '' };
    let any = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') message.id = value;
      else if (field === 'event') message.event = value;
      else if (field === 'data') message.data = message.data ? `${message.data}\n${value}` : value;
      else continue;
      any = true;
    }
    if (any && (message.data !== '' || message.event !== 'message')) this.messages.push(message);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** The `data` of the default-type messages, parsed. */
  events<T = { n: number; type: string }>(): T[] {
    return this.messages.filter((m) => m.event === 'message').map((m) => JSON.parse(m.data) as T);
  }

  /** Resolves when `condition` holds (checked on each arrival); rejects after `timeoutMs`. */
  async until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(this.messages.slice(-3))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(10, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.response?.destroy();
  }
}
