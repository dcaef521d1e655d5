import { AccountsRepository } from './accounts.repository';
import type { Db } from './db';
import { Prisma } from './generated/prisma/client';
import { ASYNC_COMMIT, sqlClient, sqlTransaction } from './sql-client';
import { openTestDb } from './test-support/test-database';

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(() => db.close());

describe('sqlClient', () => {
  it('answers a raw query with the values Prisma’s $queryRaw gives (int8, timestamptz, jsonb, null, uuid)', async () => {
    const query = (c: Pick<Db['prisma'], '$queryRaw'>) =>
      c.$queryRaw<Array<Record<string, unknown>>>`
        SELECT ${41}::int + 1 AS n, count(*) AS c, ${'2026-01-02T03:04:05.678Z'}::timestamptz AS t,
               ${JSON.stringify({ a: [1, 'x'] })}::jsonb AS j, NULL::text AS z,
               ${'7b0c2c8e-4a4f-4c8a-9b8e-1a2b3c4d5e6f'}::uuid AS u
        FROM (VALUES (1), (2)) v(x)`;
    const ours = await query(sqlClient(db) as unknown as Pick<Db['prisma'], '$queryRaw'>);
    const prismas = await query(db.prisma);
    expect(ours).toEqual(prismas);
    expect(ours[0]).toEqual({
      n: 42,
      c: 2n,
      t: new Date('2026-01-02T03:04:05.678Z'),
      j: { a: [1, 'x'] },
      z: null,
      u: '7b0c2c8e-4a4f-4c8a-9b8e-1a2b3c4d5e6f',
    });
  });

  it('splices Prisma.sql fragments and Prisma.join lists as $queryRaw does', async () => {
    const cols = Prisma.sql`${'a'}::text AS first`;
    const rows = await sqlClient(db).$queryRaw<Array<{ first: string; hit: boolean }>>`
      SELECT ${cols}, 3 IN (${Prisma.join([1, 2, 3])}) AS hit`;
    expect(rows).toEqual([{ first: 'a', hit: true }]);
  });

  it('$executeRaw returns the rows it changed', async () => {
    const { accountId } = await new AccountsRepository(db).create({ plan: 'free', credits: 5 });
    const changed = await sqlClient(db).$executeRaw`
      UPDATE accounts SET balance = balance + 1 WHERE id = ${accountId}::uuid`;
    expect(changed).toBe(1);
  });
});

describe('sqlTransaction', () => {
  it('commits when the function returns and rolls everything back when it throws', async () => {
    const accounts = new AccountsRepository(db);
    const { accountId } = await accounts.create({ plan: 'free', credits: 10 });
    const balance = async () =>
      (
        await db.prisma.$queryRaw<Array<{ b: number }>>`
          SELECT balance AS b FROM accounts WHERE id = ${accountId}::uuid`
      )[0]?.b;
    const add = (tx: Parameters<Parameters<typeof sqlTransaction>[1]>[0], n: number) =>
      tx.$executeRaw`UPDATE accounts SET balance = balance + ${n}::int WHERE id = ${accountId}::uuid`;

    await sqlTransaction(db, async (tx) => {
      await add(tx, 1);
      await add(tx, 2);
    });
    expect(await balance()).toBe(13);

    await expect(
      sqlTransaction(db, async (tx) => {
        await add(tx, 100);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await balance()).toBe(13);

    // A failing statement also rolls back what ran before it; the connection stays usable.
    await expect(
      sqlTransaction(db, async (tx) => {
        await add(tx, 100);
        await tx.$executeRaw`SELECT 1/0`;
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await balance()).toBe(13);
    for (let i = 0; i < 12; i++)
      await sqlTransaction(db, async (tx) => {
        await add(tx, 0);
      });
  });
});

describe('ASYNC_COMMIT', () => {
  it('turns synchronous_commit off for its own statement only, not for the connection after it', async () => {
    const conn = await db.pool.connect();
    try {
      const setting = async () => (await conn.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
      const before = await setting();
      const q = Prisma.sql`SELECT current_setting('synchronous_commit') AS during FROM ${ASYNC_COMMIT}`;
      const during = await conn.query(q.text, q.values as unknown[]);
      expect(during.rows).toEqual([{ during: 'off' }]);
      expect(before).not.toBe('off');
      expect(await setting()).toBe(before);
    } finally {
      conn.release();
    }
  });
});
