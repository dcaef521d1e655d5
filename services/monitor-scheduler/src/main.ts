import { createLogger } from '@wcs/logger';
import { createRedisConnection } from '@wcs/queues';
import { ShutdownManager } from '@wcs/runtime';
import { loadServiceEnv } from './env';

/**
 * monitor-scheduler: owns the queues (monitor-check). Issue #5 fills in its processors; until then the process
 * starts, checks its Redis connection and shuts down cleanly like every other service.
 */
async function main(): Promise<void> {
  const env = loadServiceEnv();
  const logger = createLogger({ service: 'monitor-scheduler', level: env.LOG_LEVEL });
  const shutdown = new ShutdownManager(logger);
  shutdown.installSignalHandlers();
  const redis = createRedisConnection(env.REDIS_URL, 'worker');
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  shutdown.add('redis', () => redis.quit());
  await redis.ping();
  // Keep the event loop alive until a signal arrives.
  const keepAlive = setInterval(() => undefined, 60_000);
  shutdown.add('keep-alive', () => clearInterval(keepAlive));
  logger.info('started (no processors yet: see issue #5)');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
