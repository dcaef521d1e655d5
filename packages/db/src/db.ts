import { setFlagsFromString } from 'node:v8';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Prisma } from './generated/prisma/client';
import { PrismaClient } from './generated/prisma/client';

export type { PrismaClient };
export type Tx = Prisma.TransactionClient;

export interface Db {
  prisma: PrismaClient;
  /** The connection pool Prisma's adapter uses, for the hot paths' raw SQL (`sql-client.ts`). */
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface DbOptions {
  /** Connections in this process's pool (default 10). Each service process gets its own pool. */
  poolSize?: number;
}

/**
 * Prisma's query compiler is WebAssembly. V8 compiles it with Liftoff, then again with TurboFan in
 * the background: the second copy costs each process ~20 MB idle and ~27 MB after 1,000 queries,
 * and bought nothing (1,000 queries took 1.0 s on Liftoff only vs 1.3–1.5 s with tier-up, measured
 * on this project's queries). Set before the first client compiles it; no other wasm runs on the
 * main thread.
 */
let wasmTierUpOff = false;
function keepWasmOnLiftoff(): void {
  if (wasmTierUpOff) return;
  setFlagsFromString('--liftoff-only');
  wasmTierUpOff = true;
}

/** Prisma client over the pg driver adapter (no native engine). Call close() on shutdown. */
export function createDb(databaseUrl: string, opts: DbOptions = {}): Db {
  keepWasmOnLiftoff();
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.poolSize ?? 10,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection's error (the server restarted) must not crash the process.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    close: async () => {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

/**
 * Run fn in one interactive transaction. Bursts of concurrent callers queue for a pooled connection
 * and for row locks, so the waits are more generous than Prisma's defaults (2 s / 5 s).
 */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.prisma.$transaction(fn, { maxWait: 15_000, timeout: 20_000 });
}
