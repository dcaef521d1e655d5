/**
 * Real Redis topologies for tests, from the installed `redis-server`: a Sentinel set (a master, a
 * replica, three sentinels) and a Redis Cluster (three primaries, each with a replica), on
 * loopback ports from `basePort` up, in a temporary directory, without persistence. Each is
 * started once per test file and stopped at its end.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { pollUntil } from './harness';

const run = promisify(execFile);

/** How long a topology gets to form (elections, replica syncs): a ceiling for a stuck setup. */
const FORM_TIMEOUT_MS = 60_000;
/** A set left by a failover re-forms within this (sentinels poll their nodes every 10 s). */
const SETTLE_TIMEOUT_MS = 120_000;
/** One asked failover's wait for the switch: past the sentinels' failover-timeout (10 s) and its abort. */
const FAILOVER_WAIT_MS = 20_000;
/** How long the sentinels get to reconfigure a demoted master before the harness does it. */
const NUDGE_AFTER_MS = 30_000;

interface Child {
  port: number;
  args: string[];
  proc: ChildProcess | null;
}

function startChild(port: number, args: string[]): Child {
  const child: Child = { port, args, proc: null };
  child.proc = spawn('redis-server', args, { stdio: 'ignore' });
  return child;
}

async function stopChild(child: Child): Promise<void> {
  const proc = child.proc;
  child.proc = null;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

/** A one-off admin connection (no retries: a closed port is an answer, not something to wait for). */
async function ask<T>(port: number, fn: (r: Redis) => Promise<T>): Promise<T> {
  const r = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    return await fn(r);
  } finally {
    r.disconnect();
  }
}

function infoField(info: string, field: string): string | undefined {
  return new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim();
}

/** A port someone else listens on would make the topology wait for a server that is not ours. */
async function assertFree(ports: number[]): Promise<void> {
  for (const port of ports) {
    const taken = await ask(port, (r) => r.ping()).then(
      () => true,
      () => false,
    );
    if (taken) throw new Error(`port ${port} is in use: a Redis of an earlier run left behind?`);
  }
}

const baseArgs = (port: number, dir: string) => [
  '--port',
  String(port),
  '--bind',
  '127.0.0.1',
  '--dir',
  dir,
  '--save',
  '',
  '--appendonly',
  'no',
];

export interface SentinelSet {
  name: string;
  sentinels: Array<{ host: string; port: number }>;
  /** REDIS_SENTINELS as the services read it. */
  sentinelsEnv: string;
  /** The port of the master the sentinels name now. */
  masterPort(): Promise<number>;
  /**
   * Resolves once the replica follows the master in sync and every sentinel lists it (after a
   * failover the demoted master becomes a replica only when a sentinel reconfigures it).
   */
  settled(): Promise<{ from: number; to: number }>;
  /**
   * A planned failover, as an operator runs one: writes paused on the master until its replica
   * has every write, then `SENTINEL FAILOVER`; resolves once the sentinels name the new master.
   * Returns the old and the new master's ports.
   */
  failover(): Promise<{ from: number; to: number }>;
  /**
   * An unplanned failover: the master SIGKILLed, the sentinels promote the replica on their own;
   * then the old master is started again (empty) and rejoins as a replica.
   */
  killMaster(): Promise<{ from: number; to: number }>;
  stop(): Promise<void>;
}

