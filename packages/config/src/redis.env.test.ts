import { ConfigError, loadEnv } from './load-env';
import { queueKeyPrefix, redisTarget } from './redis.env';
import { baseEnv } from './schemas';

const target = (env: Record<string, string>) => redisTarget(loadEnv(baseEnv, env));

describe('the Redis target', () => {
  it('is REDIS_URL as is when neither Sentinel nor Cluster is set', () => {
    expect(target({})).toEqual({ kind: 'standalone', url: 'redis://127.0.0.1:6379' });
    expect(target({ REDIS_SENTINELS: ' ', REDIS_CLUSTER_NODES: '' }).kind).toBe('standalone');
  });

  it('Sentinel: the sentinels, the master name (default mymaster), REDIS_URL for the data nodes', () => {
    expect(
      target({
        REDIS_SENTINELS: 's1:26379, 10.0.0.2:26380,[::1]:26381',
        REDIS_SENTINEL_PASSWORD: 'sp',
        REDIS_URL: 'rediss://app:p%40ss@ignored:6379/2',
      }),
    ).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      name: 'mymaster',
      sentinelPassword: 'sp',
      auth: { username: 'app', password: 'p@ss', db: 2, tls: true },
    });
    expect(target({ REDIS_SENTINELS: 's1:1', REDIS_SENTINEL_NAME: 'queues' })).toMatchObject({
      name: 'queues',
      auth: { db: 0, tls: false },
    });
  });

  it('Cluster: the seed nodes and REDIS_URL’s password; a database other than 0 is refused', () => {
    expect(target({ REDIS_CLUSTER_NODES: 'n1:7000,n2:7001', REDIS_URL: 'redis://:pw@x:1' })).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
      auth: { password: 'pw', db: 0, tls: false },
    });
    expect(() => target({ REDIS_CLUSTER_NODES: 'n1:7000', REDIS_URL: 'redis://x:1/3' })).toThrow(
      /database 0 only/,
    );
  });

  it('stops at both set, and at an entry that is not host:port (naming it by position)', () => {
    expect(() => target({ REDIS_SENTINELS: 's:1', REDIS_CLUSTER_NODES: 'n:2' })).toThrow(ConfigError);
    expect(() => target({ REDIS_SENTINELS: 's:1', REDIS_CLUSTER_NODES: 'n:2' })).toThrow(/not both/);
    expect(() => loadEnv(baseEnv, { REDIS_SENTINELS: 's:1,s2' })).toThrow(/REDIS_SENTINELS: entry 2/);
    expect(() => loadEnv(baseEnv, { REDIS_CLUSTER_NODES: 'n:99999' })).toThrow(
      /REDIS_CLUSTER_NODES: entry 1/,
    );
  });

  it('hash-tags the key prefix on a cluster only, and keeps a tag already there', () => {
    const cluster = target({ REDIS_CLUSTER_NODES: 'n:1' });
    expect(queueKeyPrefix(cluster, 'wcs')).toBe('{wcs}');
    expect(queueKeyPrefix(cluster, '{wcs}')).toBe('{wcs}');
    expect(queueKeyPrefix(cluster, 'a-{x}')).toBe('a-{x}');
    expect(queueKeyPrefix(target({ REDIS_SENTINELS: 's:1' }), 'wcs')).toBe('wcs');
    expect(queueKeyPrefix(target({}), 'wcs')).toBe('wcs');
  });
});
