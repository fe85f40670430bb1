import { createServer } from 'http';
import { createApp } from './http/app';

/** Starts the service: `npm start`. Configuration comes from the environment (README). */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`PORT must be an integer 0..65535, got "${process.env.PORT}"\n`);
    process.exit(2);
  }
  const host = process.env.HOST ?? '0.0.0.0';
  const { app, close } = await createApp();
  const server = createServer(app);
  server.listen(port, host, () => {
    process.stdout.write(`${JSON.stringify({ level: 'info', message: 'listening', host, port })}\n`);
  });
  const shutdown = () => {
    server.close(() => {
      void close().then(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

void main();
