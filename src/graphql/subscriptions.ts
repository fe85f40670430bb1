import { randomUUID } from 'crypto';
import { Server } from 'http';
import { DocumentNode, GraphQLError, GraphQLFormattedError, GraphQLSchema, getOperationAST, parse, specifiedRules, validate } from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { Logger } from 'pino';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { App } from '../http/app';
import { ServiceError } from '../service/errors';
import { formatGraphqlError } from './errors';
import { GraphqlLimits, aliasLimitRule, depthLimitRule } from './limits';
import { GraphqlContext } from './context';

/** The error codes GraphQL over HTTP (Apollo Server) gives each stage that refuses a document. */
const REFUSAL_CODES = { parse: 'GRAPHQL_PARSE_FAILED', validate: 'GRAPHQL_VALIDATION_FAILED', variables: 'BAD_USER_INPUT' } as const;

/** The errors of a refusing stage with that stage's code, unless a rule gave its own (the document limits). */
function coded(errors: readonly GraphQLError[], code: string): GraphQLError[] {
  return errors.map(
    (e) =>
      new GraphQLError(e.message, {
        nodes: e.nodes,
        source: e.source,
        positions: e.positions,
        path: e.path,
        originalError: e.originalError,
        extensions: { code, ...e.extensions },
      }),
  );
}

/** A subscribe message's document checked as Apollo Server checks an HTTP one: parsed, validated, its variables coerced. */
function checked(schema: GraphQLSchema, rules: typeof specifiedRules, query: string, variables: Record<string, unknown> | null | undefined, operationName: string | null | undefined): DocumentNode | GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (e) {
    return coded([e as GraphQLError], REFUSAL_CODES.parse);
  }
  const errors = validate(schema, document, rules);
  if (errors.length > 0) return coded(errors, REFUSAL_CODES.validate);
  const operation = getOperationAST(document, operationName);
  if (operation) {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 });
    if (coerced.errors) return coded(coerced.errors, REFUSAL_CODES.variables);
  }
  return document;
}

/** The HTTP status an answer with these errors would have had: 400 for a refused document, else the errors' own (500 for INTERNAL). */
function statusOf(errors: readonly GraphQLFormattedError[]): number {
  const codes = errors.map((e) => e.extensions?.code);
  if (codes.some((c) => c === 'INTERNAL')) return 500;
  const own = errors.map((e) => (e.extensions?.http as { status?: number } | undefined)?.status).find((s) => typeof s === 'number');
  return own ?? 400;
}

/**
 * One access-log line per operation that ended in errors, in the fields of
 * the HTTP access log (observability.ts) plus the transport and the codes.
 */
function logRefusal(log: Logger, started: number, errors: readonly GraphQLFormattedError[], operationName: string | null | undefined): void {
  const status = statusOf(errors);
  const level = status >= 500 ? 'error' : 'info';
  if (!log.isLevelEnabled(level)) return;
  const fields = {
    requestId: randomUUID(),
    method: 'WS',
    route: '/graphql',
    transport: 'graphql-ws',
    operationName: operationName ?? undefined,
    status,
    codes: errors.map((e) => e.extensions?.code),
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
  if (level === 'info') log.info(fields, 'request');
  else log.error(fields, 'request failed');
}

/**
 * GraphQL subscriptions (`gameEvents`) over the graphql-ws protocol, on the
 * WebSocket upgrade of `/graphql` of the same HTTP server that serves the
 * app. The HTTP server belongs to the caller (main.ts, tests), so the caller
 * attaches this to it; the app's `drain` / `closeStreams` closes the sockets.
 */
export function attachSubscriptions(server: Server, app: App, limits: GraphqlLimits = app.graphqlLimits): { close(): Promise<void> } {
  const sockets = new WebSocketServer({ server, path: '/graphql', maxPayload: 64 * 1024 });
  // Subscriptions read sessions only; the caller is named as analysis fields would name it.
  const contextOf = (address: string | undefined): GraphqlContext => ({ services: app.services, caller: { client: `ip:${address ?? 'unknown'}` } });
  const rules = [...specifiedRules, depthLimitRule(limits.maxDepth), aliasLimitRule(limits.maxAliases)];
  // When each operation of each connection started, for the log line of one that ends in errors.
  const starts = new WeakMap<object, Map<string, number>>();
  const startsOf = (ctx: object): Map<string, number> => {
    let map = starts.get(ctx);
    if (!map) starts.set(ctx, (map = new Map()));
    return map;
  };
  const since = (ctx: object, id: string): number => startsOf(ctx).get(id) ?? performance.now();
  // An error of the event source itself (a feed the store interrupted) comes without a path: its service error is unwrapped here.
  const format = (errors: readonly GraphQLError[]) =>
    errors.map((e) => formatGraphqlError(e.toJSON(), !e.path && e.originalError instanceof ServiceError ? e.originalError : e));
  const handle = useServer(
    {
      schema: app.schema,
      // The same document checks and limits as HTTP queries, and the same error shapes.
      onSubscribe: (ctx, id, payload) => {
        startsOf(ctx).set(id, performance.now());
        const document = checked(app.schema, rules, payload.query, payload.variables, payload.operationName);
        if (Array.isArray(document)) return document;
        return { schema: app.schema, document, variableValues: payload.variables, operationName: payload.operationName, contextValue: contextOf(ctx.extra.request.socket.remoteAddress) };
      },
      onNext: (ctx, id, payload, _args, result) => {
        if (!('errors' in result) || !result.errors) return result;
        const errors = format(result.errors);
        logRefusal(app.log, since(ctx, id), errors, payload.operationName);
        return { ...result, errors };
      },
      onError: (ctx, id, payload, errors) => {
        const formatted = format(errors);
        logRefusal(app.log, since(ctx, id), formatted, payload.operationName);
        startsOf(ctx).delete(id);
        return formatted as GraphQLError[];
      },
      onComplete: (ctx, id) => {
        startsOf(ctx).delete(id);
      },
    },
    sockets,
  );
  const close = async () => {
    for (const socket of sockets.clients) socket.close(1001, 'server shutting down');
    await handle.dispose();
  };
  app.onCloseStreams(() => void close());
  return { close };
}
