import 'reflect-metadata';
import express, { Express } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import { Logger } from 'pino';
import { GraphQLSchema } from 'graphql';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { buildGraphqlSchema } from '../graphql/schema';
import { SETTING_DEFAULTS } from '../limits';
import { formatGraphqlError } from '../graphql/errors';
import { graphqlContext } from '../graphql/context';
import {
  DEFAULT_GRAPHQL_LIMITS,
  GraphqlLimits,
  aliasLimitRule,
  complexityPlugin,
  depthLimitRule,
} from '../graphql/limits';
import { ApiKey } from '../config';
import { RedisClient } from '../service/store/redis';
import { OPENAPI_PATH, contract, documentedHeaders } from '../contract/openapi';
import { boardPage, graphqlIde } from './board';
import { docsPage } from './docs';
import { identify, metricsGuard } from './callers';
import { errorHandler, notFound, requireJson } from './errors';
import { EventStreams } from './events';
import { RateLimitOptions, rateLimiter } from './limits';
import { Metrics, createLogger, createMetrics, observe } from './observability';
import { v1Routes } from './routes';
import { underTest } from '../config';
import { Services } from '../service/services';
import { Readiness } from './readiness';
import { validateRequests } from './validation';

export { OPENAPI_PATH };

/** The body limit of `POST /v1/analyses` (a match file of up to 2,000,000 characters as JSON). */
const MATCH_FILE_BODY_LIMIT = '4mb';

/**
 * What the app is built from: the services, built by the composition root
 * (src/app.ts: `servicesFrom` for `npm start`, `buildServices` in process),
 * and the transport's settings, each with a default.
 */
export interface AppDeps {
  /** Structured logs; silent in tests unless given. */
  log?: Logger;
  /** Largest accepted request body. */
  bodyLimit?: string;
  /** Sessions, cache, analysis and jobs. */
  services: Services;
  /** The Redis client behind the services, when there is one (readiness, rate-limit counts). */
  redis?: RedisClient | null;
  /** Per-client rate limit; off when absent. */
  rateLimit?: Omit<RateLimitOptions, 'redis'>;
  /** `*`, a list of origins, or [] for no CORS headers. */
  corsOrigins?: '*' | string[];
  trustProxy?: number;
  graphqlLimits?: GraphqlLimits;
  /** Check every REST response against openapi.yaml (on in tests; a mismatch is a 500). */
  validateResponses?: boolean;
  /** How often an idle event stream gets a keep-alive comment (default 15 s). */
  eventHeartbeatMs?: number;
  /** API_KEYS: callers that may identify themselves with `X-API-Key`. */
  apiKeys?: readonly ApiKey[];
  /** METRICS_TOKEN: `/metrics` needs it as a bearer token when set. */
  metricsToken?: string | null;
  /** `/ready` answers 503 until `warmedUp()` is called (main.ts warms the process up first). */
  awaitWarmUp?: boolean;
}

export interface App {
  readonly app: Express;
  readonly services: Services;
  readonly metrics: Metrics;
  /** The executable GraphQL schema (queries, mutations and the subscriptions of `attachSubscriptions`). */
  readonly schema: GraphQLSchema;
  /** The app's logger, for the subscription server's access log too. */
  readonly log: Logger;
  /** The document limits of GraphQL requests, for the subscription server too. */
  readonly graphqlLimits: GraphqlLimits;
  /**
   * Marks the app as draining: /ready answers 503 so load balancers stop
   * sending traffic, every answer from now on closes its connection
   * (`Connection: close`), so keep-alive clients move to another replica, and
   * the long-lived streams (server-sent events, GraphQL subscriptions) are
   * ended — they would otherwise keep the listener from closing; their
   * clients resume elsewhere from their last event.
   */
  drain(): void;
  /** The warm-up is over: `/ready` may answer 200 (with `awaitWarmUp`). */
  warmedUp(): void;
  /** Ends every event stream and subscription now (part of `drain`). */
  closeStreams(): void;
  /** Registers what else `closeStreams` must end (the subscription server). */
  onCloseStreams(close: () => void): void;
  /** Stops the GraphQL server and lets accepted analyses finish (the HTTP listener belongs to the caller). */
  close(): Promise<void>;
}

/** An express app with the settings every answer shares (no middleware yet). */
function baseExpress(deps: AppDeps): { app: Express; validateResponses: boolean } {
  const app = express();
  app.disable('x-powered-by');
  // The only ETags of the API are the session versions (openapi.yaml), set by
  // the routes; express's hash of every answer body would be unused work.
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.trustProxy ?? SETTING_DEFAULTS.trustProxy);
  const validateResponses = deps.validateResponses ?? underTest();
  app.set('validateResponses', validateResponses);
  return { app, validateResponses };
}

/** The started Apollo server of the schema, with the document limits enforced. */
async function startApollo(schema: GraphQLSchema, limits: GraphqlLimits, services: Services): Promise<ApolloServer> {
  const apollo = new ApolloServer({
    schema,
    formatError: formatGraphqlError,
    includeStacktraceInErrorResponses: false,
    introspection: true,
    // The app owns shutdown (main.ts); Apollo's own signal handlers would race it.
    stopOnTerminationSignals: false,
    validationRules: [depthLimitRule(limits.maxDepth), aliasLimitRule(limits.maxAliases)],
    // Browsers get the service's own IDE (graphqlIde): Apollo's landing page loads its sandbox from elsewhere, which the CSP refuses.
    plugins: [complexityPlugin(schema, limits.maxComplexity, services.analysis), ApolloServerPluginLandingPageDisabled()],
  });
  await apollo.start();
  return apollo;
}

