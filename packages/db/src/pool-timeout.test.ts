import pg from 'pg';
import { isPoolTimeout } from './pool-timeout';
import { testDatabaseUrl } from './test-support/test-database';

const DATABASE_URL = testDatabaseUrl();

describe('isPoolTimeout', () => {
  test("a pool whose only connection is taken answers the next caller with the pool's timeout", async () => {
    // The only connection is made with room to spare (a busy machine takes more than 50 ms to
    // open one); the waiter behind it then gets the pool's short timeout.
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1, connectionTimeoutMillis: 30_000 });
    const held = await pool.connect();
    (pool as unknown as { options: { connectionTimeoutMillis: number } }).options.connectionTimeoutMillis =
      50;
    try {
      const err = await pool.query('SELECT 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(isPoolTimeout(err)).toBe(true);
      expect(isPoolTimeout(new Error('wrapped', { cause: err }))).toBe(true);
    } finally {
      held.release();
      await pool.end();
    }
  });

  test('other errors are not', async () => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    try {
      const err = await pool.query('SELECT * FROM no_such_table_here').then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect(isPoolTimeout(err)).toBe(false);
      expect(isPoolTimeout('timeout')).toBe(false);
    } finally {
      await pool.end();
    }
  });
});
