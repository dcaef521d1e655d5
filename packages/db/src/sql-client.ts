/**
 * Raw SQL on the hot paths (a batch item's start and finish, a crawl page's, the search index
 * write) straight through `pg`, with the tagged-template API of Prisma's `$queryRaw`/`$executeRaw`
 * so a repository's statements read the same either way. Why: Prisma's client (its query
 * interpreter in WebAssembly) costs ~0.64 ms of CPU per raw query and ~1.3 ms per two-statement
 * transaction; `pg` with a prepared statement ~0.1 ms (measured on this machine) — per page, that
 * was a sixth of what a scrape worker spent. Same pool as Prisma's adapter: no extra connections.
 *
 * Behind a pooler in transaction mode (PgBouncer before 1.21) a statement prepared under a name
 * stays on whichever server connection ran it, so the next use lands on another one ("prepared
 * statement … does not exist" / "already exists"): with `preparedStatements` off, statements go
 * unnamed (parse, bind and execute in one round trip, as Prisma's adapter sends its own).
 *
 * Results are typed like Prisma's raw results where our statements rely on it: int8 → BigInt,
 * numeric → string (as pg), timestamptz → Date, json/jsonb parsed.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { Prisma } from './generated/prisma/client';

/** What a repository's raw statements need: Prisma's Tx satisfies it too. */
export interface SqlClient {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): PromiseLike<number>;
}

const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID
      ? (v: string) => BigInt(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Statements are prepared per connection under a name derived from their text; texts that vary
 * (a list spliced in) would fill every connection's statement cache, so naming stops at this many.
 */
const MAX_NAMED_STATEMENTS = 500;
const named = new Map<string, string>();

function statementName(text: string): string | undefined {
  const known = named.get(text);
  if (known || named.size >= MAX_NAMED_STATEMENTS) return known;
  const name = `wcs_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  named.set(text, name);
  return name;
}

type Queryable = pg.Pool | pg.PoolClient;

/** A pool and whether its statements may be prepared under a name (`Db` is one). */
export interface SqlPool {
  pool: pg.Pool;
  preparedStatements: boolean;
}

function toSql(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Prisma.Sql {
  return query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
}

async function run(
  on: Queryable,
  prepared: boolean,
  query: TemplateStringsArray | Prisma.Sql,
  values: unknown[],
) {
  const sql = toSql(query, values);
  const name = prepared ? statementName(sql.text) : undefined;
  return on.query({ text: sql.text, values: sql.values as unknown[], types, ...(name ? { name } : {}) });
}

function clientOn(on: Queryable, prepared: boolean): SqlClient {
  return {
    async $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> {
      return (await run(on, prepared, query, values)).rows as T;
    },
    async $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number> {
      return (await run(on, prepared, query, values)).rowCount ?? 0;
    },
  };
}

/**
 * Joined into a statement that commits on its own (`FROM …, ${ASYNC_COMMIT}`): that statement's
 * commit does not wait for its WAL to reach the disk (`synchronous_commit` off for its own
 * transaction only; the row is visible to everyone at once, as with any commit). Only for writes
 * whose loss in a crash of PostgreSQL itself — not of a worker — costs nothing but doing the work
 * again: a page-cache entry, a page's or item's start. A later synchronous commit flushes the WAL
 * before it, so nothing that depends on such a write survives without it. On this 2-core VM a
 * single-row write's round trip went 0.36–0.40 → 0.14 ms. Inside `sqlTransaction` it would make
 * the whole transaction asynchronous: never there.
 */
export const ASYNC_COMMIT = Prisma.raw(
  "(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit",
);

/** Statements on the pool (each one commits on its own). */
export function sqlClient(db: SqlPool): SqlClient {
  return clientOn(db.pool, db.preparedStatements);
}

/** One transaction on one pooled connection: committed when fn returns, rolled back when it throws. */
export async function sqlTransaction<T>(db: SqlPool, fn: (tx: SqlClient) => Promise<T>): Promise<T> {
  const conn = await db.pool.connect();
  let broken = false;
  try {
    await conn.query('BEGIN');
    const out = await fn(clientOn(conn, db.preparedStatements));
    await conn.query('COMMIT');
    return out;
  } catch (err) {
    await conn.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    // A connection that could not roll back is closed, not handed to the next caller.
    conn.release(broken);
  }
}

/**
 * JSON for a jsonb column. PostgreSQL rejects NUL in text and jsonb, and scraped pages do contain it:
 * drop every `\u0000` escape (one not itself preceded by an escaping backslash).
 */
export function toJsonb(value: unknown): string {
  const json = JSON.stringify(value);
  // The scan for the escape is a plain search; the replace's lookbehind walks the whole text, a
  // crawl page's result and links (~20 KB) on every completion, and almost never finds one.
  return json.includes('\\u0000') ? json.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1') : json;
}
