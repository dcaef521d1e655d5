import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/**
 * A real PgBouncer for tests: its own pgbouncer.ini and userlist in a temp dir, in front of the
 * test PostgreSQL. Debian's `pgbouncer` (scripts/ensure-tools.sh installs it) is 1.18, which keeps
 * no prepared statements across transactions in transaction mode — what a deployment behind an
 * older or managed pooler sees.
 */

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

/** The pgbouncer binary, or undefined when it is not installed. */
export function pgbouncerBinary(): string | undefined {
  for (const c of CANDIDATES) if (spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0) return c;
  const found = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : undefined;
}

export interface PgBouncerOptions {
  /** The PostgreSQL it pools (its host, port, user and password are used; every database is passed on). */
  upstreamUrl: string;
  /** `transaction` (default) or `session`. */
  poolMode?: 'transaction' | 'session';
  /** Server connections per database/user pair (default 4). */
  poolSize?: number;
  /** Listen port (default: a free one). */
  port?: number;
}

export interface RunningPgBouncer {
  port: number;
  /** `upstreamUrl` pointed at PgBouncer, on `database`, with extra query parameters. */
  url(database: string, params?: Record<string, string>): string;
  /** What PgBouncer wrote to stderr (its log). */
  log(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** PgBouncer refuses to run as root: as root it is told to switch to an unprivileged user. */
function runAsArgs(): string[] {
  if (userInfo().uid !== 0) return [];
  const user = ['postgres', 'nobody'].find(
    (u) => spawnSync('id', ['-u', u], { stdio: 'ignore' }).status === 0,
  );
  if (!user) throw new Error('pgbouncer will not run as root and neither user postgres nor nobody exists');
  return ['-u', user];
}

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

export async function startPgBouncer(opts: PgBouncerOptions): Promise<RunningPgBouncer> {
  const bin = pgbouncerBinary();
  if (!bin)
    throw new Error('pgbouncer is not installed (apt-get install -y pgbouncer; scripts/ensure-tools.sh)');
  const upstream = new URL(opts.upstreamUrl);
  const user = decodeURIComponent(upstream.username || 'postgres');
  const password = decodeURIComponent(upstream.password);
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), 'wcs-pgbouncer-'));
  // Read by the unprivileged user PgBouncer switches to (as root).
  chmodSync(dir, 0o755);
  const server = [
    `host=${upstream.hostname.replace(/^\[|\]$/g, '')}`,
    `port=${upstream.port || '5432'}`,
    `user=${user}`,
    ...(password ? [`password=${password}`] : []),
  ].join(' ');
  const ini = [
    '[databases]',
    // The fallback entry: any database name a client asks for, on the upstream server.
    `* = ${server}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    `pool_mode = ${opts.poolMode ?? 'transaction'}`,
    `default_pool_size = ${opts.poolSize ?? 4}`,
    'max_client_conn = 500',
    'ignore_startup_parameters = extra_float_digits,options',
    'logfile =',
    'pidfile =',
    'log_connections = 0',
    'log_disconnections = 0',
  ].join('\n');
  writeFileSync(path.join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
  writeFileSync(path.join(dir, 'userlist.txt'), `${quote(user)} ${quote(password)}\n`, { mode: 0o644 });

  let log = '';
  const child: ChildProcess = spawn(bin, [...runAsArgs(), path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (b: Buffer) => {
    log = (log + b.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const stop = async () => {
    if (!gone) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Listening is the readiness signal; an early exit ends the wait with PgBouncer's own words.
  for (let tries = 0; !(await accepts(port)); tries++) {
    if (gone || tries > 300) {
      await stop();
      throw new Error(`pgbouncer did not start on port ${port}: ${log.trim() || 'no output'}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    url(database, params = {}) {
      const u = new URL(opts.upstreamUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      u.pathname = `/${database}`;
      u.search = '';
      for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
      return u.toString();
    },
    log: () => log,
    stop,
  };
}
