import { createServer } from 'http';
import { Server as NetServer } from 'net';
import { configOrExit, connectRedis, servicesFrom } from './app';
import { attachSubscriptions } from './graphql/subscriptions';
import { createApp } from './http/app';
import { createLogger } from './http/observability';
import { transportSettings } from './http/settings';
import { warmUp } from './http/warm-up';

/** The longest a warm-up may take: within the startup probe's 30 s (deploy/k8s). */
const WARM_UP_BUDGET_MS = 20_000;

/** Starts the service: `npm start`. Configuration comes from the environment (README). */
async function main(): Promise<void> {
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  const redis = connectRedis(config);
  const services = await servicesFrom(config, redis, log, config.jobWorker);
  const app = await createApp({
    services,
    redis,
    log,
    ...transportSettings(config),
    validateResponses: false,
    awaitWarmUp: config.warmUpRounds > 0,
  });
  const server = createServer(app.app);
  attachSubscriptions(server, app);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log.info({ host: config.host, port }, 'listening');
    if (config.warmUpRounds === 0) return;
    // Ready only once warm; a warm-up that fails or runs out of time still ends in ready (cold beats never).
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    void warmUp(`http://${host.includes(':') ? `[${host}]` : host}:${port}`, config.warmUpRounds, WARM_UP_BUDGET_MS)
      .then((outcome) => log.info(outcome, 'warmed up'))
      .catch((e: unknown) => log.warn({ err: String(e) }, 'warm-up failed; serving cold'))
      .finally(() => app.warmedUp());
  });

  /*
   * Graceful shutdown that loses no request: /ready fails at once and every
   * answer from now on closes its connection, but the listener keeps
   * accepting and serving for SHUTDOWN_DELAY_SECONDS — the time a load
   * balancer (Kubernetes' endpoint removal) takes to stop sending new
   * connections; closing it earlier would reset the connections still in
   * the kernel's accept backlog. Then the listener stops taking new
   * connections, but connections already open are not cut (a request may be
   * on its way on an idle keep-alive connection): each closes after its next
   * answer or when idle past the keep-alive timeout. When the last one has
   * closed, accepted analyses are already answered; the pool stops, Redis
   * quits, the process exits — or it exits anyway SHUTDOWN_TIMEOUT_SECONDS
   * after the listener closed.
   */
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, delaySeconds: config.shutdownDelaySeconds }, 'shutting down: not ready, still serving');
    app.drain();
    setTimeout(() => {
      log.info('closing the listener');
      // net.Server's close: stop listening only (http.Server's also drops idle keep-alive connections).
      NetServer.prototype.close.call(server, () => {
        void app
          .close()
          .then(() => redis?.quit())
          .catch(() => undefined)
          .finally(() => {
            log.info('stopped');
            process.exit(0);
          });
      });
      setTimeout(() => {
        log.error('in-flight requests did not finish in time; exiting');
        process.exit(1);
      }, config.shutdownTimeoutSeconds * 1000).unref();
    }, config.shutdownDelaySeconds * 1000);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
