import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, portOpen } from '../faults/private-redis';
import { waitFor } from '../faults/wait-for';
import { TMP_PREFIX } from './host-network';

const UP_WITHIN_MS = 60_000;

/** One redis-server (data node or sentinel) this run started; SIGKILL and start again at will. */
class RedisNode {
  private child: ChildProcess | null = null;

  constructor(
    readonly host: string,
    readonly port: number,
    private readonly args: string[],
  ) {}

  get address(): string {
    return `${this.host}:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', this.args, { stdio: 'ignore' });
    await waitFor(
      `redis ${this.address} listening`,
      async () => ((await portOpen(this.port, this.host)) ? true : undefined),
      UP_WITHIN_MS,
      50,
    );
  }

  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  /** A short-lived admin connection (never retried: the node may be the one just killed). */
  async command<T>(run: (r: Redis) => Promise<T>): Promise<T> {
    const r = new Redis({ host: this.host, port: this.port, lazyConnect: true, maxRetriesPerRequest: 0 });
    r.on('error', () => undefined);
    try {
      await r.connect();
      return await run(r);
    } finally {
      r.disconnect();
    }
  }
}

function dataArgs(host: string, port: number, extra: string[] = []): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    host,
    '--protected-mode',
    'no',
    '--save',
    '',
    '--appendonly',
    'no',
    ...extra,
  ];
}

export interface SentinelStores {
  /** The env the stack reaches Redis with (REDIS_URL gives only credentials and db then). */
  env: Record<string, string>;
  redisUrl: string;
  /** SENTINEL FAILOVER; resolves once every sentinel names the replica as the master. */
  failover(): Promise<{ from: string; to: string }>;
  stop(): Promise<void>;
}

/** A master, its replica and three sentinels (quorum 2) on the stores host, no persistence. */
export async function startSentinelStores(host: string): Promise<SentinelStores> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${TMP_PREFIX}sentinel-`));
  const nodes: RedisNode[] = [];
  try {
    const masterPort = await freePort();
    // Its own dir: a replica's full sync writes an RDB file there, even without persistence.
    const master = new RedisNode(
      host,
      masterPort,
      dataArgs(host, masterPort, ['--dir', dir, '--dbfilename', 'master.rdb']),
    );
    const replicaPort = await freePort();
    const replica = new RedisNode(
      host,
      replicaPort,
      dataArgs(host, replicaPort, [
        '--replicaof',
        host,
        String(master.port),
        '--dir',
        dir,
        '--dbfilename',
        'replica.rdb',
      ]),
    );
    nodes.push(master, replica);
    await master.start();
    await replica.start();
    const sentinels: RedisNode[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const conf = path.join(dir, `sentinel-${i}.conf`);
      // Sentinel rewrites its config file as it learns the topology: each needs its own, writable.
      writeFileSync(
        conf,
        [
          `port ${port}`,
          `bind ${host}`,
          'protected-mode no',
          `dir ${dir}`,
          `sentinel monitor mymaster ${host} ${master.port} 2`,
          'sentinel down-after-milliseconds mymaster 1000',
          'sentinel failover-timeout mymaster 5000',
          '',
        ].join('\n'),
      );
      const s = new RedisNode(host, port, [conf, '--sentinel']);
      sentinels.push(s);
      nodes.push(s);
      await s.start();
    }
    // A failover needs every sentinel to know the replica and the two other sentinels. A sentinel
    // still missing them halfway through the wait is told to discover them again (SENTINEL RESET);
    // a failure names what each one knew.
    const resetAt = Date.now() + UP_WITHIN_MS / 2;
    const reset = new Set<RedisNode>();
    await waitFor(
      'sentinels know the replica and each other',
      async () => {
        const missing: string[] = [];
        for (const s of sentinels) {
          const replicas = (await s.command((r) => r.call('SENTINEL', 'REPLICAS', 'mymaster'))) as unknown[];
          const peers = (await s.command((r) => r.call('SENTINEL', 'SENTINELS', 'mymaster'))) as unknown[];
          if (replicas.length >= 1 && peers.length >= 2) continue;
          missing.push(
            `${s.address}: ${replicas.length} replica(s), ${peers.length} peer(s)${reset.has(s) ? ', reset' : ''}`,
          );
          if (Date.now() >= resetAt && !reset.has(s)) {
            reset.add(s);
            await s.command((r) => r.call('SENTINEL', 'RESET', 'mymaster'));
          }
        }
        if (missing.length > 0) throw new Error(missing.join('; '));
        return true;
      },
      UP_WITHIN_MS,
      200,
    );
    const masterOf = async (s: RedisNode) => {
      const [h, p] = (await s.command((r) =>
        r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'mymaster'),
      )) as string[];
      return `${h}:${p}`;
    };
    return {
      redisUrl: `redis://${master.address}`,
      env: {
        REDIS_URL: `redis://${master.address}`,
        REDIS_SENTINELS: sentinels.map((s) => s.address).join(','),
        REDIS_SENTINEL_NAME: 'mymaster',
      },
      async failover() {
        const first = sentinels[0] as RedisNode;
        const from = await masterOf(first);
        await first.command((r) => r.call('SENTINEL', 'FAILOVER', 'mymaster'));
        const to = await waitFor(
          'every sentinel names the new master',
          async () => {
            const named = await Promise.all(sentinels.map(masterOf));
            return named.every((m) => m !== from && m === named[0]) ? named[0] : undefined;
          },
          UP_WITHIN_MS,
          100,
        );
        return { from, to: to ?? '' };
      },
      async stop() {
        await Promise.all(nodes.map((n) => n.kill()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await Promise.all(nodes.map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export interface ClusterStores {
  env: Record<string, string>;
  /** Seed nodes as `host:port` (what REDIS_CLUSTER_NODES lists). */
  nodes: Array<{ host: string; port: number }>;
  /**
   * SIGKILL the primary that owns `key`'s slot, wait until its replica has taken the slot over,
   * start it again and wait until it is back in the cluster (as a replica now).
   */
  restartPrimaryOf(key: string): Promise<{ killed: string; promoted: string }>;
  stop(): Promise<void>;
}

async function slotOwner(node: RedisNode, slot: number): Promise<string | undefined> {
  const shards = (await node.command((r) => r.call('CLUSTER', 'SLOTS'))) as Array<
    [number, number, [string, number]]
  >;
  const s = shards.find(([lo, hi]) => slot >= lo && slot <= hi);
  return s ? `${s[2][0]}:${s[2][1]}` : undefined;
}

async function clusterOk(node: RedisNode): Promise<boolean> {
  const info = String(await node.command((r) => r.call('CLUSTER', 'INFO')));
  return info.includes('cluster_state:ok');
}

/** Three primaries, a replica each, on the stores host (`redis-cli --cluster create`), no persistence. */
export async function startClusterStores(host: string): Promise<ClusterStores> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${TMP_PREFIX}cluster-`));
  const nodes: RedisNode[] = [];
  try {
    for (let i = 0; i < 6; i++) {
      const port = await freePort();
      nodes.push(
        new RedisNode(
          host,
          port,
          dataArgs(host, port, [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            path.join(dir, `nodes-${port}.conf`),
            '--cluster-node-timeout',
            '2000',
            '--dir',
            dir,
          ]),
        ),
      );
    }
    await Promise.all(nodes.map((n) => n.start()));
    await new Promise<void>((resolve, reject) => {
      const cli = spawn(
        'redis-cli',
        ['--cluster', 'create', ...nodes.map((n) => n.address), '--cluster-replicas', '1', '--cluster-yes'],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let err = '';
      cli.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
      });
      cli.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`cluster create: ${code} ${err}`)),
      );
    });
    await waitFor(
      'cluster state ok on every node',
      async () => ((await Promise.all(nodes.map(clusterOk))).every(Boolean) ? true : undefined),
      UP_WITHIN_MS,
      200,
    );
    // A replica that never synced may not take over (its data counts as too old): wait for the links.
    await waitFor(
      'every replica synced with its primary',
      async () => {
        const infos = await Promise.all(nodes.map((n) => n.command((r) => r.info('replication'))));
        const replicas = infos.filter((i) => i.includes('role:slave'));
        return replicas.length === 3 && replicas.every((i) => i.includes('master_link_status:up'))
          ? true
          : undefined;
      },
      UP_WITHIN_MS,
      200,
    );
    return {
      nodes: nodes.map((n) => ({ host: n.host, port: n.port })),
      env: {
        REDIS_URL: `redis://${host}:${(nodes[0] as RedisNode).port}`,
        REDIS_CLUSTER_NODES: nodes.map((n) => n.address).join(','),
      },
      async restartPrimaryOf(key) {
        const any = nodes[0] as RedisNode;
        const slot = Number(await any.command((r) => r.call('CLUSTER', 'KEYSLOT', key)));
        const owner = await slotOwner(any, slot);
        const primary = nodes.find((n) => n.address === owner);
        if (!primary) throw new Error(`no node owns slot ${slot} (${owner})`);
        const others = nodes.filter((n) => n !== primary);
        await primary.kill();
        const promoted = await waitFor(
          `a replica takes slot ${slot} over`,
          async () => {
            const o = await slotOwner(others[0] as RedisNode, slot);
            return o && o !== primary.address && (await clusterOk(others[0] as RedisNode)) ? o : undefined;
          },
          UP_WITHIN_MS,
          100,
        );
        await primary.start();
        await waitFor(
          'the restarted node is back in the cluster',
          async () => ((await clusterOk(primary)) ? true : undefined),
          UP_WITHIN_MS,
          200,
        );
        return { killed: primary.address, promoted };
      },
      async stop() {
        await Promise.all(nodes.map((n) => n.kill()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await Promise.all(nodes.map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
