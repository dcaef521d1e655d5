import type { Redis } from 'ioredis';
import { createRedisConnection } from './connection';

/**
 * For services whose processors have not landed yet: hold a worker-style Redis connection (so
 * the process fails visibly when Redis is unreachable) and keep the process alive until closed.
 */
export async function startIdleService(
  redisUrl: string,
  onError: (err: Error) => void,
): Promise<{ close(): Promise<void> }> {
  const redis: Redis = createRedisConnection(redisUrl, 'worker');
  redis.on('error', onError);
  await redis.ping();
  const keepAlive = setInterval(() => undefined, 60_000);
  return {
    async close() {
      clearInterval(keepAlive);
      await redis.quit();
    },
  };
}