/**
 * Request headers a browser on another origin may send beyond those
 * openapi.yaml documents: the JSON body's type, the request id of the logs,
 * and the header Apollo Server's CSRF check asks of a GraphQL GET.
 */
const TRANSPORT_HEADERS = ['Content-Type', 'X-Request-Id', 'Apollo-Require-Preflight', 'X-Apollo-Operation-Name'];

/** Security headers, and CORS headers for the configured origins (none for []): every documented header allowed and exposed. */
function useHeaders(app: Express, origins: '*' | string[]): void {
  // /docs "Try it out" calls the origin the page came from (openapi.yaml's server URL is relative).
  app.use(helmet({ contentSecurityPolicy: { directives: { 'connect-src': ["'self'"], 'upgrade-insecure-requests': null } } }));
  if (origins === '*' || origins.length > 0) {
    const headers = documentedHeaders(contract().document);
    app.use(
      cors({
        origin: origins === '*' ? '*' : origins,
        methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
        allowedHeaders: [...headers.request, ...TRANSPORT_HEADERS],
        exposedHeaders: [...new Set([...headers.response, 'X-Request-Id', 'Idempotent-Replayed'])],
      }),
    );
  }
}

/**
 * The probes, metrics and documentation routes. They are mounted before the
 * rate limiter: platforms poll them.
 */
function useProbesAndDocs(app: Express, metrics: Metrics, metricsToken: string | null, readiness: Readiness): void {
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', (_req, res) => {
    // Local state only: a probe never waits for Redis.
    const { ready, body } = readiness.view();
    res.status(ready ? 200 : 503).json(body);
  });
  app.get('/metrics', metricsGuard(metricsToken), async (_req, res) => {
    res.set('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  app.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').sendFile(OPENAPI_PATH);
  });
  app.use(docsPage());
  app.use('/board', boardPage());
  app.use(graphqlIde());
}

/** Caller identity, rate limit, JSON bodies and request checks against openapi.yaml, in that order. */
function useRequestChecks(app: Express, deps: AppDeps, redis: RedisClient | null, log: Logger, validateResponses: boolean): void {
  app.use(identify(deps.apiKeys ?? []));
  if (deps.rateLimit) app.use(rateLimiter({ ...deps.rateLimit, redis, log }));
  app.use(requireJson);
  // A match file may be far larger than a position (gnubg's analysed SGF of a 7-point match is about 570 kB).
  app.use('/v1/analyses', express.json({ limit: MATCH_FILE_BODY_LIMIT, strict: true }));
  app.use(express.json({ limit: deps.bodyLimit ?? '64kb', strict: true }));
  app.use(validateRequests(contract(), { ignore: /^\/(graphql|docs|metrics|health|ready|openapi\.yaml)(\/|$)/, answers: validateResponses }));
}

/**
 * The closers of the long-lived streams: the event streams' own, plus what is
 * registered later (the subscription server), all ended by one call.
 */
function streamClosers(streams: EventStreams): { closeStreams: () => void; onCloseStreams: (close: () => void) => void } {
  const closers: (() => void)[] = [() => streams.closeAll()];
  return {
    closeStreams: () => {
      for (const close of closers) close();
    },
    onCloseStreams: (close) => {
      closers.push(close);
    },
  };
}

/** Builds the express app with REST and GraphQL, without listening (tests run the real stack in-process). */
export async function createApp(deps: AppDeps): Promise<App> {
  const log = deps.log ?? createLogger('silent');
  const services = deps.services;
  const redis = deps.redis ?? null;
  const metrics = createMetrics(services, redis ? () => redis.status === 'ready' : undefined);
  const limits = deps.graphqlLimits ?? DEFAULT_GRAPHQL_LIMITS;
  let draining = false;
  const readiness = new Readiness(services.store, redis, { awaitWarmUp: deps.awaitWarmUp });

  const { app, validateResponses } = baseExpress(deps);
  const schema = await buildGraphqlSchema();
  const apollo = await startApollo(schema, limits, services);

  app.use(observe(log, metrics));
  app.use((_req, res, next) => {
    if (draining) res.set('Connection', 'close');
    next();
  });
  useHeaders(app, deps.corsOrigins ?? '*');
  useProbesAndDocs(app, metrics, deps.metricsToken ?? null, readiness);
  useRequestChecks(app, deps, redis, log, validateResponses);
  const streams = new EventStreams(deps.eventHeartbeatMs);
  const { closeStreams, onCloseStreams } = streamClosers(streams);
  app.use('/v1', v1Routes(services, metrics, streams));
  app.use(
    '/graphql',
    expressMiddleware(apollo, { context: async ({ req, res }) => graphqlContext(services, req, res) }),
  );
  app.use(notFound);
  app.use(errorHandler(log));
  return {
    app,
    services,
    metrics,
    schema,
    log,
    graphqlLimits: limits,
    drain: () => {
      draining = true;
      readiness.drain();
      closeStreams();
    },
    warmedUp: () => readiness.warmedUp(),
    closeStreams,
    onCloseStreams,
    close: async () => {
      readiness.close();
      await apollo.stop();
      // Jobs still running are left to the queue (another worker takes them up, with Redis).
      await services.jobQueue.close();
      await services.analysis.close();
    },
  };
}
