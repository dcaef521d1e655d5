import IORedis, { type Redis, type RedisOptions } from 'ioredis';

/**
 * BullMQ's production guide: workers wait forever for Redis (maxRetriesPerRequest: null) so a
 * Redis restart pauses them instead of failing jobs; producers (the gateway) fail fast so an HTTP
 * request gets a 503 instead of hanging.
 */
export type ConnectionRole = 'producer' | 'worker';

export function createRedisConnection(url: string, role: ConnectionRole, extra: RedisOptions = {}): Redis {
  const base: RedisOptions =
    role === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5_000 };
  return new IORedis(url, {
    ...base,
    // Reconnect with capped backoff; never give up (a restarted Redis must be picked up again).
    retryStrategy: (times) => Math.min(times * 200, 3_000),
    lazyConnect: false,
    ...extra,
  });
}
