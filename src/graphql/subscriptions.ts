import { Server } from 'http';
import { GraphQLError, parse, specifiedRules, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { App } from '../http/app';
import { ServiceError } from '../service/errors';
import { formatGraphqlError } from './errors';
import { GraphqlLimits, aliasLimitRule, depthLimitRule } from './limits';
import { GraphqlContext } from './context';

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
  const handle = useServer(
    {
      schema: app.schema,
      // The same document limits as HTTP queries, and the same error shapes.
      onSubscribe: (ctx, _id, payload) => {
        let document;
        try {
          document = parse(payload.query);
        } catch (e) {
          return [e as GraphQLError];
        }
        const errors = validate(app.schema, document, rules);
        if (errors.length > 0) return errors;
        return { schema: app.schema, document, variableValues: payload.variables, operationName: payload.operationName, contextValue: contextOf(ctx.extra.request.socket.remoteAddress) };
      },
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!('errors' in result) || !result.errors) return result;
        return { ...result, errors: result.errors.map((e) => formatGraphqlError(e.toJSON(), e)) };
      },
      // An error of the event source itself (a feed the store interrupted) comes without a path: its service error is unwrapped here.
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((e) => formatGraphqlError(e.toJSON(), !e.path && e.originalError instanceof ServiceError ? e.originalError : e) as GraphQLError),
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
