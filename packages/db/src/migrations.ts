import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ensureDatabase } from './ensure-database';
import { migrationDatabaseUrl } from './migration-url';

const PACKAGE_DIR = path.resolve(__dirname, '..');
const MIGRATIONS_DIR = path.resolve(PACKAGE_DIR, '../../prisma/migrations');
const PRISMA_CLI = path.join(PACKAGE_DIR, 'node_modules/prisma/build/index.js');

function committedMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

async function appliedMigrations(databaseUrl: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const r = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    return new Set(r.rows.map((row) => row.migration_name));
  } catch {
    return new Set(); // no _prisma_migrations table yet
  } finally {
    await client.end();
  }
}

/**
 * Create the database if missing and apply the committed migrations (`prisma migrate deploy`),
 * skipping the ~3 s CLI run when all are applied. For tests and local tooling; deployments run
 * `pnpm db:migrate`. A URL through PgBouncer (`pgbouncer=true`) is refused: see migration-url.ts.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const databaseUrl = migrationDatabaseUrl(url);
  await ensureDatabase(databaseUrl);
  const applied = await appliedMigrations(databaseUrl);
  if (committedMigrations().every((m) => applied.has(m))) return;
  await promisify(execFile)(process.execPath, [PRISMA_CLI, 'migrate', 'deploy'], {
    cwd: PACKAGE_DIR,
    // A minimal environment on purpose: the child needs only the target database.
    env: { DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    timeout: 120_000,
  });
}
