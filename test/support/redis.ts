import { randomBytes } from 'crypto';
import Redis from 'ioredis';
import { createRedisClient, whenReady } from '../../src/service/store/redis';

/**
 * The Redis the tests use: $REDIS_TEST_URL or redis://127.0.0.1:6379 (CI
 * makes sure one answers there). Each call gets its own key prefix so runs
 * never see each other's keys.
 */
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

export async function testRedis(): Promise<{ client: Redis; prefix: string }> {
  const client = createRedisClient(REDIS_TEST_URL);
  try {
    await whenReady(client, 3000);
    await client.ping();
  } catch (e) {
    client.disconnect();
    throw new Error(`Redis does not answer at ${REDIS_TEST_URL} (start redis-server, or set REDIS_TEST_URL): ${String(e)}`);
  }
  return { client, prefix: `test-${randomBytes(6).toString('hex')}` };
}
