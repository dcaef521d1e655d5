import pg from 'pg';
import type { FaultStack } from './fault-stack';
import { MONITOR_EVERY_MS } from './fault-stack';
import { waitFor } from './wait-for';

/** Read-only SQL against a fault's database (the checks look at the real rows, nothing mocked). */
export async function query<R extends pg.QueryResultRow>(
  databaseUrl: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Accounts whose ledger does not sum to their balance (must be none). */
export async function ledgerMismatches(databaseUrl: string): Promise<string[]> {
  const rows = await query<{ id: string; balance: number; sum: string }>(
    databaseUrl,
    `SELECT a.id::text AS id, a.balance, COALESCE(SUM(l.amount), 0)::text AS sum
     FROM accounts a LEFT JOIN credit_ledger l ON l.account_id = a.id
     GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(SUM(l.amount), 0)`,
  );
  return rows.map((r) => `account ${r.id.slice(0, 8)}: balance ${r.balance}, ledger sum ${r.sum}`);
}

export async function balanceOf(databaseUrl: string, accountId: string): Promise<number> {
  const rows = await query<{ balance: number }>(databaseUrl, 'SELECT balance FROM accounts WHERE id = $1', [
    accountId,
  ]);
  return rows[0]?.balance ?? Number.NaN;
}

export async function ledgerOf(
  databaseUrl: string,
  accountId: string,
): Promise<Array<{ reason: string; reference: string | null; amount: number }>> {
  return query(
    databaseUrl,
    'SELECT reason, reference, amount FROM credit_ledger WHERE account_id = $1 ORDER BY id',
    [accountId],
  );
}

async function checkCount(databaseUrl: string, monitorId: string): Promise<number> {
  const rows = await query<{ n: string }>(
    databaseUrl,
    'SELECT count(*)::text AS n FROM monitor_checks WHERE monitor_id = $1',
    [monitorId],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * A monitor is still scheduled when its BullMQ job scheduler is in Redis (within a few reconcile
 * intervals: after a Redis loss the monitor-scheduler has to put it back) and a check newer than
 * that is recorded within two intervals (plus slack).
 */
export async function monitorStillScheduled(
  stack: FaultStack,
  monitorId: string,
): Promise<{ ok: boolean; note?: string }> {
  const queue = stack.producer.queue('monitor-check');
  const inRedis = await waitFor(
    'monitor scheduler in Redis',
    async () =>
      (await queue.getJobSchedulers(0, -1, true)).some((s) => s.key === monitorId) ? true : undefined,
    30_000,
    200,
  ).catch(() => false);
  const before = await checkCount(stack.databaseUrl, monitorId);
  const next = await waitFor(
    'next monitor check',
    async () => ((await checkCount(stack.databaseUrl, monitorId)) > before ? true : undefined),
    2 * MONITOR_EVERY_MS + 20_000,
    200,
  ).catch(() => false);
  if (inRedis && next) return { ok: true };
  return {
    ok: false,
    note: `monitor: scheduler in Redis ${inRedis ? 'yes' : 'NO'}, next check ran ${next ? 'yes' : 'NO'}`,
  };
}

/** Successful checks of an account's monitors: each costs one credit (reference = check id). */
export async function billedChecks(databaseUrl: string, accountId: string): Promise<number> {
  const rows = await query<{ n: string }>(
    databaseUrl,
    `SELECT count(*)::text AS n FROM monitor_checks c JOIN monitors m ON m.id = c.monitor_id
     WHERE m.account_id = $1 AND c.hash IS NOT NULL`,
    [accountId],
  );
  return Number(rows[0]?.n ?? 0);
}
