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
  /** Whether the hot paths' raw SQL names its prepared statements (`sql-client.ts`). */
  preparedStatements: boolean;
  close(): Promise<void>;
}

export interface DbOptions {
  /** Connections in this pool (default SERVICE_POOL_SIZE). Each service process gets its own pool. */
  poolSize?: number;
  /**
   * Named prepared statements on the hot paths (DATABASE_PREPARED_STATEMENTS). Unset: on, unless
   * the URL says `pgbouncer=true` (`preparedStatementsFor`).
   */
  preparedStatements?: boolean;
}

/**
 * Whether statements may be prepared under a name on this database URL: the setting when given,
 * else not when the URL carries `pgbouncer=true` — Prisma's own flag for a pooler in transaction
 * mode, so one URL tells both. pg ignores the parameter.
 */
export function preparedStatementsFor(databaseUrl: string, setting?: boolean): boolean {
  if (setting !== undefined) return setting;
  let flag: string | null = null;
  try {
    flag = new URL(databaseUrl).searchParams.get('pgbouncer');
  } catch {
    return true; // not a URL (a libpq key/value string): nothing to detect
  }
  return flag?.toLowerCase() !== 'true';
}

/**
 * Prisma's query compiler is WebAssembly. V8 compiles it with Liftoff, then again with TurboFan in
 * the background: the second copy costs each process ~20 MB idle and ~27 MB after 1,000 queries,
 * and bought nothing (1,000 queries took 1.0 s on Liftoff only vs 1.3–1.5 s with tier-up, measured
 * on this project's queries). Set before the first client compiles it; the services start with it
 * (SERVICE_NODE_FLAGS), so undici's llhttp parser, the main thread's other wasm, runs on Liftoff
 * there as it did when this ran before undici's first request.
 */
let wasmTierUpOff = false;
function keepWasmOnLiftoff(): void {
  if (wasmTierUpOff) return;
  setFlagsFromString('--liftoff-only');
  wasmTierUpOff = true;
}

/** Connections of a service's own pool (createDb's default). */
export const SERVICE_POOL_SIZE = 10;

/**
 * What a process running several services hands each to share (the one-process mode): one Db (one
 * pool, one Prisma client and its WebAssembly query compiler) instead of one per service. A service
 * given one uses it and leaves closing it to the process; otherwise it makes and closes its own.
 */
export interface SharedDb {
  db?: Db;
}

/** The database settings every service parses (`databaseEnv` of @wcs/config). */
export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_PREPARED_STATEMENTS?: boolean | undefined;
}

/** The Db a service runs on: the process's shared one when given, else its own from its settings. */
export function serviceDb(env: DatabaseSettings, shared: SharedDb = {}): Db {
  return shared.db ?? createDb(env.DATABASE_URL, { preparedStatements: env.DATABASE_PREPARED_STATEMENTS });
}

/** Prisma client over the pg driver adapter (no native engine). Call close() on shutdown. */
export function createDb(databaseUrl: string, opts: DbOptions = {}): Db {
  keepWasmOnLiftoff();
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.poolSize ?? SERVICE_POOL_SIZE,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection's error (the server restarted) must not crash the process.
  pool.on('error', () => undefined);
  // Every transaction (the batch form too, e.g. a monitor's detail read as one snapshot) waits as
  // inTransaction's do: Prisma's 2 s for a pooled connection made loaded machines answer 500.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_WAITS });
  return {
    prisma,
    pool,
    preparedStatements: preparedStatementsFor(databaseUrl, opts.preparedStatements),
    close: async () => {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

/** How long a transaction waits for a pooled connection, and may run (Prisma's defaults: 2 s / 5 s). */
const TRANSACTION_WAITS = { maxWait: 15_000, timeout: 20_000 } as const;

/**
 * Run fn in one interactive transaction. Bursts of concurrent callers queue for a pooled connection
 * and for row locks, so the waits are more generous than Prisma's defaults (2 s / 5 s).
 */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.prisma.$transaction(fn, TRANSACTION_WAITS);
}
