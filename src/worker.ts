import { createServer } from 'http';
import { configOrExit, connectRedis, servicesFrom } from './app';
import { createLogger } from './http/observability';

/**
 * `npm run worker`: a process that only works the analysis job queue on
 * Redis (whole-match analyses, long rollouts), with its own pool of
 * analysis threads. Run as many as the queue needs, on any machine that
 * reaches the Redis (deploy/k8s/worker-deployment.yaml). It answers
 * `GET /health` and `GET /ready` on WORKER_PORT for probes.
 *
 * On SIGTERM it stops taking jobs and exits; a job it was running is taken
 * up by another worker once its lock lapses (JOB_LOCK_SECONDS).
 */
async function main(): Promise<void> {
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  const redis = connectRedis(config);
  if (!redis) {
    process.stderr.write('npm run worker needs REDIS_URL or REDIS_CLUSTER_NODES: without Redis, the API process works its own queue\n');
    process.exit(2);
  }
  const services = await servicesFrom(config, redis, log, true);
  let stopping = false;
  const probes = createServer((req, res) => {
    const ready = !stopping && redis.status === 'ready';
    const status = req.url === '/health' ? 200 : req.url === '/ready' ? (ready ? 200 : 503) : 404;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: status === 200 ? 'ok' : 'not ready', analysis: services.analysis.stats() }));
  });
  probes.listen(config.workerPort, config.host, () => {
    const address = probes.address();
    log.info({ port: typeof address === 'object' && address ? address.port : config.workerPort, concurrency: config.jobConcurrency }, 'worker listening for jobs');
  });
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker stopping');
    setTimeout(() => process.exit(1), config.shutdownTimeoutSeconds * 1000).unref();
    void services.jobQueue
      .close()
      .then(() => services.analysis.close())
      .then(() => redis.quit())
      .catch(() => undefined)
      .finally(() => {
        probes.close();
        log.info('worker stopped');
        process.exit(0);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
