import { rawEnv } from '@wcs/config';
import { createDb, type Db } from '../db';
import { migrateDatabase } from '../migrations';

/** Tests use DATABASE_URL when set, else the local `wcs_test` database. */
export function testDatabaseUrl(): string {
  return rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test';
}

/** A migrated test database and a client for it; each test creates its own accounts. */
export async function openTestDb(opts: { poolSize?: number } = {}): Promise<Db> {
  const url = testDatabaseUrl();
  await migrateDatabase(url);
  return createDb(url, opts);
}
