import { randomUUID } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';

/**
 * Driver adapter for the Prisma CLI's JS schema engine (`migrate deploy`, `migrate dev`, `migrate
 * diff`), fixing what trips it on PostgreSQL (see prisma/orm#27403):
 * - catalog columns of type `name` / `"char"` have no adapter mapping ("could not be deserialized"):
 *   pg results report them as text, and `"char"` columns are then typed Character, as the engine
 *   expects (a CHECK constraint in the schema otherwise panics introspection);
 * - the shadow database is derived by spreading the pool config and overriding `database`, which a
 *   `connectionString` silently wins over: the URL is split into fields instead;
 * - the stock shadow cleanup drops the database while its pool is still connected.
 * The runtime client (createDb) needs none of this: our tables use none of these types.
 */

const CHAR_OID = 18;
const NAME_OID = 19;
const TEXT_OID = 25;
/** ColumnTypeEnum.Character of @prisma/driver-adapter-utils. */
const COLUMN_TYPE_CHARACTER = 6;

type FieldsCarrier = { fields?: Array<{ dataTypeID: number }>; rows?: unknown[] } | null | undefined;
type AnyQuery = (...args: unknown[]) => unknown;
type ResultSet = { columnTypes: number[]; rows: unknown[] };

/** Column positions that were `"char"`, keyed by the result's rows array (which the adapter passes on). */
const charColumns = new WeakMap<unknown[], number[]>();

function remapResult<T>(res: T): T {
  // A multi-statement script yields an array of results.
  for (const r of (Array.isArray(res) ? res : [res]) as FieldsCarrier[]) {
    const chars: number[] = [];
    (r?.fields ?? []).forEach((f, i) => {
      if (f.dataTypeID === CHAR_OID) chars.push(i);
      if (f.dataTypeID === NAME_OID || f.dataTypeID === CHAR_OID) f.dataTypeID = TEXT_OID;
    });
    if (chars.length > 0 && r?.rows) charColumns.set(r.rows, chars);
  }
  return res;
}

/** Wrap one client's query() (callback and promise forms) so its results pass through remapResult. */
function patchClient(client: pg.Client): void {
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

/** Passed as the pool's `Client` class, so every connection of the pool is patched. */
class TypeRemappingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    patchClient(this);
  }
}

/**
 * After the adapter typed a result, give `"char"` columns the Character type. Migration scripts run
 * whole, in one simple query (as PostgreSQL's own tools and Prisma's native engine send them): the
 * stock adapter splits them at every `;`, which breaks function bodies (`$$ … $$`) and comments
 * that contain one.
 */
function patchAdapter<A extends object>(adapter: A, pool: pg.Pool): A {
  const target = adapter as unknown as {
    queryRaw: (q: unknown) => Promise<ResultSet>;
    executeScript: (script: string) => Promise<void>;
    onError: (err: unknown) => never;
  };
  const original = target.queryRaw.bind(adapter);
  target.queryRaw = async (q: unknown) => {
    const r = await original(q);
    for (const i of charColumns.get(r.rows) ?? []) r.columnTypes[i] = COLUMN_TYPE_CHARACTER;
    return r;
  };
  target.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (err) {
      target.onError(err);
    }
  };
  return adapter;
}

function createPool(config: pg.ClientConfig): pg.Pool {
  // allowExitOnIdle: idle connections must not keep a finished CLI process alive.
  return new pg.Pool({ ...config, max: 2, allowExitOnIdle: true, Client: TypeRemappingClient });
}

async function adminQuery(config: pg.ClientConfig, sql: string): Promise<void> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

class MigrationPrismaPg extends PrismaPg {
  private readonly pool: pg.Pool;

  constructor(private readonly clientConfig: pg.ClientConfig) {
    const pool = createPool(clientConfig);
    super(pool, { disposeExternalPool: true });
    this.pool = pool;
  }

  override async connect() {
    return patchAdapter(await super.connect(), this.pool);
  }

  override async connectToShadowDb() {
    const database = `prisma_migrate_shadow_db_${randomUUID()}`;
    await adminQuery(this.clientConfig, `CREATE DATABASE "${database}"`);
    const pool = createPool({ ...this.clientConfig, database });
    const shadow = patchAdapter(await new PrismaPg(pool, { disposeExternalPool: true }).connect(), pool);
    const disposePool = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await disposePool(); // close the shadow's connections first, or DROP DATABASE refuses
      await adminQuery(this.clientConfig, `DROP DATABASE IF EXISTS "${database}"`);
    };
    return shadow;
  }
}

export function createMigrationAdapter(connectionString: string): PrismaPg {
  return new MigrationPrismaPg(parseIntoClientConfig(connectionString));
}
