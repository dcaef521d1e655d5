import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

/** Postgres type OIDs the Prisma pg adapter cannot map (prisma/orm#27403), and what we report instead. */
const NAME_OID = 19;
const CHAR_OID = 18;
const TEXT_OID = 25;

type FieldsCarrier = { fields?: Array<{ dataTypeID: number }> } | null | undefined;
type AnyQuery = (...args: unknown[]) => unknown;

function remapResult<T>(res: T): T {
  // A multi-statement script yields an array of results.
  for (const r of (Array.isArray(res) ? res : [res]) as FieldsCarrier[]) {
    for (const f of r?.fields ?? []) {
      if (f.dataTypeID === NAME_OID || f.dataTypeID === CHAR_OID) f.dataTypeID = TEXT_OID;
    }
  }
  return res;
}

/** Wrap one client's query() (callback and promise forms) so its results pass through remapResult. */
function patchClient(client: pg.PoolClient): void {
  const target = client as unknown as { query: AnyQuery };
  const original = target.query.bind(client) as AnyQuery;
  target.query = (...args: unknown[]) => {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const cb = last as (err: unknown, res: unknown) => void;
      args[args.length - 1] = (err: unknown, res: unknown) => cb(err, err ? res : remapResult(res));
      return original(...args);
    }
    const out = original(...args);
    return out instanceof Promise ? out.then(remapResult) : out;
  };
}

/**
 * Driver adapter for the Prisma CLI (schema engine). The engine reads catalog tables through the
 * adapter and would fail with "Column type 'name' could not be deserialized"; this pool reports
 * `name`/`"char"` columns as text. Not needed by the runtime client (our tables use neither type).
 */
export function createMigrationAdapter(connectionString: string): PrismaPg {
  const pool = new pg.Pool({ connectionString, max: 2, allowExitOnIdle: true });
  pool.on('connect', patchClient);
  return new PrismaPg(pool, { disposeExternalPool: true });
}
