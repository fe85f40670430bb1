import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { Writable } from 'stream';
import request from 'supertest';
import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { attachSubscriptions } from '../../src/graphql/subscriptions';
import { App } from '../../src/http/app';
import { createLogger } from '../../src/http/observability';
import { testApp } from '../support/app';

/*
 * GraphQL over graphql-ws refuses a bad document exactly as GraphQL over
 * HTTP does: the same standard messages and the same codes (a syntax error
 * GRAPHQL_PARSE_FAILED, an unknown field or a wrong argument type
 * GRAPHQL_VALIDATION_FAILED, a missing or ill-typed variable
 * BAD_USER_INPUT), and each refusal is logged as an HTTP refusal is.
 */

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let app: App;
let server: Server;
let client: Client;
beforeAll(async () => {
  app = await testApp({ log: createLogger('info', sink) });
  server = createServer(app.app);
  attachSubscriptions(server, app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = createClient({ url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
});
afterAll(async () => {
  await client.dispose();
  await new Promise((resolve) => server.close(resolve));
  await app.close();
});

/** The errors graphql-ws answers a document with (an `error` message, or the errors of a `next`). */
function overSocket(query: string, variables?: Record<string, unknown>): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    client.subscribe(
      { query, variables },
      {
        next: (message) => (message.errors ? resolve(message.errors as unknown[]) : reject(new Error(`no errors: ${JSON.stringify(message)}`))),
        error: (errors) => (Array.isArray(errors) ? resolve(errors as unknown[]) : reject(errors instanceof Error ? errors : new Error(String(errors)))),
        complete: () => reject(new Error('completed without errors')),
      },
    );
  });
}

const CASES: { name: string; query: string; variables?: Record<string, unknown>; code: string; message: RegExp }[] = [
  { name: 'a syntax error', query: 'subscription { gameEvents(id: "g") { number', code: 'GRAPHQL_PARSE_FAILED', message: /^Syntax Error: / },
  { name: 'a typo in a field', query: 'subscription { gameEvents(id: "g") { nn } }', code: 'GRAPHQL_VALIDATION_FAILED', message: /^Cannot query field "nn" on type "GameEvent"\. Did you mean "n"\?$/ },
  { name: 'a typo in a query field', query: '{ helth { status } }', code: 'GRAPHQL_VALIDATION_FAILED', message: /^Cannot query field "helth" on type "Query"\. Did you mean "health"\?$/ },
  { name: 'a wrong argument type', query: 'subscription { gameEvents(id: "g", after: "x") { n } }', code: 'GRAPHQL_VALIDATION_FAILED', message: /^Int cannot represent non-integer value: "x"$/ },
  { name: 'a missing variable', query: 'subscription ($id: ID!) { gameEvents(id: $id) { n } }', code: 'BAD_USER_INPUT', message: /^Variable "\$id" of required type "ID!" was not provided\.$/ },
  { name: 'an ill-typed variable', query: 'subscription ($id: ID!, $after: Int) { gameEvents(id: $id, after: $after) { n } }', variables: { id: 'g', after: 'x' }, code: 'BAD_USER_INPUT', message: /^Variable "\$after" got invalid value "x"; Int cannot represent non-integer value: "x"$/ },
];

describe('GraphQL errors over graphql-ws', () => {
  it.each(CASES)('answers $name as HTTP does ($code)', async ({ query, variables, code, message }) => {
    const http = await request(app.app).post('/graphql').send({ query, variables });
    expect(http.status).toBe(400);
    const socket = await overSocket(query, variables);
    expect(socket).toEqual(http.body.errors);
    expect(socket).toEqual([expect.objectContaining({ message: expect.stringMatching(message), extensions: { code } })]);
  });

  it('logs each refused operation as an HTTP refusal is logged, with its codes', async () => {
    lines.length = 0;
    await overSocket('{ helth { status } }');
    const line = lines.find((l) => l.route === '/graphql' && l.transport === 'graphql-ws');
    expect(line).toMatchObject({ level: 'info', method: 'WS', route: '/graphql', status: 400, codes: ['GRAPHQL_VALIDATION_FAILED'], message: 'request' });
    expect(typeof line!.durationMs).toBe('number');
  });
});