/** Master on `basePort`, replica on +1, sentinels on +2..+4. */
export async function startSentinelSet(basePort: number, name = 'mymaster'): Promise<SentinelSet> {
  await assertFree([0, 1, 2, 3, 4].map((i) => basePort + i));
  const dir = mkdtempSync(path.join(tmpdir(), 'wcs-sentinel-'));
  const children: Child[] = [];
  const masterPort = basePort;
  const replicaPort = basePort + 1;
  children.push(startChild(masterPort, baseArgs(masterPort, dir)));
  children.push(
    startChild(replicaPort, [...baseArgs(replicaPort, dir), '--replicaof', '127.0.0.1', String(masterPort)]),
  );
  const sentinelPorts = [basePort + 2, basePort + 3, basePort + 4];
  for (const port of sentinelPorts) {
    // A sentinel rewrites its own config file: each gets one of its own.
    const conf = path.join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${name} 127.0.0.1 ${masterPort} 2`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 10000`,
        `sentinel parallel-syncs ${name} 1`,
        '',
      ].join('\n'),
    );
    children.push(startChild(port, [conf, '--sentinel']));
  }
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pollUntil(async () => {
      const info = await ask(replicaPort, (r) => r.info('replication'));
      return infoField(info, 'master_link_status') === 'up' ? true : undefined;
    }, FORM_TIMEOUT_MS);
    // Every sentinel knows the replica and the two other sentinels (a failover needs both).
    for (const port of sentinelPorts)
      await pollUntil(async () => {
        const replicas = (await ask(port, (r) => r.call('SENTINEL', 'REPLICAS', name))) as unknown[];
        const peers = (await ask(port, (r) => r.call('SENTINEL', 'SENTINELS', name))) as unknown[];
        return replicas.length === 1 && peers.length === 2 ? true : undefined;
      }, FORM_TIMEOUT_MS);
  } catch (err) {
    await stop();
    throw err;
  }
  const masterPortNow = async () => {
    const addr = (await ask(sentinelPorts[0] as number, (r) =>
      r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name),
    )) as [string, string];
    return Number(addr[1]);
  };
  /** The replica follows the master in sync and every sentinel lists it: a failover can start. */
  const settled = async () => {
    const from = await masterPortNow();
    const to = from === masterPort ? replicaPort : masterPort;
    // After an earlier failover the demoted master becomes a replica only when a sentinel
    // reconfigures it: wait until it follows `from`, in sync, and the sentinels list it. Each
    // unmet condition is thrown, so a set that never settles says which one it was stuck on.
    const nudgeAt = Date.now() + NUDGE_AFTER_MS;
    let nudged = false;
    await pollUntil(
      async () => {
        const info = await ask(to, (r) => r.info('replication'));
        if (infoField(info, 'master_port') !== String(from)) {
          // A sentinel that has not reconfigured the demoted master by now is asked to do what it
          // would: follow the current master (the set is being prepared here, not tested).
          if (!nudged && Date.now() > nudgeAt) {
            nudged = true;
            await ask(to, (r) => r.call('REPLICAOF', '127.0.0.1', String(from)));
          }
          throw new Error(`${to} follows ${infoField(info, 'master_port') ?? 'nothing'}, not ${from}`);
        }
        if (infoField(info, 'master_link_status') !== 'up')
          throw new Error(`${to}'s link to ${from} is ${infoField(info, 'master_link_status')}`);
        for (const port of sentinelPorts) {
          const replicas = (await ask(port, (r) => r.call('SENTINEL', 'REPLICAS', name))) as string[][];
          const flags = replicas.flatMap((fields) => {
            const f = new Map<string, string>();
            for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i] ?? '', fields[i + 1] ?? '');
            return f.get('port') === String(to) ? [f.get('flags') ?? ''] : [];
          });
          if (!flags.includes('slave'))
            throw new Error(`sentinel ${port} lists ${to} as ${flags.join(' / ') || 'nothing'}`);
        }
        return true;
      },
      SETTLE_TIMEOUT_MS,
      50,
    );
    return { from, to };
  };
  return {
    name,
    sentinels: sentinelPorts.map((port) => ({ host: '127.0.0.1', port })),
    sentinelsEnv: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
    masterPort: masterPortNow,
    settled,
    async failover() {
      const { from, to } = await settled();
      // A sentinel can abort a failover it started (its promotion not seen within
      // failover-timeout, seen once in CI on a loaded machine): then the master never changes, and
      // the failover is asked again of the next sentinel, writes paused and the replica caught up
      // anew, as an operator would. Each attempt waits past the failover-timeout.
      const failures: string[] = [];
      for (const sentinel of sentinelPorts) {
        // Long enough to cover the switch; the demoted master's paused clients are moved by then.
        await ask(from, (r) => r.call('CLIENT', 'PAUSE', '10000', 'WRITE'));
        const offset = Number(infoField(await ask(from, (r) => r.info('replication')), 'master_repl_offset'));
        await pollUntil(
          async () => {
            const info = await ask(to, (r) => r.info('replication'));
            return Number(infoField(info, 'slave_repl_offset')) >= offset ? true : undefined;
          },
          FORM_TIMEOUT_MS,
          20,
        );
        try {
          await ask(sentinel, (r) => r.call('SENTINEL', 'FAILOVER', name));
          await pollUntil(
            async () => ((await masterPortNow()) === to ? true : undefined),
            FAILOVER_WAIT_MS,
            50,
          );
          // The old master lifts its pause once it follows the new one (its clients get redirected).
          await ask(from, (r) => r.call('CLIENT', 'UNPAUSE')).catch(() => undefined);
          return { from, to };
        } catch (err) {
          failures.push(`sentinel ${sentinel}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      throw new Error(`no sentinel failed ${from} over to ${to}: ${failures.join('; ')}`);
    },
    async killMaster() {
      const { from, to } = await settled();
      const child = children.find((c) => c.port === from);
      if (!child) throw new Error(`no server on ${from}`);
      await stopChild(child);
      // Sentinels see it down (down-after-milliseconds), agree (quorum 2), elect, promote.
      await pollUntil(async () => ((await masterPortNow()) === to ? true : undefined), FORM_TIMEOUT_MS, 50);
      // Back empty (no persistence); the sentinels make it a replica of the new master.
      const again = startChild(from, child.args);
      children.splice(children.indexOf(child), 1, again);
      return { from, to };
    },
    stop,
  };
}

export interface ClusterSet {
  nodes: Array<{ host: string; port: number }>;
  /** REDIS_CLUSTER_NODES as the services read it. */
  nodesEnv: string;
  /** The port of the primary serving `key`'s slot now. */
  primaryOf(key: string): Promise<number>;
  /**
   * A manual failover of the primary serving `key` (`CLUSTER FAILOVER` on its replica: the
   * primary stops writes until the replica has them all); resolves once every node agrees on the
   * new primary. Returns the old and the new primary's ports.
   */
  failover(key: string): Promise<{ from: number; to: number }>;
  /**
   * An unplanned failover: the primary serving `key` SIGKILLed, its replica elected by the
   * cluster; then the killed node started again (empty), rejoining as a replica.
   */
  killPrimary(key: string): Promise<{ from: number; to: number }>;
  /** Kill a node and start it again (same port and node file): it rejoins as it was configured. */
  restart(port: number): Promise<void>;
  stop(): Promise<void>;
}

interface NodeLine {
  id: string;
  port: number;
  primary: boolean;
  primaryId: string;
  slots: Array<[number, number]>;
}

function parseNodes(text: string): NodeLine[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const f = line.split(' ');
      const port = Number(/:(\d+)@/.exec(f[1] ?? '')?.[1]);
      const slots = f.slice(8).flatMap((s): Array<[number, number]> => {
        if (s.startsWith('[')) return [];
        const [a, b] = s.split('-').map(Number);
        return [[a as number, b ?? (a as number)]];
      });
      return {
        id: f[0] ?? '',
        port,
        primary: (f[2] ?? '').includes('master'),
        primaryId: f[3] ?? '-',
        slots,
      };
    });
}

/** Six nodes on `basePort`..+5 (bus ports +10000): three primaries with a replica each. */
export async function startCluster(basePort: number): Promise<ClusterSet> {
  const ports = [0, 1, 2, 3, 4, 5].map((i) => basePort + i);
  await assertFree(ports);
  const dir = mkdtempSync(path.join(tmpdir(), 'wcs-cluster-'));
  const children = new Map<number, Child>();
  const argsOf = (port: number) => {
    const nodeDir = path.join(dir, String(port));
    mkdirSync(nodeDir, { recursive: true });
    return [
      ...baseArgs(port, nodeDir),
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      '--cluster-node-timeout',
      '1000',
      // A replica that saw no write for a while still stands for election (the tests' replicas
      // are idle between bursts); the tests wait for its link to be up before killing a primary.
      '--cluster-replica-validity-factor',
      '0',
    ];
  };
  for (const port of ports) children.set(port, startChild(port, argsOf(port)));
  const stop = async () => {
    await Promise.all([...children.values()].map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  const allOk = () =>
    pollUntil(async () => {
      for (const port of ports) {
        const info = (await ask(port, (r) => r.call('CLUSTER', 'INFO'))) as string;
        if (infoField(info, 'cluster_state') !== 'ok') return undefined;
      }
      return true;
    }, FORM_TIMEOUT_MS);
  try {
    for (const port of ports) await pollUntil(() => ask(port, (r) => r.ping()), FORM_TIMEOUT_MS, 50);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await allOk();
  } catch (err) {
    await stop();
    throw err;
  }
  const nodesNow = async (port = ports[0] as number) =>
    parseNodes((await ask(port, (r) => r.call('CLUSTER', 'NODES'))) as string);
  const primaryOf = async (key: string) => {
    const slot = Number(await ask(ports[0] as number, (r) => r.call('CLUSTER', 'KEYSLOT', key)));
    const owner = (await nodesNow()).find(
      (n) => n.primary && n.slots.some(([a, b]) => slot >= a && slot <= b),
    );
    if (!owner) throw new Error(`no primary serves slot ${slot}`);
    return owner.port;
  };
  return {
    nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
    nodesEnv: ports.map((p) => `127.0.0.1:${p}`).join(','),
    primaryOf,
    async failover(key) {
      const from = await primaryOf(key);
      const nodes = await nodesNow();
      const primaryId = nodes.find((n) => n.port === from)?.id;
      const replica = nodes.find((n) => !n.primary && n.primaryId === primaryId);
      if (!replica) throw new Error(`primary ${from} has no replica`);
      await ask(replica.port, (r) => r.call('CLUSTER', 'FAILOVER'));
      // Every node has to route the slot to the new primary before clients can count on it.
      await pollUntil(
        async () => {
          for (const port of ports) {
            const view = await nodesNow(port);
            if (!view.some((n) => n.port === replica.port && n.primary)) return undefined;
          }
          return true;
        },
        FORM_TIMEOUT_MS,
        50,
      );
      await allOk();
      return { from, to: replica.port };
    },
    async killPrimary(key) {
      const from = await primaryOf(key);
      const nodes = await nodesNow();
      const primaryId = nodes.find((n) => n.port === from)?.id;
      const replica = nodes.find((n) => !n.primary && n.primaryId === primaryId);
      if (!replica) throw new Error(`primary ${from} has no replica`);
      await pollUntil(
        async () => {
          const info = await ask(replica.port, (r) => r.info('replication'));
          return infoField(info, 'master_link_status') === 'up' ? true : undefined;
        },
        FORM_TIMEOUT_MS,
        50,
      );
      const child = children.get(from);
      if (!child) throw new Error(`no node on ${from}`);
      await stopChild(child);
      // The replica is elected once the others see the primary fail (cluster-node-timeout).
      const survivors = ports.filter((p) => p !== from);
      await pollUntil(
        async () => {
          for (const port of survivors) {
            const view = await nodesNow(port);
            if (!view.some((n) => n.port === replica.port && n.primary)) return undefined;
          }
          return true;
        },
        FORM_TIMEOUT_MS,
        50,
      );
      // Back empty (no persistence) with its node file: the cluster makes it a replica.
      children.set(from, startChild(from, child.args));
      await pollUntil(() => ask(from, (r) => r.ping()), FORM_TIMEOUT_MS, 50);
      await allOk();
      return { from, to: replica.port };
    },
    async restart(port) {
      const child = children.get(port);
      if (!child) throw new Error(`no node on ${port}`);
      await stopChild(child);
      children.set(port, startChild(port, child.args));
      await pollUntil(() => ask(port, (r) => r.ping()), FORM_TIMEOUT_MS, 50);
      await allOk();
    },
    stop,
  };
}
