import type { Db } from './db';

/**
 * Starts what a Db's first query would otherwise do on its way: instantiating Prisma's WebAssembly
 * query compiler and opening one pooled connection. A process that starts several services calls
 * it as soon as it has made its Db, so that work overlaps their waits on Redis instead of adding to
 * the first query's (the one-process start's last step was its scheduler's first query: ~0.1 s).
 * Failures are left to the queries themselves: they connect, and fail, as they would have.
 */
export function warmUpDb(db: Db): void {
  db.prisma.$connect().catch(() => undefined);
  db.pool.connect().then(
    (client) => client.release(),
    () => undefined,
  );
}
