import { z } from 'zod';
import { ConfigError } from './load-env';

/** One `host:port` of REDIS_SENTINELS or REDIS_CLUSTER_NODES. */
export interface RedisNodeAddress {
  host: string;
  port: number;
}

/**
 * Credentials, database and TLS of the data nodes, as REDIS_URL gives them. Behind Sentinel or a
 * cluster REDIS_URL's host is not used: the data nodes are the ones Sentinel or the cluster names.
 */
export interface RedisDataNodeAuth {
  username?: string;
  password?: string;
  db: number;
  tls: boolean;
}

/**
 * Where the queues' Redis is, parsed once from the environment (`redisTarget`) and handed to
 * every connection: a single server (REDIS_URL as is), a master found through Sentinel, or a
 * Redis Cluster.
 */
export type RedisTarget =
  | { kind: 'standalone'; url: string }
  | {
      kind: 'sentinel';
      sentinels: RedisNodeAddress[];
      name: string;
      sentinelPassword?: string;
      auth: RedisDataNodeAuth;
    }
  | { kind: 'cluster'; nodes: RedisNodeAddress[]; auth: RedisDataNodeAuth };

const NODE = /^(?:\[([0-9a-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/i;

/** `host:port,host:port` (blank = none); a bad entry is named with its position. */
const nodeList = (what: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): RedisNodeAddress[] => {
      const entries = (raw ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      const nodes: RedisNodeAddress[] = [];
      entries.forEach((entry, i) => {
        const m = NODE.exec(entry);
        const port = Number(m?.[3]);
        if (!m || port < 1 || port > 65_535) {
          ctx.addIssue({ code: 'custom', message: `entry ${i + 1} is not host:port (${what})` });
          return;
        }
        nodes.push({ host: (m[1] ?? m[2]) as string, port });
      });
      return nodes;
    });

/** The Redis variables of `baseEnv` beyond REDIS_URL. */
export const redisHaEnv = z.object({
  REDIS_SENTINELS: nodeList('a Sentinel').describe(
    'Sentinels as `host:port,host:port`; the queues then use the master Sentinel names (REDIS_URL gives only its password, db and TLS)',
  ),
  REDIS_SENTINEL_NAME: z
    .string()
    .min(1)
    .default('mymaster')
    .describe('The master name Sentinel monitors (with REDIS_SENTINELS)'),
  REDIS_SENTINEL_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .describe('Password of the Sentinels themselves (with REDIS_SENTINELS; the data nodes use REDIS_URL’s)'),
  REDIS_CLUSTER_NODES: nodeList('a cluster node').describe(
    'Redis Cluster seed nodes as `host:port,…`; queue keys then carry a hash tag (`{QUEUE_PREFIX}`); REDIS_URL gives only the password and TLS',
  ),
});

export type RedisEnv = z.infer<typeof redisHaEnv> & { REDIS_URL: string };

function dataNodeAuth(url: string): RedisDataNodeAuth {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_URL: is not a URL (redis://[user:password@]host:port[/db])',
    );
  }
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0)
    throw new ConfigError('Invalid configuration:\n  REDIS_URL: the path must be a database number');
  return {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    db,
    tls: u.protocol === 'rediss:',
  };
}

/**
 * The process's Redis target. Sentinel and Cluster are two ways to one keyspace; both set is a
 * mistake to stop at (which one was meant cannot be guessed).
 */
export function redisTarget(env: RedisEnv): RedisTarget {
  const sentinels = env.REDIS_SENTINELS;
  const nodes = env.REDIS_CLUSTER_NODES;
  if (sentinels.length > 0 && nodes.length > 0)
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_SENTINELS, REDIS_CLUSTER_NODES: set one of them (Sentinel or Cluster), not both',
    );
  if (sentinels.length > 0)
    return {
      kind: 'sentinel',
      sentinels,
      name: env.REDIS_SENTINEL_NAME,
      ...(env.REDIS_SENTINEL_PASSWORD ? { sentinelPassword: env.REDIS_SENTINEL_PASSWORD } : {}),
      auth: dataNodeAuth(env.REDIS_URL),
    };
  if (nodes.length > 0) {
    const auth = dataNodeAuth(env.REDIS_URL);
    // A cluster has database 0 only; a REDIS_URL naming another would silently be ignored.
    if (auth.db !== 0)
      throw new ConfigError(
        'Invalid configuration:\n  REDIS_URL: a Redis Cluster has database 0 only (with REDIS_CLUSTER_NODES)',
      );
    return { kind: 'cluster', nodes, auth };
  }
  return { kind: 'standalone', url: env.REDIS_URL };
}

/**
 * The key prefix every Redis user of the process shares. On a cluster it is a hash tag
 * (`{wcs}`) so that each multi-key operation (BullMQ's scripts, the crawl politeness script, a
 * MULTI) lands in one slot; a prefix that has a tag already is kept. A single server and Sentinel
 * keep the plain prefix, so the keys of an existing deployment (its queued jobs, the KEDA
 * triggers' lists) stay where they are.
 */
export function queueKeyPrefix(target: RedisTarget, prefix: string): string {
  if (target.kind !== 'cluster' || /\{[^}]+\}/.test(prefix)) return prefix;
  return `{${prefix}}`;
}
