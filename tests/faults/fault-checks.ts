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
  const state = await monitorState(stack, monitorId).catch(
    (err: unknown) => `state unreadable: ${String(err)}`,
  );
  return {
    ok: false,
    note: `monitor: scheduler in Redis ${inRedis ? 'yes' : 'NO'}, next check ran ${next ? 'yes' : 'NO'}; ${state}`,
  };
}

/**
 * What a stuck monitor looks like, for the failure's note (the row's logs are gone by the time a
 * CI run is read): the scheduler's next slot, that slot's job and its state, the queue's counts,
 * and the monitor's row and last checks in PostgreSQL.
 */
async function monitorState(stack: FaultStack, monitorId: string): Promise<string> {
  const queue = stack.producer.queue('monitor-check');
  const redis = stack.producer.connection;
  const now = Date.now();
  const score = await redis.zscore(queue.toKey('repeat'), monitorId);
  const jobId = score === null ? null : `repeat:${monitorId}:${score}`;
  const job = jobId ? await queue.getJob(jobId) : undefined;
  const jobState = jobId ? await queue.getJobState(jobId) : 'none';
  const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'completed', 'failed', 'prioritized');
  const [row] = await query<{
    status: string;
    paused_by: string | null;
    last: number | null;
    next: number | null;
  }>(
    stack.databaseUrl,
    `SELECT status, paused_by, (extract(epoch FROM last_check_at) * 1000)::float8 AS last,
            (extract(epoch FROM next_check_at) * 1000)::float8 AS next FROM monitors WHERE id = $1`,
    [monitorId],
  );
  const checks = await query<{ at: number; hash: string | null; error_code: string | null }>(
    stack.databaseUrl,
    `SELECT (extract(epoch FROM checked_at) * 1000)::float8 AS at, hash, error_code FROM monitor_checks
     WHERE monitor_id = $1 ORDER BY checked_at DESC LIMIT 3`,
    [monitorId],
  );
  const ago = (ms: number | null | undefined) =>
    ms == null ? 'none' : `${Math.round((now - ms) / 100) / 10} s ago`;
  return [
    `slot ${score === null ? 'none' : ago(Number(score))}`,
    `slot job ${jobState}${job ? ` (attempts ${job.attemptsMade}, processed ${ago(job.processedOn)}, finished ${ago(job.finishedOn)}${job.failedReason ? `, failed: ${job.failedReason}` : ''})` : ''}`,
    `queue ${JSON.stringify(counts)}`,
    `row ${row ? `${row.status}${row.paused_by ? `/${row.paused_by}` : ''}, last check ${ago(row.last)}, next ${ago(row.next)}` : 'missing'}`,
    `last checks ${checks.map((c) => `${ago(c.at)} ${c.hash ? 'ok' : (c.error_code ?? 'failed')}`).join(', ') || 'none'}`,
    `monitor-scheduler's last warnings: ${lastWarnings(stack.logs()) || 'none'}`,
  ].join('; ');
}

/** The monitor-scheduler's last few warnings and errors (message and error only, shortened). */
function lastWarnings(lines: string[]): string {
  const warned: string[] = [];
  for (const line of lines) {
    if (!line.includes('"service":"monitor-scheduler"')) continue;
    const json = line.slice(line.indexOf('{'));
    try {
      const e = JSON.parse(json) as {
        level?: number;
        msg?: string;
        err?: { message?: string };
        error?: string;
      };
      if ((e.level ?? 0) >= 40) warned.push(`${e.msg}: ${(e.err?.message ?? e.error ?? '').slice(0, 160)}`);
    } catch {
      // Not a JSON log line.
    }
  }
  return warned.slice(-4).join(' | ');
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
