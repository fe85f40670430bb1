import 'reflect-metadata';
import express, { Express } from 'express';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { buildGraphqlSchema } from '../graphql/schema';
import { formatGraphqlError } from '../graphql/errors';
import { graphqlContext } from '../graphql/context';
import { ErrorLog, errorHandler, notFound, requireJson } from './errors';
import { v1Routes } from './routes';
import { Services, buildServices } from './services';

/** What the app is built from; everything has an in-process default so tests run the real stack. */
export interface AppDeps {
  /** Where unexpected errors are reported. */
  log?: ErrorLog;
  /** Largest accepted request body. */
  bodyLimit?: string;
  /** Sessions and cache; in-memory defaults when absent (`npm start` without REDIS_URL). */
  services?: Services;
}

export interface App {
  readonly app: Express;
  readonly services: Services;
  /** Stops the GraphQL server (the HTTP listener belongs to the caller). */
  close(): Promise<void>;
}

const consoleLog: ErrorLog = {
  error(fields, message) {
    const err = fields.err as { message?: string; stack?: string } | undefined;
    process.stderr.write(`${JSON.stringify({ level: 'error', message, correlationId: fields.correlationId, error: err?.stack ?? err?.message })}\n`);
  },
};

/** Builds the express app with REST and GraphQL, without listening (STYLE.md: createApp(deps)). */
export async function createApp(deps: AppDeps = {}): Promise<App> {
  const log = deps.log ?? consoleLog;
  const services = deps.services ?? buildServices();
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');

  const schema = await buildGraphqlSchema();
  const apollo = new ApolloServer({
    schema,
    formatError: formatGraphqlError,
    includeStacktraceInErrorResponses: false,
    introspection: true,
  });
  await apollo.start();

  app.use(requireJson);
  app.use(express.json({ limit: deps.bodyLimit ?? '64kb', strict: true }));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/v1', v1Routes(services));
  app.use('/graphql', expressMiddleware(apollo, { context: async ({ req }) => graphqlContext(services, req) }));
  app.use(notFound);
  app.use(errorHandler(log));
  return { app, services, close: () => apollo.stop() };
}
