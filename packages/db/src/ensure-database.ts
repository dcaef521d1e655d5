import pg from 'pg';

/**
 * Create the database named in `databaseUrl` if it does not exist, by connecting to the server's
 * `postgres` database with the same credentials. Used by tests and local tooling.
 */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL has no database name: ${url.origin}`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      } catch (err) {
        // Another process created it between our check and CREATE: that is success.
        const code = (err as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw err;
      }
    }
  } finally {
    await client.end();
  }
}
