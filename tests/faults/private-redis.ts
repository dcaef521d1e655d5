import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { waitFor } from './wait-for';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface PrivateRedis {
  url: string;
  /** Delete every key of one queue prefix (what a Redis restart without persistence does to it). */
  flushPrefix(prefix: string): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A redis-server child on a free port, no persistence: the faults' queues live here only. `host`:
 * the address it listens on (default loopback; a stores namespace's address for hosts runs).
 */
export async function startPrivateRedis(host = '127.0.0.1'): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    // Not protected mode: a namespace's address is not loopback, and only the test's own
    // namespaces can reach it.
    ['--port', String(port), '--bind', host, '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
    { stdio: 'ignore' },
  );
  await waitFor(
    'redis-server listening',
    async () => ((await portOpen(port, host)) ? true : undefined),
    30_000,
    50,
  );
  const url = `redis://${host}:${port}`;
  const admin = new Redis(url, { maxRetriesPerRequest: 3 });
  return {
    url,
    async flushPrefix(prefix) {
      let cursor = '0';
      let deleted = 0;
      do {
        const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) deleted += await admin.del(...keys);
      } while (cursor !== '0');
      return deleted;
    },
    async stop() {
      admin.disconnect();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
