import { execFile } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Every namespace this harness creates starts with this; leftovers of a killed run are found by it. */
export const NETNS_PREFIX = 'wcsh-';
/** The namespace holding the bridge every host's link is plugged into. */
const BRIDGE_NS = `${NETNS_PREFIX}br`;
const SUBNET = '10.231.1';
/** Every host address the harness hands out is in here (PostgreSQL lets this range in). */
export const HOSTS_CIDR = `${SUBNET}.0/24`;
/** Data directories (PostgreSQL, Redis) of a run are `<tmp>/wcsh-…`: a killed run's are removed by the next. */
export const TMP_PREFIX = 'wcsh-';

export interface NetHost {
  /** Short name: `stores`, `gw`, `w1`, `w2`. */
  name: string;
  netns: string;
  address: string;
  /** The bridge's end of this host's link (cut it to take the host off the network). */
  port: string;
}

function host(name: string, octet: number): NetHost {
  return { name, netns: `${NETNS_PREFIX}${name}`, address: `${SUBNET}.${octet}`, port: `p-${name}` };
}

/** The stores (Redis, PostgreSQL, the site, the harness itself), the gateway and two worker hosts. */
export const NET_HOSTS = {
  stores: host('stores', 1),
  gw: host('gw', 2),
  w1: host('w1', 11),
  w2: host('w2', 12),
} as const;

async function ip(...args: string[]): Promise<string> {
  const { stdout } = await run('ip', args);
  return stdout;
}

async function namespaces(): Promise<string[]> {
  const out = await ip('netns', 'list');
  return out
    .split('\n')
    .map((l) => l.split(' ')[0] ?? '')
    .filter((n) => n.startsWith(NETNS_PREFIX));
}

/**
 * Remove every `wcsh-*` namespace, ending the processes inside first (only this harness puts
 * processes there: services, redis-server, postgres, the inner harness), and the run's data
 * directories. Safe to call when none exist.
 */
export async function removeNetwork(): Promise<string[]> {
  const found = await namespaces();
  for (const ns of found) {
    const pids = (await ip('netns', 'pids', ns).catch(() => ''))
      .split('\n')
      .map((p) => Number(p.trim()))
      .filter((p) => Number.isInteger(p) && p > 0);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const ns of found) await ip('netns', 'del', ns).catch(() => undefined);
  for (const name of readdirSync(os.tmpdir()).filter((n) => n.startsWith(TMP_PREFIX)))
    rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  return found;
}

/**
 * The test's own network: a bridge in a namespace of its own, and one namespace per host with a
 * veth pair from its `eth0` to a bridge port. No address or route in the machine's own namespace:
 * the hosts reach each other and nothing else.
 */
export async function createNetwork(): Promise<void> {
  await ip('netns', 'add', BRIDGE_NS);
  await ip('-n', BRIDGE_NS, 'link', 'add', 'br0', 'type', 'bridge');
  await ip('-n', BRIDGE_NS, 'link', 'set', 'br0', 'up');
  for (const h of Object.values(NET_HOSTS)) {
    await ip('netns', 'add', h.netns);
    await ip('-n', h.netns, 'link', 'set', 'lo', 'up');
    await ip(
      'link',
      'add',
      h.port,
      'netns',
      BRIDGE_NS,
      'type',
      'veth',
      'peer',
      'name',
      'eth0',
      'netns',
      h.netns,
    );
    await ip('-n', BRIDGE_NS, 'link', 'set', h.port, 'master', 'br0');
    await ip('-n', BRIDGE_NS, 'link', 'set', h.port, 'up');
    await ip('-n', h.netns, 'addr', 'add', `${h.address}/24`, 'dev', 'eth0');
    await ip('-n', h.netns, 'link', 'set', 'eth0', 'up');
  }
}

/** Take a host's link down or bring it back (its bridge port: the cable pulled out of the switch). */
export async function setLink(h: NetHost, state: 'up' | 'down'): Promise<void> {
  await ip('-n', BRIDGE_NS, 'link', 'set', h.port, state);
}
