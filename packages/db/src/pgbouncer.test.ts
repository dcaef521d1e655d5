import { pgbouncerBinary, type RunningPgBouncer, startPgBouncer } from '@wcs/testing';
import { AccountsRepository } from './accounts.repository';
import { ApiKeysRepository } from './api-keys.repository';
import { createDb, type Db, preparedStatementsFor } from './db';
import { migrateDatabase } from './migrations';
import { testDatabaseUrl } from './test-support/test-database';

/**
 * The hot paths' named prepared statements behind a real PgBouncer (Debian's 1.18) in transaction
 * mode, with one server connection: two application pools (two service processes) then share it,
 * as they would share any of PgBouncer's. The statement one prepared is on the server when the
 * other prepares the same name.
 */
const BIN = pgbouncerBinary();
if (!BIN) {
  console.warn(
    '[pgbouncer.test] SKIPPED: pgbouncer is not installed (scripts/ensure-tools.sh installs it: apt-get install -y pgbouncer)',
  );
}

describe('preparedStatementsFor', () => {
  test('the setting wins; unset, pgbouncer=true in the URL turns named statements off', () => {
    const base = 'postgresql://u@h:5432/db';
    expect(preparedStatementsFor(base)).toBe(true);
    expect(preparedStatementsFor(`${base}?pgbouncer=true`)).toBe(false);
    expect(preparedStatementsFor(`${base}?sslmode=require&pgbouncer=TRUE`)).toBe(false);
    expect(preparedStatementsFor(`${base}?pgbouncer=false`)).toBe(true);
    expect(preparedStatementsFor(`${base}?pgbouncer=true`, true)).toBe(true);
    expect(preparedStatementsFor(base, false)).toBe(false);
    expect(preparedStatementsFor('host=h dbname=db')).toBe(true);
  });
});

(BIN ? describe : describe.skip)('behind PgBouncer in transaction mode', () => {
  let bouncer: RunningPgBouncer;
  let apiKey: string;
  const dbs: Db[] = [];
  const open = (url: string, preparedStatements?: boolean) => {
    const db = createDb(url, { poolSize: 1, preparedStatements });
    dbs.push(db);
    return db;
  };

  beforeAll(async () => {
    const direct = testDatabaseUrl();
    await migrateDatabase(direct);
    bouncer = await startPgBouncer({ upstreamUrl: direct, poolMode: 'transaction', poolSize: 1 });
    // Prisma's interactive transaction (accounts.create) through PgBouncer too.
    const setup = open(bouncer.url(new URL(direct).pathname.slice(1), { pgbouncer: 'true' }));
    const account = await new AccountsRepository(setup).create({ plan: 'free', credits: 5 });
    apiKey = (await new ApiKeysRepository(setup).create(account.accountId)).apiKey;
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
    await bouncer?.stop();
  });

  const dbName = () => new URL(testDatabaseUrl()).pathname.slice(1);

  test('with named prepared statements, the second process fails on the statement the first prepared', async () => {
    const first = open(bouncer.url(dbName()), true);
    const second = open(bouncer.url(dbName()), true);
    expect(first.preparedStatements).toBe(true);
    expect(await new ApiKeysRepository(first).verify(apiKey)).toMatchObject({ plan: 'free' });
    await expect(new ApiKeysRepository(second).verify(apiKey)).rejects.toMatchObject({
      code: '42P05', // duplicate_prepared_statement: "prepared statement … already exists"
    });
  });

  test('with DATABASE_PREPARED_STATEMENTS=false, both succeed, again and again', async () => {
    const first = open(bouncer.url(dbName()), false);
    const second = open(bouncer.url(dbName()), false);
    for (let i = 0; i < 3; i++) {
      expect(await new ApiKeysRepository(first).verify(apiKey)).toMatchObject({ plan: 'free' });
      expect(await new ApiKeysRepository(second).verify(apiKey)).toMatchObject({ plan: 'free' });
    }
  });

  test('pgbouncer=true in DATABASE_URL turns them off by itself', async () => {
    const first = open(bouncer.url(dbName(), { pgbouncer: 'true' }));
    const second = open(bouncer.url(dbName(), { pgbouncer: 'true' }));
    expect(first.preparedStatements).toBe(false);
    expect(await new ApiKeysRepository(first).verify(apiKey)).toMatchObject({ plan: 'free' });
    expect(await new ApiKeysRepository(second).verify(apiKey)).toMatchObject({ plan: 'free' });
  });
});
