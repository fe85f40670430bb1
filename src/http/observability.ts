import { randomUUID } from 'crypto';
import { RequestHandler } from 'express';
import pino, { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Services } from '../service/services';

/**
 * Structured JSON logs (pino) with a request id taken from / returned in
 * `X-Request-Id`, and Prometheus metrics: per-route request counts and
 * latency, cache hits and misses, move-generation timings, store state.
 */
export function createLogger(level = 'info', destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'message',
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface WarnLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * A logger for faults that repeat at request rate (a store that does not
 * answer): one JSON line at `warn` with the error's message — no stack —
 * at most every `intervalMs`, counting the occurrences it left out.
 */
export function throttledWarn(log: WarnLog, message: string, intervalMs = 10_000, now: () => number = Date.now): (error: unknown) => void {
  let last = -Infinity;
  let suppressed = 0;
  return (error) => {
    const t = now();
    if (t - last < intervalMs) {
      suppressed++;
      return;
    }
    last = t;
    const err = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    log.warn({ err: err.split('\n')[0].slice(0, 300), suppressed }, message);
    suppressed = 0;
  };
}

export interface Metrics {
  readonly registry: Registry;
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly latency: Histogram<'method' | 'route'>;
  /** Time to compute legal moves (cache misses only), by variant family. */
  readonly movegen: Histogram<'variant'>;
  /** Time of position evaluations, by evaluator. */
  readonly evaluation: Histogram<'evaluator' | 'operation'>;
}

export function createMetrics(services: Services, storeUp?: () => boolean): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const movegen = new Histogram({
    name: 'nardy_movegen_duration_seconds',
    help: 'Legal-move generation time per request (cache misses), by variant',
    labelNames: ['variant'] as const,
    buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
    registers: [registry],
  });
  const evaluation = new Histogram({
    name: 'nardy_evaluation_duration_seconds',
    help: 'Analysis time per request (cache misses), by evaluator kind and operation (evaluate, batch, best, rollout)',
    labelNames: ['evaluator', 'operation'] as const,
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'nardy_cache_hits_total',
    help: 'Hot-position cache hits since start',
    registers: [registry],
    collect() {
      this.set(services.cache.hits);
    },
  });
  new Gauge({
    name: 'nardy_cache_misses_total',
    help: 'Hot-position cache misses since start',
    registers: [registry],
    collect() {
      this.set(services.cache.misses);
    },
  });
  new Gauge({
    name: 'nardy_cache_bypasses_total',
    help: 'Requests answered without the cache because its store was unavailable',
    registers: [registry],
    collect() {
      this.set(services.cache.bypasses);
    },
  });
  new Gauge({
    name: 'nardy_store_up',
    help: 'Whether the session store (Redis when configured) is connected: 1 or 0',
    registers: [registry],
    collect() {
      this.set(storeUp ? (storeUp() ? 1 : 0) : 1);
    },
  });
  analysisMetrics(services, registry);
  return { registry, requests, latency, movegen, evaluation };
}

/** The worker pool: depth of its queue, busy workers, time waited for a worker, and requests refused by reason. */
function analysisMetrics(services: Services, registry: Registry): void {
  const gauge = (name: string, help: string, read: () => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  };
  gauge('nardy_analysis_workers', 'Worker threads of the analysis pool (0: analysis runs in the request thread)', () => services.analysis.stats().workers);
  gauge('nardy_analysis_busy_workers', 'Analysis workers running a task now', () => services.analysis.stats().busy);
  gauge('nardy_analysis_queue_depth', 'Analysis tasks waiting for a worker', () => services.analysis.stats().queued);
  const waited = new Histogram({
    name: 'nardy_analysis_queue_wait_seconds',
    help: 'Time an analysis task waited for a worker',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
    registers: [registry],
  });
  const refused = new Counter({
    name: 'nardy_analysis_refused_total',
    help: 'Analysis requests refused, by reason: cost (ANALYSIS_TOO_COSTLY), rate (budget spent), busy (queue full), timeout (strict)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'nardy_analysis_jobs',
    help: 'Analysis jobs in the whole queue by state (waiting, running): scale job workers on waiting',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const counts = await services.jobQueue.counts().catch(() => null);
      if (!counts) return;
      this.set({ state: 'waiting' }, counts.waiting);
      this.set({ state: 'running' }, counts.running);
    },
  });
  services.analysis.observe({ waited: (seconds) => waited.observe(seconds), refused: (reason) => refused.inc({ reason }) });
}

/**
 * The route pattern of a request, for metric labels (never the raw path: ids
 * would explode the cardinality): the openapi.yaml template the request
 * matched (`/v1/games/{id}/{action}`, set by the request validation, so an
 * answer and a refusal of one route share it), else the express route of the
 * probes and documents.
 */
function routeOf(req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): string {
  const documented = (res.locals as { route?: unknown }).route;
  if (typeof documented === 'string') return documented;
  const route = (req as { route?: { path?: string } }).route?.path;
  if (route) return `${req.baseUrl}${route}`;
  if (req.path === '/graphql' || req.baseUrl === '/graphql') return '/graphql';
  return 'unmatched';
}

/**
 * The labelled children of the request metrics, found once per label set:
 * prom-client hashes the labels on every call otherwise, and these run on
 * every request.
 */
function requestMetrics(metrics: Metrics) {
  const counters = new Map<string, { inc(): void }>();
  const timers = new Map<string, { observe(seconds: number): void }>();
  return (method: string, route: string, status: number, seconds: number): void => {
    const key = `${method} ${route}`;
    let timer = timers.get(key);
    if (!timer) timers.set(key, (timer = metrics.latency.labels(method, route)));
    timer.observe(seconds);
    const statusKey = `${key} ${status}`;
    let counter = counters.get(statusKey);
    if (!counter) counters.set(statusKey, (counter = metrics.requests.labels(method, route, String(status))));
    counter.inc();
  };
}

/** Request id, access log and request metrics. */
export function observe(log: Logger, metrics: Metrics): RequestHandler {
  const record = requestMetrics(metrics);
  return (req, res, next) => {
    const given = req.get('x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const route = routeOf(req, res);
      record(req.method, route, res.statusCode, seconds);
      // 503 is the service refusing work it cannot take now (store away, queue full, draining): a warning.
      const level = res.statusCode === 503 ? 'warn' : res.statusCode >= 500 ? 'error' : 'info';
      if (!log.isLevelEnabled(level)) return;
      const fields = {
        requestId: id,
        method: req.method,
        route,
        path: req.path.slice(0, 200),
        status: res.statusCode,
        durationMs: Math.round(seconds * 1e5) / 100,
      };
      if (level === 'info') log.info(fields, 'request');
      else log[level](fields, 'request failed');
    });
    next();
  };
}
