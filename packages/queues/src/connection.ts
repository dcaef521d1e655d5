import { queueKeyPrefix, type RedisDataNodeAuth, type RedisTarget } from '@wcs/config';
import IORedis, { Cluster, type ClusterOptions, type Redis, type RedisOptions } from 'ioredis';

/**
 * BullMQ's production guide: workers wait forever for Redis (maxRetriesPerRequest: null) so a
 * Redis restart pauses them instead of failing jobs; producers (the gateway) fail fast so an HTTP
 * request gets a 503 instead of hanging.
 */
export type ConnectionRole = 'producer' | 'worker';

/** A connection to the queues' Redis: one server (alone or found through Sentinel) or a cluster. */
export type RedisClient = Redis | Cluster;

/** A parsed target (`redisTarget` of @wcs/config), or a bare URL: a single server. */
export type RedisTargetInput = RedisTarget | string;

export function targetOf(input: RedisTargetInput): RedisTarget {
  return typeof input === 'string' ? { kind: 'standalone', url: input } : input;
}

/** QUEUE_PREFIX as the keys on this target carry it (hash-tagged on a cluster; idempotent). */
export function keyPrefixOn(input: RedisTargetInput, prefix: string): string {
  return queueKeyPrefix(targetOf(input), prefix);
}

/** Reconnect with capped backoff; never give up (a restarted or failed-over Redis must be found again). */
const reconnectDelay = (times: number) => Math.min(times * 200, 3_000);

function roleOptions(role: ConnectionRole): RedisOptions {
  return role === 'worker'
    ? { maxRetriesPerRequest: null, enableReadyCheck: true }
    : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5_000 };
}

function authOptions(auth: RedisDataNodeAuth): RedisOptions {
  return {
    ...(auth.username ? { username: auth.username } : {}),
    ...(auth.password ? { password: auth.password } : {}),
    ...(auth.tls ? { tls: {} } : {}),
  };
}

/** A bare URL is one server: a plain `Redis` (scripts and tests use its server commands). */
export function createRedisConnection(target: string, role: ConnectionRole, extra?: RedisOptions): Redis;
export function createRedisConnection(
  target: RedisTargetInput,
  role: ConnectionRole,
  extra?: RedisOptions,
): RedisClient;
export function createRedisConnection(
  target: RedisTargetInput,
  role: ConnectionRole,
  extra: RedisOptions = {},
): RedisClient {
  const t = targetOf(target);
  const base = roleOptions(role);
  if (t.kind === 'standalone')
    return new IORedis(t.url, { ...base, retryStrategy: reconnectDelay, lazyConnect: false, ...extra });
  if (t.kind === 'sentinel')
    return new IORedis({
      ...base,
      ...authOptions(t.auth),
      db: t.auth.db,
      sentinels: t.sentinels,
      name: t.name,
      ...(t.sentinelPassword ? { sentinelPassword: t.sentinelPassword } : {}),
      // No failoverDetector: it drops the connection on every +switch-master any sentinel
      // publishes, and each sentinel publishes one as it learns the new master (three drops in a
      // few seconds, each failing a producer's commands). Sentinel kills the clients of the
      // master it demotes (CLIENT KILL TYPE normal) and a dead master's sockets error out: either
      // way the connection asks the sentinels again and resends what was unanswered.
      retryStrategy: reconnectDelay,
      sentinelRetryStrategy: reconnectDelay,
      lazyConnect: false,
      ...extra,
    });
  const { enableOfflineQueue, ...nodeOptions } = base;
  const options: ClusterOptions = {
    redisOptions: { ...nodeOptions, ...authOptions(t.auth), ...extra },
    ...(enableOfflineQueue === false ? { enableOfflineQueue: false } : {}),
    enableReadyCheck: true,
    clusterRetryStrategy: reconnectDelay,
    // A failed-over primary answers CLUSTERDOWN / TRYAGAIN for a moment: retry within the redirection budget.
    retryDelayOnClusterDown: 300,
    retryDelayOnFailover: 200,
    retryDelayOnTryAgain: 200,
    lazyConnect: false,
  };
  return new Cluster(t.nodes, options);
}
