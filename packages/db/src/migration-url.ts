/**
 * The URL migrations run on. `prisma migrate deploy` holds a session-level advisory lock for the
 * whole run and sends DDL across several transactions: behind a pooler in transaction mode the lock
 * stays on whichever server connection took it (and the unlock lands on another one). So migrations
 * take DIRECT_DATABASE_URL, PostgreSQL itself, when DATABASE_URL goes through PgBouncer.
 */
export function migrationDatabaseUrl(databaseUrl: string | undefined, directUrl?: string): string {
  const url = directUrl || databaseUrl;
  if (!url) throw new Error('DATABASE_URL (or DIRECT_DATABASE_URL) is required (postgresql://…)');
  if (throughPgBouncer(url)) {
    throw new Error(
      `${directUrl ? 'DIRECT_DATABASE_URL' : 'DATABASE_URL'} has pgbouncer=true: migrations need a direct connection to PostgreSQL; set DIRECT_DATABASE_URL`,
    );
  }
  return url;
}

function throughPgBouncer(url: string): boolean {
  try {
    return new URL(url).searchParams.get('pgbouncer')?.toLowerCase() === 'true';
  } catch {
    return false;
  }
}
